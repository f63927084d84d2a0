package callruntime

import (
	"os"
	"sync"
)

// A Berth is a call's tree made before its call is known — on Linux a
// cgroup — for a process that waits there to be handed one: a warm
// template's spare ([Adopter]), forked straight into it (clone3 with
// CLONE_INTO_CGROUP). A call run with it ([Spec.Berth]) has the berth as
// its tree, so the spare is already where Run would otherwise move it:
// a move into a cgroup (cgroup.procs) waits for an RCU grace period,
// 4.6–32.9 ms on a 2-core guest (BENCHMARKS.md, "A warm call's wall time,
// broken down"), where a fork into it costs nothing more.
//
// A berth holds no call until Run takes it; what waits in it is guarded as
// a call's tree is when the server dies (the lifeline kills the cgroups of
// the Runner's home) and by the Runner's Close. Nothing in it is trusted:
// Run still checks where the child it adopts is, and moves it if it is not
// in the call's tree; whatever else is in the tree when the program ends is
// stopped with it, as anything the program left would be.
type Berth struct {
	mu sync.Mutex
	t  berthTree // nil once a Run took it or it was released
}

// berthTree is a tree a Berth can hold: one that exists before its call,
// with a directory a process can be forked into.
type berthTree interface {
	tree
	cgroupDirTree
	// forCall reports whether a call of spec may run in it: one whose
	// limits the berth was not made with (a kernel memory ceiling) may not.
	forCall(spec *Spec) bool
}

// berther is a platform that can make berths.
type berther interface {
	newBerth() (berthTree, error)
}

// Berth makes a berth, or returns nil where calls' trees are not places a
// process can be forked into ahead of its call (no cgroup v2 here, the
// /proc walk, macOS, Windows): a waiting process is then moved into its
// call's tree when the call comes, as before.
func (r *Runner) Berth() *Berth {
	p, err := r.platform()
	if err != nil {
		return nil
	}
	b, ok := p.(berther)
	if !ok {
		return nil
	}
	t, err := b.newBerth()
	if err != nil || t == nil {
		return nil
	}
	return &Berth{t: t}
}

// Dir opens the berth's directory, for a fork into it; nil once the berth
// was taken or released, or where it cannot be opened. The caller closes it.
func (b *Berth) Dir() *os.File {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.t == nil {
		return nil
	}
	return b.t.cgroupDir()
}

// Taken reports whether a Run took the berth as its call's tree (or it was
// released): from then on it is not the caller's.
func (b *Berth) Taken() bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.t == nil
}

// take hands the berth's tree to a Run of spec; nil when there is none to
// take, or spec may not run in it (the berth stays the caller's).
func (b *Berth) take(spec *Spec) tree {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.t == nil || !b.t.forCall(spec) {
		return nil
	}
	t := b.t
	b.t = nil
	return t
}

// Release ends a berth no Run took: whatever waits in it is killed, and the
// tree is removed. It does nothing to a berth a Run took.
func (b *Berth) Release() {
	if b == nil {
		return
	}
	b.mu.Lock()
	t := b.t
	b.t = nil
	b.mu.Unlock()
	if t == nil {
		return
	}
	t.stop(0, true)
	t.settle()
	t.release()
}
