package callruntime

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// darwinPlatform is macOS. It has no cgroups, pidfds, Pdeathsig, subreaper
// or PID namespaces (and syscall.SysProcAttr lacks those fields), so a
// call's tree is its process group plus whatever walks of the process table
// (sysctl kern.proc.all) find by the rules of [membership].
//
// XNU re-parents a process's children to launchd the moment it exits
// (proc_exit in kern_exit.c), so a walk after the parent's exit no longer
// finds them by parent pid: walks follow the call while it runs (on a
// schedule, and at once when kqueue reports that a member forked or
// exited), and membership is sticky — a process seen as a member stays one
// while it is the same process (pid and start time). Before any signal the
// whole set is stopped to a fixed point (SIGSTOP), so a parent that honours
// SIGTERM cannot exit and orphan a child that ignores it before the child is
// signalled.
//
// The leader is waited for with kqueue (EVFILT_PROC, NOTE_EXIT), without
// reaping it, so its pid and process group cannot be reused while the rest
// is stopped. A lifeline (this binary re-executed) kills the calls' groups
// and every member recorded in the ledger when the server dies, even by
// SIGKILL; when the lifeline died with it, the next server's start does.
//
// None of this has run on a Mac: it is written from XNU's sources and
// compiled in CI; the tests that would prove it are compiled for darwin
// and run there.
type darwinPlatform struct {
	disabled map[Mechanism]bool
	walk     bool   // the process table can be read
	born     uint64 // our own start time

	lifeReady  chan struct{}
	life       *lifeline
	lifeDetail string

	ledger      *ledger
	ledgerState MechanismStatus
	calls       atomic.Uint64
}

func newPlatform(cfg platformConfig) (platform, error) {
	disabled := cfg.disabled
	p := &darwinPlatform{disabled: disabled, lifeReady: make(chan struct{})}
	if !disabled[TreeWalk] {
		_, err := processTable()
		p.walk = err == nil
	}
	p.born, _ = procStart(os.Getpid())
	p.ledger, p.ledgerState = openStateLedger(cfg, ident{os.Getpid(), p.born}, p.walk, readTable)
	if disabled[Lifeline] {
		p.lifeDetail = "disabled"
		close(p.lifeReady)
	} else {
		ledgerPath := ""
		if p.ledger != nil {
			ledgerPath = p.ledger.path
		}
		go func() {
			defer close(p.lifeReady)
			l, err := startLifeline("", ledgerPath)
			if err != nil {
				p.lifeDetail = err.Error()
			} else {
				p.life = l
			}
		}()
	}
	return p, nil
}

func (p *darwinPlatform) lifeline() *lifeline {
	<-p.lifeReady
	return p.life
}

func (p *darwinPlatform) report() Report {
	life := p.lifeline()
	lifeDetail := p.lifeDetail
	if life != nil {
		lifeDetail = "kills the calls' process groups and the members in the ledger if the server dies, even by SIGKILL (never run on a Mac: compiled only)"
	}
	rep := Report{
		Platform: runtime.GOOS,
		Tree:     p.treeName(),
		Mechanisms: []MechanismStatus{
			{Mechanism: ProcessGroup, Available: true, Used: true, Detail: "each call leads its own process group"},
			{Mechanism: TreeWalk, Available: p.walk, Used: p.walk, Detail: "sysctl kern.proc.all, walked while the call runs and before every signal; members stay members (pid and start time) once seen"},
			{Mechanism: Lifeline, Available: life != nil, Used: life != nil, Detail: lifeDetail},
			p.ledgerState,
			{Mechanism: Pdeathsig, Detail: "not offered by " + runtime.GOOS},
			{Mechanism: CgroupV2, Detail: "not offered by " + runtime.GOOS},
		},
		Limits: []string{
			"a descendant that is orphaned before any walk sees it (a double-forked daemon whose middle process exits at once) is re-parented to launchd and survives",
			"the memory ceiling is not enforced",
		},
	}
	if life == nil {
		rep.Limits = append(rep.Limits, "if the server is SIGKILLed, its calls keep running until the next server starts")
	}
	return rep
}

