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

// KillAfterFailure sends SIGKILL to pids once t has failed, so that one
// failure does not leak into the next test; after a test that passed it
// does nothing. Those processes were shown gone, and their pids may
// already name other processes — another package's test runs beside this
// one under `go test ./...`, and pids are reused within minutes where
// pid_max is 32768: a kill then may end another test's call or warm
// template (the likely cause of warm calls that came back empty).
func KillAfterFailure(t testing.TB, pids map[string]int) {
	if !t.Failed() {
		return
	}
	for _, pid := range pids {
		Kill(pid)
	}
}

// KillIfRunning sends SIGKILL to pid only while it runs the program at
// path: a pid kept past its process's end may name another process.
func KillIfRunning(pid int, path string) {
	for _, p := range Running(path) {
		if p == pid {
			Kill(pid)
		}
	}
}
