//go:build linux || darwin

package callruntime

import (
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// killWait bounds how long a tree is watched after SIGKILL. SIGKILL cannot be
// ignored; only a process stuck in the kernel (uninterruptible sleep on a
// dead NFS mount) outlasts it.
const killWait = 5 * time.Second

// members is what escalate needs of a Unix tree.
type members interface {
	// signalAll sends sig to every live member and reports how many it
	// reached.
	signalAll(sig syscall.Signal) int
	// killAll sends SIGKILL to every member.
	killAll()
	// alive reports whether any member is still running (zombies do not
	// count).
	alive() bool
}

// escalate is the one stopping policy of every Unix tree: SIGTERM (and
// SIGCONT, so a stopped process can act on it) to every member, up to grace
// for the tree to empty, then SIGKILL and a bounded wait.
func escalate(m members, grace time.Duration, leftovers bool) bool {
	if leftovers && !m.alive() {
		return true // the common case: nothing was left behind
	}
	if grace > 0 {
		if m.signalAll(syscall.SIGTERM) > 0 {
			m.signalAll(syscall.SIGCONT)
		}
		if waitEmpty(m, grace) {
			return true
		}
	}
	m.killAll()
	return waitEmpty(m, killWait)
}

// waitEmpty polls m until nothing is alive or d passes. Polling starts at
// 50µs and backs off to 2ms: a tree that respects SIGTERM is usually gone in
// about a millisecond, and that is the latency callers see.
func waitEmpty(m members, d time.Duration) bool {
	deadline := time.Now().Add(d)
	pause := 50 * time.Microsecond
	for {
		if !m.alive() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(pause)
		pause = min(2*pause, 2*time.Millisecond)
	}
}

func isExecutable(fi fs.FileInfo) bool { return fi.Mode()&0o111 != 0 }

func signalName(state *os.ProcessState) string {
	if state == nil {
		return ""
	}
	ws, ok := state.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ""
	}
	return unix.SignalName(ws.Signal())
}
