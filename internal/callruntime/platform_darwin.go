package callruntime

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// darwinPlatform is macOS. It has no cgroups, pidfds,
// Pdeathsig, subreaper or PID namespaces (and syscall.SysProcAttr lacks
// those fields), so a call's tree is its process group plus, where the
// process table can be read (macOS: sysctl kern.proc.all), every descendant
// found by parent pid before anything is killed — that catches a browser
// that started a session of its own while its parent still lives.
//
// Known limits, reported by [Runner.Mechanisms]: an orphan that left the
// group (a double-forked daemon) is re-parented to launchd and cannot be
// attributed; a SIGKILLed server leaves its calls running (the server's
// parent watchdog covers the other ways a server goes).
type darwinPlatform struct {
	disabled map[Mechanism]bool
	walk     bool
}

func newPlatform(disabled map[Mechanism]bool) (platform, error) {
	p := &darwinPlatform{disabled: disabled}
	if !disabled[TreeWalk] {
		_, err := processTable()
		p.walk = err == nil
	}
	return p, nil
}

func (p *darwinPlatform) report() Report {
	tree := "pgroup"
	if p.walk {
		tree = "procwalk"
	}
	return Report{
		Platform: runtime.GOOS,
		Tree:     tree,
		Mechanisms: []MechanismStatus{
			{Mechanism: ProcessGroup, Available: true, Used: true, Detail: "each call leads its own process group"},
			{Mechanism: TreeWalk, Available: p.walk, Used: p.walk, Detail: "sysctl kern.proc.all, walked before every kill"},
			{Mechanism: Pdeathsig, Detail: "not offered by " + runtime.GOOS},
			{Mechanism: CgroupV2, Detail: "not offered by " + runtime.GOOS},
			{Mechanism: Lifeline, Detail: "not implemented on " + runtime.GOOS},
		},
		Limits: []string{
			"a double-forked daemon that left the process group is re-parented to launchd and survives",
			"if the server is SIGKILLed, its calls keep running",
			"the memory ceiling is not enforced",
		},
	}
}

func (p *darwinPlatform) close() error { return nil }

func (p *darwinPlatform) newTree(*Spec) (tree, error) { return &groupTree{walk: p.walk}, nil }

type groupTree struct {
	walk   bool
	leader int
}

func (t *groupTree) name() string {
	if t.walk {
		return "procwalk"
	}
	return "pgroup"
}
func (t *groupTree) confirms() bool          { return false }
func (t *groupTree) kernelMemoryLimit() bool { return false }
func (t *groupTree) oomKilled() bool         { return false }
func (t *groupTree) rss() int64              { return 0 }
func (t *groupTree) release()                {}

func (t *groupTree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	cmd := newCmd()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t.leader = cmd.Process.Pid
	return cmd, nil
}

// waitExit cannot leave the leader unreaped here (no waitid WNOWAIT through
// os.Process), so it only watches: the leader is reaped after the tree is
// stopped, which keeps the process group id from being reused meanwhile.
func (t *groupTree) waitExit(cmd *exec.Cmd) {
	for unix.Kill(t.leader, 0) == nil && !zombie(t.leader) {
		time.Sleep(2 * time.Millisecond)
	}
}

func (t *groupTree) stop(grace time.Duration, leftovers bool) bool {
	return escalate(t, grace, leftovers)
}

// members returns the live processes of the tree: the group, and every
// descendant of a member.
func (t *groupTree) members() []int {
	if !t.walk {
		return nil
	}
	procs, err := processTable()
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	in := map[int]bool{}
	var queue []int
	for _, pr := range procs {
		children[pr.ppid] = append(children[pr.ppid], pr.pid)
		if pr.pgid == t.leader && !pr.zombie {
			in[pr.pid] = true
			queue = append(queue, pr.pid)
		}
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			if !in[c] {
				in[c] = true
				queue = append(queue, c)
			}
		}
	}
	out := make([]int, 0, len(in))
	for pid := range in {
		if pid != os.Getpid() {
			out = append(out, pid)
		}
	}
	return out
}

func (t *groupTree) signalAll(sig syscall.Signal) int {
	n := 0
	for _, pid := range t.members() {
		if unix.Kill(pid, sig) == nil {
			n++
		}
	}
	if killGroup(t.leader, sig) {
		n++
	}
	return n
}

func (t *groupTree) killAll() {
	t.signalAll(syscall.SIGSTOP)
	t.signalAll(syscall.SIGKILL)
}

func (t *groupTree) alive() bool {
	if t.walk {
		for _, pid := range t.members() {
			if !zombie(pid) {
				return true
			}
		}
		return false
	}
	// Without a process table, a group that still answers signal 0 has a
	// member (perhaps only the zombie leader: then wait for it).
	return unix.Kill(-t.leader, 0) == nil && !zombie(t.leader)
}

type darwinProc struct {
	pid, ppid, pgid int
	zombie          bool
}

func (p *darwinPlatform) treeName() string { return p.report().Tree }

// killGroup signals a process group; a group that is already gone is fine.
func killGroup(pgid int, sig syscall.Signal) bool {
	return unix.Kill(-pgid, sig) == nil
}

// settle: the kernel's accounting of the tree is already final here.
func (t *groupTree) settle() bool { return true }
