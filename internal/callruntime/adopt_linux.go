package callruntime

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Adoption on Linux (see adopt.go). A warm child is forked by its template,
// not by us, so CLONE_INTO_CGROUP and a Pdeathsig from our spawner thread do
// not apply to it. Instead:
//
//   - it is forked straight into the call's cgroup (the Adopter is given
//     the directory: clone3 with CLONE_INTO_CGROUP, as a cold call's
//     child), or moved there by pid (cgroup.procs) — or, on the /proc-walk
//     path, made the leader of the call's membership, recorded in the
//     ledger and given to the lifeline — before it gets its start, so not
//     a line of the program runs outside the tree;
//   - the pid is checked first: its parent must be the template, and it
//     must not have exited (it cannot: it waits for its start);
//   - its death with the server is a chain: the template is a helper
//     (StartHelper: Pdeathsig from the spawner thread, known to the
//     lifeline), and each child asks for Pdeathsig SIGKILL on the
//     template's death; the lifeline kills the cgroup home (every call
//     tree, setsid descendants included) or the leaders' process groups.

// checkAdoptee reads pid's /proc entry and checks that it is parent's live
// child.
func checkAdoptee(pid, parent int) (proc, error) {
	pi, ok := readStat(pid)
	switch {
	case !ok:
		return pi, fmt.Errorf("process %d is gone", pid)
	case pi.ppid != parent:
		return pi, fmt.Errorf("process %d is not the template's child (its parent is %d, not %d)", pid, pi.ppid, parent)
	case pi.zombie:
		return pi, fmt.Errorf("process %d has already exited", pid)
	}
	return pi, nil
}

func (t *cgroupTree) adopt(pid, parent int) error {
	if _, err := checkAdoptee(pid, parent); err != nil {
		return err
	}
	t.p.startMu.RLock()
	defer t.p.startMu.RUnlock()
	// Forked into the cgroup (CLONE_INTO_CGROUP): nothing to move. Else
	// moved now, before it got its start.
	if !t.holdsPid(pid) {
		if err := os.WriteFile(filepath.Join(t.dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
			return fmt.Errorf("moving the forked program into its cgroup: %w", err)
		}
	}
	t.leader = pid
	t.p.leaders.Store(pid, uint64(0))
	return nil
}

// holdsPid reports whether pid is in this call's cgroup.
func (t *cgroupTree) holdsPid(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return false
	}
	want := "0::" + filepath.Join(t.home.rel, filepath.Base(t.dir))
	for _, line := range strings.Split(string(b), "\n") {
		if line == want {
			return true
		}
	}
	return false
}

// cgroupDir opens the call's cgroup directory for a child forked into it,
// where clone3 with CLONE_INTO_CGROUP works here (as for a cold call).
func (t *cgroupTree) cgroupDir() *os.File {
	if !t.p.cloneFD.Load() {
		return nil
	}
	fd, err := unix.Open(t.dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	return os.NewFile(uintptr(fd), t.dir)
}

// adopt makes pid the call's leader as walkTree.start makes a child it
// started: the leaders' registry, the membership that remembers each member
// by pid and start time, the ledger (the durable record a next server
// sweeps if this one dies), the lifeline.
func (t *walkTree) adopt(pid, parent int) error {
	pi, err := checkAdoptee(pid, parent)
	if err != nil {
		return err
	}
	t.p.startMu.RLock()
	t.leader = pid
	t.p.leaders.Store(pid, pi.start)
	t.p.startMu.RUnlock()
	t.m = newMembership(ident{pid, pi.start}, os.Getpid())
	t.call = t.p.calls.Add(1)
	t.p.ledger.add(t.call, pi)
	t.p.lifeline().watch(pid)
	return nil
}

// startHelper starts cmd on the spawner thread with the leaders' attributes
// (own process group, Pdeathsig) and tells the lifeline about its group.
func (p *linuxPlatform) startHelper(cmd *exec.Cmd) (func(), error) {
	life := p.lifeline()
	cmd.SysProcAttr = p.sysProcAttr()
	_, err := spawn(func() (*exec.Cmd, error) {
		// Under startMu, as a call's leader: a sweep must never see the
		// helper before it is known.
		p.startMu.RLock()
		defer p.startMu.RUnlock()
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		p.helpers.Store(cmd.Process.Pid, struct{}{})
		return cmd, nil
	})
	if err != nil {
		return nil, err
	}
	pid := cmd.Process.Pid
	life.watch(pid)
	return func() {
		life.unwatch(pid)
		p.helpers.Delete(pid)
	}, nil
}

// helper reports whether pid is a helper this platform started.
func (p *linuxPlatform) helper(pid int) bool {
	_, ok := p.helpers.Load(pid)
	return ok
}