func (p *darwinPlatform) close() error {
	var err error
	if life := p.lifeline(); life != nil {
		err = life.close()
	}
	p.ledger.close()
	return err
}

func (p *darwinPlatform) treeName() string {
	if p.walk {
		return "procwalk"
	}
	return "pgroup"
}

func (p *darwinPlatform) newTree(*Spec) (tree, error) {
	p.lifeline() // no call runs before the lifeline guards it
	return &darwinTree{p: p, kq: -1}, nil
}

// darwinTree is one call's tree on macOS.
type darwinTree struct {
	p      *darwinPlatform
	leader int
	call   uint64

	mu       sync.Mutex
	m        *membership
	lastLive int // live members the last walk found

	// kqueue: NOTE_EXIT of the leader closes exited; NOTE_FORK or
	// NOTE_EXIT of any member wakes the walks.
	kq      int
	exited  chan struct{}
	wake    chan struct{}
	watched map[int]bool
	done    chan struct{}
}

func (t *darwinTree) name() string              { return t.p.treeName() }
func (t *darwinTree) confirms() bool            { return false } // no subreaper: an orphan seen by no walk is out of sight
func (t *darwinTree) kernelMemoryLimit() bool   { return false }
func (t *darwinTree) oomKilled() bool           { return false }
func (t *darwinTree) exceeded() <-chan struct{} { return nil }
func (t *darwinTree) rss() int64                { return 0 }
func (t *darwinTree) settle() bool              { return true }

func (t *darwinTree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	cmd := newCmd()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t.leader = cmd.Process.Pid
	start, _ := procStart(t.leader)
	t.m = newMembership(ident{t.leader, start}, os.Getpid())
	t.call = t.p.calls.Add(1)
	t.p.ledger.add(t.call, proc{pid: t.leader, start: start, pgid: t.leader})
	t.p.lifeline().watch(t.leader)
	t.watchKqueue()
	return cmd, nil
}

// watchKqueue sets up the kqueue that tells when the leader exits and when
// a member forks; without one, waitExit polls.
func (t *darwinTree) watchKqueue() {
	kq, err := unix.Kqueue()
	if err != nil {
		return
	}
	t.kq = kq
	t.exited = make(chan struct{})
	t.wake = make(chan struct{}, 1)
	t.watched = map[int]bool{}
	t.done = make(chan struct{})
	// A user event lets release wake the reader.
	var wake unix.Kevent_t
	unix.SetKevent(&wake, 0, unix.EVFILT_USER, unix.EV_ADD|unix.EV_CLEAR)
	_, _ = unix.Kevent(kq, []unix.Kevent_t{wake}, nil, nil)
	if !t.watchProc(t.leader) {
		close(t.exited) // ESRCH: it exited before we could watch it
	}
	go t.readKqueue()
}

// watchProc adds NOTE_EXIT and NOTE_FORK of pid to the kqueue; false if
// the process is already gone (or a zombie).
func (t *darwinTree) watchProc(pid int) bool {
	var ev unix.Kevent_t
	unix.SetKevent(&ev, pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_CLEAR)
	ev.Fflags = unix.NOTE_EXIT | unix.NOTE_FORK
	_, err := unix.Kevent(t.kq, []unix.Kevent_t{ev}, nil, nil)
	return err == nil
}

func (t *darwinTree) readKqueue() {
	defer close(t.done)
	events := make([]unix.Kevent_t, 8)
	leaderGone := false
	for {
		n, err := unix.Kevent(t.kq, nil, events, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return
		}
		for _, ev := range events[:n] {
			switch {
			case ev.Filter == unix.EVFILT_USER:
				return
			case ev.Filter == unix.EVFILT_PROC && int(ev.Ident) == t.leader && ev.Fflags&unix.NOTE_EXIT != 0 && !leaderGone:
				leaderGone = true
				close(t.exited)
			}
			if ev.Filter == unix.EVFILT_PROC {
				select {
				case t.wake <- struct{}{}:
				default:
				}
			}
		}
	}
}

