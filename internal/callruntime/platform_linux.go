package callruntime

import (
	"errors"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// linuxPlatform picks, once, the best way this machine offers to keep a
// call's tree under control:
//
//   - cgroup v2, where the hierarchy is writable: a cgroup per call, the
//     child placed in it at clone time (CLONE_INTO_CGROUP), cgroup.kill to
//     end it; memory.max when the memory controller is delegated;
//   - otherwise a /proc walk: the call's process group, every descendant by
//     parent pid, and — with the server as child subreaper — the orphans the
//     tree leaves behind, which are re-parented to us instead of init.
//
// Either way the leader has Pdeathsig (SIGKILL) and a lifeline process kills
// what is left if the server itself dies.
type linuxPlatform struct {
	disabled map[Mechanism]bool
	born     uint64      // our own start time, in clock ticks after boot
	home     *cgroupHome // nil: no writable cgroup v2
	cloneFD  atomic.Bool // CLONE_INTO_CGROUP works (clone3 not refused)
	subreap  bool
	pidfd    bool

	// The lifeline starts while the server gets on with its own start-up
	// (a host waits for initialize, not for the lifeline); lifeReady
	// closes once it is up or failed, and no call starts before that.
	lifeReady  chan struct{}
	life       *lifeline // read only after lifeReady
	lifeDetail string

	zombies *zombieReaper // the /proc-walk path only

	// The /proc-walk path's durable memory of its calls' members (nil
	// without one), and the calls numbered for it.
	ledger      *ledger
	ledgerState MechanismStatus
	calls       atomic.Uint64

	*children     // the process's, shared by every Runner (see ours)
	pgrp      int // our own process group: children in it are not the calls'

	pidnsOnce sync.Once
	pidns     MechanismStatus
	rep       Report
}

// children is what this process started through callruntime, whichever
// Runner started it. The child subreaper is the process's, not a Runner's:
// every child of the process — another Runner's call leaders, helpers and
// lifeline among them — is in each Runner's sight, and a Runner that knew
// only its own took the others' for orphans of its calls: it adopted them
// into a call, reaped them, and killed them in its sweeps (a warm template
// SIGKILLed before it was ready, three times in a second, in a CI run of
// many tests' Runners side by side). So every Runner of the process
// registers what it starts here, and starts and sweeps exclude each other
// process-wide.
//
// A child started outside callruntime is still taken for an orphan if it
// leaves the process group (Setpgid, Setsid): a process that holds a
// Runner starts its own long-lived children in its process group, or
// through [Runner.StartHelper].
type children struct {
	// startMu serialises process starts (read side) with /proc walks
	// that may reap adopted orphans (write side): a child forked but not
	// yet registered as a leader must never be taken for an orphan.
	startMu sync.RWMutex
	leaders sync.Map // pid -> uint64: leaders of calls in flight, and their start times
	helpers sync.Map // pid -> struct{}: helpers (adopt_linux.go) and lifelines, never a call's orphans
}

// ours is this process's [children].
var ours = &children{}

// newPlatform probes what this Linux offers and takes what is not
// disabled, in order: a cgroup home (and clone3 into it), the subreaper,
// the ledger, the lifeline; then reports each mechanism.
func newPlatform(cfg platformConfig) (platform, error) {
	p := &linuxPlatform{disabled: cfg.disabled, children: ours, pgrp: unix.Getpgrp()}
	if me, ok := readStat(os.Getpid()); ok {
		p.born = me.start
	}
	if fd, err := unix.PidfdOpen(os.Getpid(), 0); err == nil {
		unix.Close(fd)
		p.pidfd = true
	}
	cloneErr := clone3Refused()
	cgDetail := p.takeCgroup(cloneErr)
	subDetail := p.takeSubreaper()
	// What dead servers' walks left, whatever this one's mode; then this
	// one's own ledger where it walks.
	p.ledger, p.ledgerState = openStateLedger(cfg, ident{os.Getpid(), p.born}, p.home == nil, readTable)
	p.launchLifeline()
	p.rep = p.mechanisms(cloneErr, cgDetail, subDetail)
	if p.home == nil && p.subreap {
		p.startZombieReaper()
	}
	return p, nil
}

// takeCgroup makes the calls' cgroup home, and clones into it where clone3
// is allowed; it says why there is none when there is none.
func (p *linuxPlatform) takeCgroup(cloneErr error) (detail string) {
	if p.disabled[CgroupV2] {
		return "disabled"
	}
	home, err := newCgroupHome(!p.disabled[CgroupMemory])
	if err != nil {
		return err.Error()
	}
	p.home = home
	p.cloneFD.Store(!p.disabled[CloneIntoCgroup] && cloneErr == nil)
	return ""
}

// takeSubreaper makes the process its descendants' subreaper, and says
// what that gives or why it is not.
func (p *linuxPlatform) takeSubreaper() (detail string) {
	if p.disabled[Subreaper] {
		return "disabled"
	}
	if err := holdSubreaper(); err != nil {
		return err.Error()
	}
	p.subreap = true
	return "orphans are re-parented to the server, so they can be found and reaped"
}

// launchLifeline starts the lifeline on a goroutine of its own (lifeReady
// closes once it is up or failed), unless it is disabled.
func (p *linuxPlatform) launchLifeline() {
	p.lifeReady = make(chan struct{})
	if p.disabled[Lifeline] {
		p.lifeDetail = "disabled"
		close(p.lifeReady)
		return
	}
	cgDir := ""
	if p.home != nil {
		cgDir = p.home.dir
	}
	ledgerPath := ""
	if p.ledger != nil {
		ledgerPath = p.ledger.path
	}
	go func() {
		defer close(p.lifeReady)
		// Under startMu, as a helper: another Runner's sweep must never
		// see the lifeline before it is known.
		p.startMu.RLock()
		l, err := startLifeline(cgDir, ledgerPath)
		if err != nil {
			p.lifeDetail = err.Error()
		} else {
			p.life = l
			p.helpers.Store(l.pid(), struct{}{})
		}
		p.startMu.RUnlock()
	}()
}

// mechanisms is what `doctor` shows of the mechanisms newPlatform took,
// and the limits that follow from those it could not.
func (p *linuxPlatform) mechanisms(cloneErr error, cgDetail, subDetail string) Report {
	disabled := p.disabled
	tree := "procwalk"
	if p.home != nil {
		tree = "cgroup"
	}
	rep := Report{Platform: "linux", Tree: tree}
	add := func(m Mechanism, avail, used bool, detail string) {
		rep.Mechanisms = append(rep.Mechanisms, MechanismStatus{Mechanism: m, Available: avail, Used: used, Detail: detail})
	}
	add(ProcessGroup, true, true, "each call leads its own process group")
	add(Pdeathsig, true, !disabled[Pdeathsig], "SIGKILL to the call's leader if the server dies; forked from one thread locked for the server's life")
	add(Pidfd, p.pidfd, p.pidfd, "os.Process waits and signals through pidfds")
	add(CgroupV2, p.home != nil, p.home != nil, cgroupDetail(p.home, cgDetail))
	const held = "each call's program is held (this binary re-executed, waiting) until it is moved into its cgroup, then executed in place"
	cloneDetail := "each call's leader is forked straight into its cgroup (clone3)"
	switch {
	case disabled[CloneIntoCgroup]:
		cloneDetail = "disabled: " + held
	case cloneErr != nil:
		cloneDetail = "clone3 is refused here (" + cloneErr.Error() + "): " + held
	}
	add(CloneIntoCgroup, p.home != nil && cloneErr == nil, p.cloneFD.Load(), cloneDetail)
	memAvail := p.home != nil && p.home.memory
	memDetail := "memory.max per call"
	if !memAvail {
		memDetail = "memory controller not delegated; RSS watchdog instead"
	}
	add(CgroupMemory, memAvail, memAvail, memDetail)
	add(Subreaper, p.subreap, p.subreap, subDetail)
	add(TreeWalk, true, p.home == nil, "/proc walk by parent pid, process group and session; members stay members (pid and start time) once seen")
	rep.Mechanisms = append(rep.Mechanisms, p.ledgerState)
	if p.home == nil && !p.subreap {
		rep.Limits = append(rep.Limits, "orphans that leave the process group (a double-forked daemon) cannot be found: no cgroup and no subreaper")
	}
	if p.home == nil {
		rep.Limits = append(rep.Limits, "if the server is SIGKILLed, a descendant that left the process group is killed only if a walk saw it first (walks follow a call from 20 ms on, at most 1 s apart): no writable cgroup v2")
	}
	return rep
}

// lifeline waits until the lifeline is up (or failed) and returns it; nil
// without one.
func (p *linuxPlatform) lifeline() *lifeline {
	<-p.lifeReady
	return p.life
}

func cgroupDetail(h *cgroupHome, why string) string {
	if h == nil {
		return why
	}
	return "a cgroup per call under " + h.dir
}

func (p *linuxPlatform) report() Report {
	p.pidnsOnce.Do(func() {
		err := probePIDNamespace()
		p.pidns = MechanismStatus{Mechanism: PIDNamespace, Available: err == nil,
			Detail: "probed, not used: the CLI would be PID 1 (ignores SIGTERM, must reap); an init shim costs a re-exec per call"}
		if err != nil {
			p.pidns.Detail = err.Error()
		}
	})
	rep := p.rep
	life := p.lifeline()
	rep.Mechanisms = append(append([]MechanismStatus(nil), rep.Mechanisms...),
		MechanismStatus{Mechanism: Lifeline, Available: life != nil, Used: life != nil, Detail: p.lifeDetail}, p.pidns)
	if life == nil {
		rep.Limits = append(append([]string(nil), rep.Limits...), "if the server is SIGKILLed, only the direct child dies (Pdeathsig): no lifeline")
	}
	return rep
}

func (p *linuxPlatform) close() error {
	var err error
	if p.home == nil && p.subreap {
		p.sweepUnowned()
		p.stopZombieReaper()
	}
	if life := p.lifeline(); life != nil {
		err = life.close()
		p.helpers.Delete(life.pid())
	}
	p.ledger.close()
	if p.home != nil {
		err = errors.Join(err, p.home.remove())
	}
	if p.subreap {
		releaseSubreaper()
	}
	return err
}

// The subreaper flag belongs to the whole process; Runners that use it share
// it and the last one out clears it, so orphans go back to init.
var (
	subreaperMu    sync.Mutex
	subreaperUsers int
)

func holdSubreaper() error {
	subreaperMu.Lock()
	defer subreaperMu.Unlock()
	if subreaperUsers == 0 {
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			return err
		}
	}
	subreaperUsers++
	return nil
}

