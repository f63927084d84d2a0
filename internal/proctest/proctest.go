package proctest

import (
	"os"
	"testing"
	"time"
)

// ZombieGrace is how long past the deadline a dead child of this process
// may wait to be reaped: its SIGCHLD is handled a little after the call
// that killed it returns — a little, or seconds on a loaded machine, so
// only a child never reaped fails.
const ZombieGrace = HangAfter

// RequireGone waits up to within until every pid in pids (by role, for
// the message) is gone, or fails the test. A pid is gone when no such
// process exists, or when it is a zombie whose parent is another process
// (the server under test, when it is a process of its own: the zombie
// waits for that reaper, and is dead all the same). A zombie of this
// process must be reaped — callruntime reaps what it adopted — within
// ZombieGrace past the deadline.
func RequireGone(t testing.TB, pids map[string]int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for role, pid := range pids {
		for !Gone(pid) {
			now := time.Now()
			if now.After(deadline) && !(parentOfZombie(pid) == os.Getpid() && now.Before(deadline.Add(ZombieGrace))) {
				t.Fatalf("%s (pid %d) still alive after %v; %s; all: %v", role, pid, within, describe(pid), pids)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// Gone reports whether pid is gone: no such process, or a zombie another
// process is to reap.
func Gone(pid int) bool {
	if !exists(pid) {
		return true
	}
	parent := parentOfZombie(pid)
	return parent > 0 && parent != os.Getpid()
}
