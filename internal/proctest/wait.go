package proctest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Eventually waits until cond holds, or HangAfter passes, and reports
// whether it held. For what a test cannot be told of by an event it can
// wait on — a handler run on another goroutine's queue, a process that
// appears — so the bound is the hang bound, never a guess at how fast the
// machine is.
func Eventually(cond func() bool) bool {
	for deadline := time.Now().Add(HangAfter); !cond(); {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// WaitRunning waits until at least n processes run the program at path,
// or fails the test after HangAfter.
func WaitRunning(tb testing.TB, path string, n int) {
	tb.Helper()
	if !Eventually(func() bool { return len(Running(path)) >= n }) {
		tb.Fatalf("%s did not start %d processes: %v", filepath.Base(path), n, Running(path))
	}
}

// RequireNoneRunning waits up to within until no process runs the program
// at path — every tree the server under test started is gone — or kills
// what is left, so one failure does not leak into the next test, and
// fails the test.
func RequireNoneRunning(tb testing.TB, path string, within time.Duration) {
	tb.Helper()
	deadline := time.Now().Add(within)
	for {
		pids := Running(path)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range pids {
				Kill(pid)
			}
			tb.Fatalf("%s processes left: %v", filepath.Base(path), pids)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// WaitLog waits until log holds what n times, or fails the test after
// HangAfter.
func WaitLog(tb testing.TB, log func() string, what string, n int) {
	tb.Helper()
	if !Eventually(func() bool { return strings.Count(log(), what) >= n }) {
		tb.Fatalf("%q not logged %d times: %s", what, n, log())
	}
}

// NewGate is a path a fake's await step waits for: the run goes on until
// the test opens it, once what the run must outlast has happened — not
// after a sleep a loaded machine may outlast.
func NewGate(tb testing.TB) string { return filepath.Join(tb.TempDir(), "go-ahead") }

// OpenGate lets the runs waiting for gate end. Safe off the test goroutine.
func OpenGate(gate string) error { return os.WriteFile(gate, nil, 0o644) }