func releaseSubreaper() {
	subreaperMu.Lock()
	defer subreaperMu.Unlock()
	subreaperUsers--
	if subreaperUsers == 0 {
		_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	}
}

func (p *linuxPlatform) newTree(spec *Spec) (tree, error) {
	p.lifeline() // no call runs before the lifeline guards it
	if p.home != nil {
		return p.newCgroupTree(spec)
	}
	return &walkTree{p: p}, nil
}

// sysProcAttr is what every call's leader gets on Linux.
func (p *linuxPlatform) sysProcAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	if !p.disabled[Pdeathsig] {
		a.Pdeathsig = syscall.SIGKILL
	}
	return a
}

// reapOrphans reaps the zombies the kernel re-parented to us (we are the
// child subreaper) for which belongs is true. Until they are reaped their
// pids still answer kill(pid, 0), and they would pile up in a long-lived
// server. It peeks first (waitid WNOWAIT), so a call that left nothing behind
// pays one system call. Leaders of calls in flight are never touched: their
// exit status belongs to os/exec.
//
// With thorough false (the call's tree was gone when its leader exited), a
// peek that finds only another call's leader — a zombie for the instant
// before its Run reaps it — skips the /proc scan: with many calls in flight
// that scan would run on every call. An orphan such a call left (it exited
// after its parent, before the leader) is then reaped by a later call.
func (p *linuxPlatform) reapOrphans(belongs func(proc) bool, thorough bool) {
	if !p.subreap {
		return
	}
	var info unix.Siginfo
	err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	if err != nil || info.Signo == 0 {
		return // no child of ours is a zombie
	}
	if _, leader := p.leaders.Load(siginfoPid(&info)); leader && !thorough {
		return
	}
	p.startMu.Lock()
	defer p.startMu.Unlock()
	self := os.Getpid()
	for _, pi := range scanProc() {
		if pi.ppid != self || !pi.zombie {
			continue
		}
		if _, leader := p.leaders.Load(pi.pid); leader || !belongs(pi) {
			continue
		}
		var ws unix.WaitStatus
		_, _ = unix.Wait4(pi.pid, &ws, unix.WNOHANG, nil)
	}
}