// waitExit blocks until the leader has exited, leaving it unreaped (a
// zombie) so that its pid and group cannot be reused meanwhile: kqueue's
// NOTE_EXIT where there is a kqueue, a poll of the process table where not.
func (t *darwinTree) waitExit(*exec.Cmd) {
	if t.exited != nil {
		<-t.exited
		return
	}
	for {
		kp, err := unix.SysctlKinfoProc("kern.proc.pid", t.leader)
		if err != nil || kp.Proc.P_pid != int32(t.leader) || kp.Proc.P_stat == sZombie {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// follow walks the tree while the program runs: on a schedule, and at once
// when a member forks or exits.
func (t *darwinTree) follow(ctx context.Context) {
	if t.p.walk {
		followWalks(ctx, func() { t.members() }, t.wake)
	}
}

func (t *darwinTree) stop(grace time.Duration, leftovers bool) bool {
	return escalate(t, grace, leftovers)
}

// members walks the process table and returns the call's processes,
// zombies included, recording new ones in the ledger and watching them
// with kqueue.
func (t *darwinTree) members() []proc {
	table, err := processTable()
	if err != nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	members, added := t.m.walk(table, nil)
	t.p.ledger.add(t.call, added...)
	if t.kq >= 0 {
		for _, pi := range added {
			if !t.watched[pi.pid] {
				t.watched[pi.pid] = true
				t.watchProc(pi.pid)
			}
		}
	}
	t.lastLive = 0
	for _, pi := range members {
		if !pi.zombie {
			t.lastLive++
		}
	}
	return members
}

func (t *darwinTree) term() int {
	if !t.p.walk {
		n := 0
		if unix.Kill(-t.leader, unix.SIGTERM) == nil {
			n = 1
			_ = unix.Kill(-t.leader, unix.SIGCONT)
		}
		return n
	}
	live := freeze(t.members)
	n := signalMembers(live, syscall.SIGTERM)
	signalMembers(live, syscall.SIGCONT)
	return n
}

func (t *darwinTree) killAll() {
	if !t.p.walk {
		_ = unix.Kill(-t.leader, unix.SIGSTOP)
		_ = unix.Kill(-t.leader, unix.SIGKILL)
		return
	}
	signalMembers(freeze(t.members), syscall.SIGKILL)
}

// alive reports whether a member still runs. Without a walk it asks the
// process group, reading the group's processes where kill's EPERM alone
// does not tell (groupAlive): XNU answers EPERM for a group that holds only
// its leader's zombie.
func (t *darwinTree) alive() bool {
	if !t.p.walk {
		return groupAlive("darwin", unix.Kill(-t.leader, 0), func() (bool, bool) { return groupHasLive(t.leader) })
	}
	for _, pi := range t.members() {
		if !pi.zombie {
			return true
		}
	}
	return false
}

// exits is woken when a watched member exits or forks (kqueue), so a stop
// waits for the tree to empty without walking back to back; nil where
// nothing is watched.
func (t *darwinTree) exits() <-chan struct{} {
	if t.kq < 0 || !t.p.walk {
		return nil
	}
	return t.wake
}

func (t *darwinTree) release() {
	if t.kq >= 0 {
		var trigger unix.Kevent_t
		unix.SetKevent(&trigger, 0, unix.EVFILT_USER, 0)
		trigger.Fflags = unix.NOTE_TRIGGER
		_, _ = unix.Kevent(t.kq, []unix.Kevent_t{trigger}, nil, nil)
		<-t.done
		unix.Close(t.kq)
		t.kq = -1
	}
	if t.leader == 0 {
		return
	}
	t.p.lifeline().unwatch(t.leader)
	t.mu.Lock()
	empty := t.lastLive == 0
	t.mu.Unlock()
	if empty || !t.p.walk {
		t.p.ledger.end(t.call) // else a sweep may still find what survived
	}
}

// selfExeFallback names this binary when its path is gone; macOS has no
// /proc/self/exe, so the path os.Executable gave is tried as it is.
var selfExeFallback = func() string { exe, _ := os.Executable(); return exe }()

// removeCgroupHome: macOS has no cgroups; the lifeline never gets a home.
func removeCgroupHome(string) {}
