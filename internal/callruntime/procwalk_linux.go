package callruntime

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// scanProc reads every process of the machine. A process that exits during
// the scan is simply missing from it.
func scanProc() []proc {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	procs := make([]proc, 0, len(names))
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

// readStat reads one process from /proc/PID/stat; its start time is in
// clock ticks after boot.
func readStat(pid int) (proc, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	// "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
	// majflt cmajflt utime stime cutime cstime priority nice threads
	// itrealvalue starttime ..." — comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return proc{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return proc{}, false
	}
	atoi := func(b []byte) int { n, _ := strconv.Atoi(string(b)); return n }
	start, _ := strconv.ParseUint(string(f[19]), 10, 64)
	state := f[0][0]
	return proc{pid: pid, ppid: atoi(f[1]), pgid: atoi(f[2]), sid: atoi(f[3]), start: start,
		zombie: state == 'Z' || state == 'X', stopped: state == 'T' || state == 't'}, true
}

// readTable is the process table the ledger's sweep reads.
func readTable() []proc { return scanProc() }

// walkTree finds a call's tree in the process table by the rules of
// [membership]: the leader, its process group and session, every
// descendant by parent pid, every member seen before that is still itself,
// and — when the server is a child subreaper — the orphans the tree left,
// which the kernel re-parented to us.
//
// An orphan is attributed to a call when it is in the call's process group
// or session; one that left both (a double-forked daemon that called
// setsid) is attributed when this call is the only one in flight that may
// own it (see linuxPlatform.owners). One that several calls may own waits:
// when a call ends, every orphan no call in flight can own is swept.
//
// While the program runs, walks follow it ([followWalks]) and record new
// members in the ledger, so that what the call started can be found — by
// the lifeline, or by the next server — if this one dies.
//
// Dead means reaped or gone: every member the walks saw is reaped by
// [walkTree.settle] once the leader is, not merely seen as a zombie.
type walkTree struct {
	p      *linuxPlatform
	leader int
	call   uint64
	m      *membership // under p.startMu
}

func (t *walkTree) name() string              { return "procwalk" }
func (t *walkTree) confirms() bool            { return t.p.subreap }
func (t *walkTree) kernelMemoryLimit() bool   { return false }
func (t *walkTree) oomKilled() bool           { return false }
func (t *walkTree) exceeded() <-chan struct{} { return nil }

func (t *walkTree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	cmd := newCmd()
	cmd.SysProcAttr = t.p.sysProcAttr()
	t.p.startMu.RLock()
	err := cmd.Start()
	var leader proc
	if err == nil {
		t.leader = cmd.Process.Pid
		leader, _ = readStat(t.leader)
		leader.pid = t.leader
		t.p.leaders.Store(t.leader, leader.start)
	}
	t.p.startMu.RUnlock()
	if err != nil {
		return nil, err
	}
	t.m = newMembership(ident{t.leader, leader.start}, os.Getpid())
	t.call = t.p.calls.Add(1)
	t.p.ledger.add(t.call, leader)
	t.p.lifeline().watch(t.leader)
	return cmd, nil
}

func (t *walkTree) waitExit(cmd *exec.Cmd) { waitExitNoReap(cmd.Process.Pid) }

// follow walks the tree while the program runs, so that members are
// remembered before the links that make them members are lost.
func (t *walkTree) follow(ctx context.Context) { followWalks(ctx, func() { t.members() }, nil) }

func (t *walkTree) stop(grace time.Duration, leftovers bool) bool {
	return escalate(t, grace, leftovers)
}

// members walks the process table and returns the call's processes,
// zombies included, recording new ones in the ledger. Adopted zombies of
// the tree are reaped on the way (by pid, never wait(-1), which would steal
// os/exec's exit statuses).
func (t *walkTree) members() []proc {
	t.p.startMu.Lock()
	defer t.p.startMu.Unlock()
	self := os.Getpid()
	adopt := func(pi proc) bool { return t.p.subreap && pi.ppid == self && t.orphan(pi) }
	members, added := t.m.walk(scanProc(), adopt)
	t.p.ledger.add(t.call, added...)
	for _, pi := range members {
		if pi.zombie && pi.ppid == self && pi.pid != t.leader {
			var ws unix.WaitStatus
			_, _ = unix.Wait4(pi.pid, &ws, unix.WNOHANG, nil)
		}
	}
	return members
}

// orphan reports whether pi, a child of the server, is an orphan of this
// call's: adopted, and this call the only one in flight that may own it.
func (t *walkTree) orphan(pi proc) bool {
	if !t.p.adopted(pi, os.Getpid()) || pi.start < t.m.leader.start {
		return false
	}
	n, sure := t.p.owners(pi)
	return !sure && n == 1
}

// freeze stops every live member (SIGSTOP) and walks again until a walk
// finds no member it has not stopped and every one is stopped: a tree
// cannot fork past it, and a parent cannot exit before its children are
// signalled. It returns the live members.
func (t *walkTree) freeze() []proc { return freeze(t.members) }

func (t *walkTree) term() int {
	live := t.freeze()
	n := signalMembers(live, syscall.SIGTERM)
	signalMembers(live, syscall.SIGCONT)
	return n
}

func (t *walkTree) killAll() { signalMembers(t.freeze(), syscall.SIGKILL) }

func (t *walkTree) alive() bool {
	for _, pi := range t.members() {
		if !pi.zombie {
			return true
		}
	}
	return false
}

func (t *walkTree) rss() int64 {
	var sum int64
	for _, pi := range t.members() {
		if !pi.zombie {
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
		left := 0
		for pid, r := range t.m.known {
			if pid == t.leader {
				continue // reaped by os/exec
			}
			pi, ok := readStat(pid)
			if !ok || !r.same(pi) {
				delete(t.m.known, pid) // gone (or its pid reused)
				continue
			}
			if pi.zombie && pi.ppid != self {
				delete(t.m.known, pid) // dead; reaping it is its parent's (init's) business
				continue
			}
			if pi.zombie {
				var ws unix.WaitStatus
				if got, _ := unix.Wait4(pid, &ws, unix.WNOHANG, nil); got == pid {
					delete(t.m.known, pid)
					continue
				}
			}
			left++
		}
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
	t.p.lifeline().unwatch(t.leader)
	t.p.startMu.Lock()
	left := len(t.m.known)
	if _, ok := t.m.known[t.leader]; ok {
		left-- // reaped by os/exec by now
	}
	t.p.startMu.Unlock()
	if left == 0 {
		t.p.ledger.end(t.call) // else a sweep may still find what survived
	}
	if t.p.subreap {
		t.p.sweepUnowned()
	}
}