// siginfoPid reads si_pid, which x/sys/unix leaves in the padding: it follows
// three ints, aligned to the word size.
func siginfoPid(info *unix.Siginfo) int {
	off := uintptr(12)
	if unsafe.Sizeof(uintptr(0)) == 8 {
		off = 16
	}
	return int(*(*int32)(unsafe.Add(unsafe.Pointer(info), off)))
}

// adopted reports whether pi is an orphan the kernel re-parented to us
// (we are the child subreaper) from some call's tree: a child of ours that
// is not a call's leader, a helper or a lifeline (of any Runner of this
// process), not in our own process group (where children this process
// started itself stay), and younger than us.
func (p *linuxPlatform) adopted(pi proc, self int) bool {
	if pi.ppid != self || pi.pgid == p.pgrp || pi.start < p.born {
		return false
	}
	_, leader := p.leaders.Load(pi.pid)
	return !leader && !p.helper(pi.pid)
}

// owners counts the calls in flight that may own the adopted orphan pi, and
// tells whether one of them owns it for sure: its process group or session
// is that call's. A call may own an orphan born after it started; one born
// before every call in flight belongs to a call that has ended.
func (p *linuxPlatform) owners(pi proc) (candidates int, sure bool) {
	p.leaders.Range(func(k, v any) bool {
		leader, start := k.(int), v.(uint64)
		if pi.pgid == leader || pi.sid == leader {
			sure = true
			return false
		}
		if start <= pi.start {
			candidates++
		}
		return true
	})
	return candidates, sure
}

