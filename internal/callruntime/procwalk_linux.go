package callruntime

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// procInfo is what the walk reads of one process in /proc/PID/stat.
type procInfo struct {
	pid, ppid, pgrp, sid int
	state                byte
	start                uint64 // clock ticks after boot
}

func (p procInfo) zombie() bool { return p.state == 'Z' || p.state == 'X' }

// scanProc reads every process of the machine. A process that exits during
// the scan is simply missing from it.
func scanProc() []procInfo {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	procs := make([]procInfo, 0, len(names))
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if pi, ok := readStat(pid); ok {
			procs = append(procs, pi)
		}
	}
	return procs
}

func readStat(pid int) (procInfo, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	// "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
	// majflt cmajflt utime stime cutime cstime priority nice threads
	// itrealvalue starttime ..." — comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procInfo{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return procInfo{}, false
	}
	atoi := func(b []byte) int { n, _ := strconv.Atoi(string(b)); return n }
	start, _ := strconv.ParseUint(string(f[19]), 10, 64)
	return procInfo{pid: pid, state: f[0][0], ppid: atoi(f[1]), pgrp: atoi(f[2]), sid: atoi(f[3]), start: start}, true
}

// walkTree finds a call's tree in the process table: the leader, its process
// group, every descendant by parent pid, and — when the server is a child
// subreaper — the orphans the tree left, which the kernel re-parented to us.
//
// An orphan is attributed to a call when it is in the call's process group
// or session; one that left both (a double-forked daemon that called
// setsid) is attributed when this call is the only one in flight that may
// own it (see linuxPlatform.owners). One that several calls may own waits:
// when a call ends, every orphan no call in flight can own is swept.
//
// Dead means reaped or gone: every member the walks saw is reaped by
// [walkTree.settle] once the leader is, not merely seen as a zombie.
type walkTree struct {
	p           *linuxPlatform
	leader      int
	leaderStart uint64
	seen        map[int]uint64 // members seen by a walk (pid -> start), under p.startMu
}

func (t *walkTree) name() string            { return "procwalk" }
func (t *walkTree) confirms() bool          { return t.p.subreap }
func (t *walkTree) kernelMemoryLimit() bool { return false }
func (t *walkTree) oomKilled() bool         { return false }

func (t *walkTree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	cmd := newCmd()
	cmd.SysProcAttr = t.p.sysProcAttr()
	t.p.startMu.RLock()
	err := cmd.Start()
	if err == nil {
		t.leader = cmd.Process.Pid
		if pi, ok := readStat(t.leader); ok {
			t.leaderStart = pi.start
		}
		t.p.leaders.Store(t.leader, t.leaderStart)
	}
	t.p.startMu.RUnlock()
	if err != nil {
		return nil, err
	}
	if life := t.p.lifeline(); life != nil {
		life.watch(t.leader)
	}
	return cmd, nil
}

func (t *walkTree) waitExit(cmd *exec.Cmd) { waitExitNoReap(cmd.Process.Pid) }

func (t *walkTree) stop(grace time.Duration, leftovers bool) bool {
	return escalate(t, grace, leftovers)
}

// members walks the process table and returns the call's processes,
// zombies included. Adopted zombies of the tree are reaped on the way (by
// pid, never wait(-1), which would steal os/exec's exit statuses).
func (t *walkTree) members() []procInfo {
	t.p.startMu.Lock()
	defer t.p.startMu.Unlock()
	procs := scanProc()
	self := os.Getpid()
	children := map[int][]int{}
	byPid := make(map[int]procInfo, len(procs))
	for _, pi := range procs {
		byPid[pi.pid] = pi
		children[pi.ppid] = append(children[pi.ppid], pi.pid)
	}
	in := map[int]bool{}
	var queue []int
	add := func(pid int) {
		if !in[pid] && pid != self {
			in[pid] = true
			queue = append(queue, pid)
		}
	}
	if _, ok := byPid[t.leader]; ok {
		add(t.leader)
	}
	for _, pi := range procs {
		switch {
		case pi.pgrp == t.leader || pi.sid == t.leader:
			add(pi.pid)
		case t.p.subreap && pi.ppid == self && t.orphan(pi):
			add(pi.pid)
		}
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			add(c)
		}
	}
	out := make([]procInfo, 0, len(in))
	if t.seen == nil {
		t.seen = map[int]uint64{}
	}
	for pid := range in {
		pi := byPid[pid]
		if pid != t.leader {
			t.seen[pid] = pi.start
		}
		if pi.zombie() && pi.ppid == self && pid != t.leader {
			var ws unix.WaitStatus
			_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
		}
		out = append(out, pi)
	}
	return out
}

// orphan reports whether pi, a child of the server, is an orphan of this
// call's: adopted, and this call the only one in flight that may own it.
func (t *walkTree) orphan(pi procInfo) bool {
	if !t.p.adopted(pi, os.Getpid()) || pi.start < t.leaderStart {
		return false
	}
	n, sure := t.p.owners(pi)
	return !sure && n == 1
}

func (t *walkTree) signalAll(sig syscall.Signal) int {
	n := 0
	for _, pi := range t.members() {
		if !pi.zombie() && unix.Kill(pi.pid, sig) == nil {
			n++
		}
	}
	return n
}

// killAll stops every member first (SIGSTOP), walks again to catch children
// forked in the meantime, and only then kills: a tree cannot outrun the walk.
func (t *walkTree) killAll() {
	stopped := map[int]bool{}
	for i := 0; i < 10; i++ {
		grew := false
		for _, pi := range t.members() {
			if !pi.zombie() && !stopped[pi.pid] {
				stopped[pi.pid] = true
				grew = true
				_ = unix.Kill(pi.pid, syscall.SIGSTOP)
			}
		}
		if !grew {
			break
		}
	}
	t.signalAll(syscall.SIGKILL)
}

func (t *walkTree) alive() bool {
	for _, pi := range t.members() {
		if !pi.zombie() {
			return true
		}
	}
	return false
}

func (t *walkTree) rss() int64 {
	var sum int64
	for _, pi := range t.members() {
		if !pi.zombie() {
			sum += statmRSS(pi.pid)
		}
	}
	return sum
}

// settle reaps every member the walks saw, now that the tree was stopped
// and the leader reaped: a member killed while its parent (another member)
// was dying is re-parented to us only when that parent exits, after the
// last walk. It reports whether every one is gone.
func (t *walkTree) settle() bool {
	self := os.Getpid()
	deadline := time.Now().Add(killWait)
	for {
		t.p.startMu.Lock()
		for pid, start := range t.seen {
			pi, ok := readStat(pid)
			if !ok || pi.start != start {
				delete(t.seen, pid) // gone (or its pid reused)
				continue
			}
			if pi.zombie() && pi.ppid == self {
				var ws unix.WaitStatus
				if got, _ := unix.Wait4(pid, &ws, unix.WNOHANG, nil); got == pid {
					delete(t.seen, pid)
				}
			}
		}
		left := len(t.seen)
		t.p.startMu.Unlock()
		if left == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
}

func (t *walkTree) release() {
	if t.leader == 0 {
		return
	}
	t.p.leaders.Delete(t.leader)
	if life := t.p.lifeline(); life != nil {
		life.unwatch(t.leader)
	}
	if t.p.subreap {
		t.p.sweepUnowned()
	}
}
