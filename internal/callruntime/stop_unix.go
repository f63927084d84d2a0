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
	// term sends SIGTERM to every live member, then SIGCONT so a stopped
	// one can act on it, and reports how many it reached.
	term() int
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
		m.term()
		if waitEmpty(m, grace) {
			return true
		}
	}
	m.killAll()
	return waitEmpty(m, killWait)
}

// A waker is a tree told when a member exits (macOS: kqueue NOTE_EXIT of
// every member a walk saw), so waitEmpty sleeps until then instead of
// walking back to back: a walk of macOS's process table reads every
// process of the machine.
type waker interface {
	// exits receives when a watched member exits or forks; nil when
	// nothing is watched.
	exits() <-chan struct{}
}

// wakeBackstop is how long waitEmpty waits for a waker's news before it
// looks anyway: a member may exit unwatched (it was gone before kqueue was
// asked to watch it, or the watch failed).
const wakeBackstop = 100 * time.Millisecond

// waitEmpty polls m until nothing is alive or d passes. Polling starts at
// 50µs and backs off to 2ms: a tree that respects SIGTERM is usually gone in
// about a millisecond, and that is the latency callers see. A waker backs
// off to wakeBackstop instead and is looked at again when it says a member
// exited.
func waitEmpty(m members, d time.Duration) bool {
	deadline := time.Now().Add(d)
	pause, most := 50*time.Microsecond, 2*time.Millisecond
	var wake <-chan struct{}
	if w, ok := m.(waker); ok {
		if wake = w.exits(); wake != nil {
			most = wakeBackstop
		}
	}
	for {
		if !m.alive() {
			return true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		timer := time.NewTimer(min(pause, left))
		select {
		case <-wake:
		case <-timer.C:
		}
		timer.Stop()
		pause = min(2*pause, most)
	}
}

// freeze stops every live member walk finds (SIGSTOP), and walks again
// until a walk finds no member it has not stopped and every one is stopped:
// a tree cannot fork past it, and a parent cannot exit — and have its
// children re-parented out of reach — before they are all signalled. It
// returns the live members of the last walk. A member that never shows as
// stopped (uninterruptible sleep) ends the rounds after about 100 ms.
func freeze(walk func() []proc) []proc {
	stopped := map[int]bool{}
	var live []proc
	pause := 20 * time.Microsecond
	for round := 0; round < 64; round++ {
		live = live[:0]
		grew, running := false, false
		for _, pi := range walk() {
			if pi.zombie {
				continue
			}
			live = append(live, pi)
			switch {
			case !stopped[pi.pid]:
				stopped[pi.pid] = true
				grew = true
				_ = unix.Kill(pi.pid, unix.SIGSTOP)
			case !pi.stopped:
				running = true
			}
		}
		if !grew && !running {
			break
		}
		if !grew {
			time.Sleep(pause) // signalled, not yet stopped
			pause = min(2*pause, 2*time.Millisecond)
		}
	}
	return live
}

// signalMembers sends sig to each live member, reporting how many it
// reached.
func signalMembers(live []proc, sig syscall.Signal) int {
	n := 0
	for _, pi := range live {
		if unix.Kill(pi.pid, sig) == nil {
			n++
		}
	}
	return n
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