// sweepUnowned kills and reaps every adopted orphan that no call in flight
// can own (see owners), with whatever it started: the leftovers of calls
// that have ended, which could not be attributed while they ran alongside
// others. It runs when a call ends and at Close, where no call is left.
func (p *linuxPlatform) sweepUnowned() {
	self := os.Getpid()
	for round := 0; round < 50; round++ {
		p.startMu.Lock()
		procs := scanProc()
		children := map[int][]int{}
		for _, pi := range procs {
			children[pi.ppid] = append(children[pi.ppid], pi.pid)
		}
		left := 0
		for _, pi := range procs {
			if !p.adopted(pi, self) {
				continue
			}
			if pi.zombie {
				// Dead already, whoever owned it: reap it. A call in
				// flight that tracks it sees it gone; left to its owner,
				// a zombie killed by one call's sweep while another was
				// still in flight outlived both calls.
				var ws unix.WaitStatus
				_, _ = unix.Wait4(pi.pid, &ws, unix.WNOHANG, nil)
				continue
			}
			if n, sure := p.owners(pi); sure || n > 0 {
				continue
			}
			left++
			killSubtree(pi.pid, children)
		}
		p.startMu.Unlock()
		if left == 0 {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// killSubtree stops pid and its descendants, then kills them: what an
// orphan started (a browser's renderers) goes with it.
func killSubtree(pid int, children map[int][]int) {
	var all []int
	queue := []int{pid}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		all = append(all, q)
		_ = unix.Kill(q, unix.SIGSTOP)
		queue = append(queue, children[q]...)
	}
	for _, q := range all {
		_ = unix.Kill(q, unix.SIGKILL)
	}
}

// waitExitNoReap blocks until pid has exited but leaves it a zombie, so its
// pid and process group id cannot be reused while the rest of the tree is
// being stopped.
func waitExitNoReap(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return
		}
	}
}

// clone3Refused asks the kernel for clone3 with a size none accepts: it
// answers EINVAL without creating anything where clone3 works; a seccomp
// profile that refuses it (Docker's before 20.10.10) answers ENOSYS or
// EPERM, as a kernel before 5.3 does with ENOSYS. A kernel of 5.3 to 5.6
// has clone3 but not CLONE_INTO_CGROUP: its refusal comes at the first
// start instead (cloneRefused).
func clone3Refused() error {
	_, _, errno := unix.RawSyscall(unix.SYS_CLONE3, 0, 0, 0)
	if errno == unix.ENOSYS || errno == unix.EPERM {
		return errno
	}
	return nil
}

// probePIDNamespace starts this binary in a new PID namespace and has it
// exit at once.
func probePIDNamespace() error {
	cmd := exec.Command("/proc/self/exe")
	cmd.Env = []string{helperEnv + "=" + helperProbe}
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWPID}
	// Started here, waited on in the goroutine: the timeout's Kill reads
	// cmd.Process, which Run would write concurrently (-race saw it).
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		return errors.New("probe timed out")
	}
}

func (p *linuxPlatform) treeName() string { return p.rep.Tree }

// selfExeFallback names this binary when its path is gone.
const selfExeFallback = "/proc/self/exe"

// ProcessStart returns when process pid started, in clock ticks after boot,
// so that a pid can be told from its reuse; false when there is no such
// process.
func ProcessStart(pid int) (uint64, bool) {
	pi, ok := readStat(pid)
	return pi.start, ok
}

func (l *lifeline) pid() int { return l.cmd.Process.Pid }
