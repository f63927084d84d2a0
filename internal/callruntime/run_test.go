//go:build linux

package callruntime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun_Endings(t *testing.T) {
	r := newRunner(t)
	tests := []struct {
		name     string
		args     []string
		outcome  callruntime.End
		code     int
		signal   string
		stdout   string
		stderr   string
		treeDead bool
	}{
		{name: "exit 0", args: []string{"ok"}, outcome: callruntime.Exited, code: 0, stdout: "ok\n", treeDead: true},
		{name: "exit 3 with stderr", args: []string{"stderr boom", "exit 3"}, outcome: callruntime.Exited, code: 3, stderr: "boom\n", treeDead: true},
		{name: "killed by a signal", args: []string{"crash KILL"}, outcome: callruntime.Signaled, code: -1, signal: "SIGKILL", treeDead: true},
		{name: "crash", args: []string{"crash SEGV"}, outcome: callruntime.Signaled, code: -1, signal: "SIGABRT", treeDead: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, r, spec(tc.args...))
			assert.Equal(t, tc.outcome, res.End)
			assert.Equal(t, tc.code, res.ExitCode)
			assert.Equal(t, tc.signal, res.Signal)
			if tc.stdout != "" {
				assert.Equal(t, tc.stdout, res.Stdout.Text(nil))
			}
			if tc.stderr != "" {
				assert.Equal(t, tc.stderr, res.Stderr.Text(nil))
			}
			assert.Equal(t, tc.treeDead, res.TreeDead)
		})
	}
}

func TestRun_StartErrors(t *testing.T) {
	r := newRunner(t)
	dir := t.TempDir()
	notExec := filepath.Join(dir, "data.txt")
	require.NoError(t, os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644))
	tests := []struct {
		name string
		path string
		want error
	}{
		{"missing", filepath.Join(dir, "nope"), callruntime.ErrNotFound},
		{"relative", "fakecli", callruntime.ErrNotFound},
		{"not executable", notExec, callruntime.ErrNotExecutable},
		{"directory", dir, callruntime.ErrNotExecutable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.Run(context.Background(), callruntime.Spec{Path: tc.path})
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.want)
			var se *callruntime.StartError
			assert.ErrorAs(t, err, &se)
			assert.Contains(t, err.Error(), tc.path)
		})
	}
}

// The tree every kill test builds: an ordinary child, a child in a new
// session (how Playwright starts a browser), a double-forked daemon, and a
// child that keeps stdout open.
const fullTree = "tree plain,setsid,daemon,holder"

var fullRoles = []string{"self", "plain", "setsid", "daemon", "holder"}

func TestRun_TreeDiesEveryWay(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			r := newRunner(t, m.disable...)
			t.Run("timeout", func(t *testing.T) {
				s := spec("pid", fullTree, "hang")
				ctx, _ := endWhenSeen(&s, "pid ", len(fullRoles), callruntime.ErrTimeout)
				res, err := r.Run(ctx, s)
				require.NoError(t, err)
				pids := reportedPids(res.Stdout.Text(nil))
				defer proctest.KillAfterFailure(t, pids)
				require.Len(t, pids, len(fullRoles), res.Stdout.Text(nil))
				assert.Equal(t, callruntime.TimedOut, res.End)
				assert.True(t, res.TreeDead)
				assert.Equal(t, m.tree, res.Tree)
				proctest.RequireGone(t, pids, 0)
			})
			t.Run("cancel", func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var seen atomic.Int32
				s := spec("pid", fullTree, "hang")
				s.OnLine = func(l callruntime.Line) {
					if strings.HasPrefix(l.Text, "pid ") && seen.Add(1) == int32(len(fullRoles)) {
						cancel()
					}
				}
				res, err := r.Run(ctx, s)
				require.NoError(t, err)
				pids := reportedPids(res.Stdout.Text(nil))
				defer proctest.KillAfterFailure(t, pids)
				require.Len(t, pids, len(fullRoles))
				assert.Equal(t, callruntime.Cancelled, res.End)
				assert.True(t, res.TreeDead)
				proctest.RequireGone(t, pids, 0)
			})
			t.Run("exit 0 leaving a daemon", func(t *testing.T) {
				res := run(t, r, spec("pid", "tree setsid,daemon,holder", "sleep 200ms", "exit 0"))
				pids := reportedPids(res.Stdout.Text(nil))
				defer proctest.KillAfterFailure(t, pids)
				require.Len(t, pids, 4)
				assert.Equal(t, callruntime.Exited, res.End)
				assert.Equal(t, 0, res.ExitCode)
				assert.True(t, res.TreeDead)
				proctest.RequireGone(t, pids, 0)
			})
		})
	}
}

func TestRun_Escalation(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			r := newRunner(t, m.disable...)
			t.Run("SIGTERM ignored: killed after the grace", func(t *testing.T) {
				const grace = 700 * time.Millisecond
				s := spec("ignore-term", "pid", "tree stubborn,setsid", "hang")
				ctx, timedOutAt := endWhenSeen(&s, "pid ", 3, callruntime.ErrTimeout)
				s.KillGrace = grace
				res, err := r.Run(ctx, s)
				require.NoError(t, err)
				ended := time.Now()
				pids := reportedPids(res.Stdout.Text(nil))
				defer proctest.KillAfterFailure(t, pids)
				require.Len(t, pids, 3, res.Stdout.Text(nil))
				assert.Equal(t, callruntime.TimedOut, res.End)
				assert.Equal(t, "SIGKILL", res.Signal)
				assert.GreaterOrEqual(t, ended.Sub(timedOutAt()), grace, "SIGKILL before the grace was over")
				proctest.RequireGone(t, pids, 0)
			})
			t.Run("SIGTERM respected: no grace spent", func(t *testing.T) {
				// A grace no stop of this tree comes near, however loaded
				// the machine: a call that waited it out took a minute.
				const grace = time.Minute
				s := spec("pid", "tree plain,setsid", "hang")
				ctx, timedOutAt := endWhenSeen(&s, "pid ", 3, callruntime.ErrTimeout)
				s.KillGrace = grace
				res, err := r.Run(ctx, s)
				require.NoError(t, err)
				ended := time.Now()
				pids := reportedPids(res.Stdout.Text(nil))
				defer proctest.KillAfterFailure(t, pids)
				require.Len(t, pids, 3, res.Stdout.Text(nil))
				assert.Equal(t, callruntime.TimedOut, res.End)
				assert.Equal(t, "SIGTERM", res.Signal)
				assert.Less(t, ended.Sub(timedOutAt()), grace, "the grace was waited out")
				proctest.RequireGone(t, pids, 0)
			})
		})
	}
}

func TestRun_Isolation(t *testing.T) {
	r := newRunner(t)
	t.Run("stdin is the null device", func(t *testing.T) {
		res := run(t, r, spec("stdin"))
		assert.Equal(t, "stdin 0 bytes\n", res.Stdout.Text(nil))
	})
	t.Run("environment is exactly the allowlist", func(t *testing.T) {
		t.Setenv("AEAT_TEST_SECRET", "must-not-leak")
		for _, env := range [][]string{nil, {"A=1", "LANG=es_ES.UTF-8"}} {
			s := spec("env")
			s.Env = env
			res := run(t, r, s)
			var got map[string]string
			require.NoError(t, json.Unmarshal([]byte(res.Stdout.Text(nil)), &got))
			want := map[string]string{}
			for _, kv := range env {
				k, v, _ := strings.Cut(kv, "=")
				want[k] = v
			}
			assert.Equal(t, want, got)
		}
	})
	t.Run("working directory", func(t *testing.T) {
		dir := t.TempDir()
		s := spec("cwd")
		s.Dir = dir
		res := run(t, r, s)
		want, _ := filepath.EvalSymlinks(dir)
		assert.Equal(t, want+"\n", res.Stdout.Text(nil))
	})
	t.Run("argv passes through untouched", func(t *testing.T) {
		s := callruntime.Spec{Path: fakecli, Args: []string{"argv", "--x=$(rm -rf /)", "a b", "'; echo", "-", ""}}
		res := run(t, r, s)
		var got []string
		require.NoError(t, json.Unmarshal([]byte(res.Stdout.Text(nil)), &got))
		assert.Equal(t, s.Args, got)
	})
}

func TestRun_Capture(t *testing.T) {
	r := newRunner(t)
	t.Run("head and tail kept", func(t *testing.T) {
		s := spec("flood stdout 100000")
		s.MaxStdout = 1000
		res := run(t, r, s)
		assert.Equal(t, int64(100000), res.Stdout.Total)
		assert.Len(t, res.Stdout.Head, 500)
		assert.Len(t, res.Stdout.Tail, 500)
		assert.Equal(t, int64(99000), res.Stdout.Omitted())
		assert.Contains(t, res.Stdout.Text(nil), "99000 bytes omitted")
		assert.True(t, strings.HasSuffix(res.Stdout.Text(nil), "x\n"))
	})
	t.Run("both streams at once do not deadlock", func(t *testing.T) {
		s := spec("flood both 8000000")
		s.MaxStdout, s.MaxStderr = 4096, 4096
		res := run(t, r, s)
		assert.Equal(t, int64(8000000), res.Stdout.Total)
		assert.Equal(t, int64(8000000), res.Stderr.Total)
	})
	t.Run("invalid UTF-8 is replaced, not dropped", func(t *testing.T) {
		res := run(t, r, spec("badutf8"))
		assert.Equal(t, "valid \uFFFD invalid \uFFFD( end\n", res.Stdout.Text(nil))
	})
}

// TestRun_MemoryBounded floods 1 GiB on each stream at once and a 100 MiB
// line without a newline, in a helper process, and reads that process's peak
// RSS: capture must stay bounded whatever the program writes.
func TestRun_MemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("floods 2.1 GiB through pipes")
	}
	out := runHelper(t, "flood")
	var rep struct {
		StdoutTotal, StderrTotal, LineTotal int64
		PeakRSSKiB                          int64
		Lines                               int
	}
	require.NoError(t, json.Unmarshal(out, &rep), string(out))
	assert.Equal(t, int64(1<<30), rep.StdoutTotal)
	assert.Equal(t, int64(1<<30), rep.StderrTotal)
	assert.Equal(t, int64(100<<20), rep.LineTotal)
	t.Logf("peak RSS of the supervising process: %d KiB", rep.PeakRSSKiB)
	// 2.1 GiB went through; a capture that kept it would show gigabytes.
	// Under -race the detector's shadow memory doubles what the runtime
	// itself maps (measured: 57-88 MiB with -race on a loaded machine,
	// ~31 MiB without).
	bound := int64(96 << 10)
	if raceEnabled {
		bound *= 2
	}
	assert.Less(t, rep.PeakRSSKiB, bound, "capture is not bounded")
}

func TestRun_Observer(t *testing.T) {
	r := newRunner(t)
	t.Run("sees lines while the process runs", func(t *testing.T) {
		// The program goes on only once the observer has seen its
		// lines: an observer shown them at the end would wait forever
		// (until the hang bound times the call out).
		var mu sync.Mutex
		var got []string
		g := newGate(t)
		s := spec("lines 5 10ms", g.await(), "echo after")
		s.Timeout = proctest.HangAfter
		s.OnLine = func(l callruntime.Line) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, l.Stream.String()+":"+l.Text)
			if l.Text == "line 5" {
				_ = g.open()
			}
		}
		res := run(t, r, s)
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, callruntime.Exited, res.End, "the lines were not seen while the program ran")
		assert.Equal(t, []string{"stdout:line 1", "stdout:line 2", "stdout:line 3", "stdout:line 4", "stdout:line 5", "stdout:after"}, got)
	})
	t.Run("a slow observer never blocks the readers", func(t *testing.T) {
		var delivered, dropped atomic.Int64
		s := spec("flood stdout 8000000")
		s.OnLine = func(l callruntime.Line) {
			delivered.Add(1)
			dropped.Add(int64(l.Dropped))
			time.Sleep(20 * time.Millisecond)
		}
		res := run(t, r, s)
		assert.Equal(t, int64(8000000), res.Stdout.Total)
		// An observer that held the reader would take 100,000 lines ×
		// 20 ms: over half an hour.
		assert.Less(t, res.Duration, proctest.HangAfter)
		assert.Positive(t, dropped.Load(), "a slow observer must lose lines, not stall the reader")
		assert.Less(t, delivered.Load(), int64(100000))
	})
	t.Run("a panicking observer changes nothing", func(t *testing.T) {
		var calls atomic.Int32
		s := spec("lines 3 50ms", "exit 4")
		s.OnLine = func(callruntime.Line) {
			calls.Add(1)
			panic("observer bug")
		}
		res := run(t, r, s)
		assert.Equal(t, callruntime.Exited, res.End)
		assert.Equal(t, 4, res.ExitCode)
		assert.Equal(t, "line 1\nline 2\nline 3\n", res.Stdout.Text(nil))
		assert.Equal(t, int32(1), calls.Load(), "not called again after a panic")
	})
	t.Run("long lines are cut", func(t *testing.T) {
		var lines []callruntime.Line
		var mu sync.Mutex
		s := spec("flood stdout 20000 nonl")
		s.OnLine = func(l callruntime.Line) { mu.Lock(); lines = append(lines, l); mu.Unlock() }
		run(t, r, s)
		mu.Lock()
		defer mu.Unlock()
		require.Len(t, lines, 1)
		assert.True(t, lines[0].Cut)
		assert.Len(t, lines[0].Text, callruntime.MaxLineBytes)
	})
}

func TestRun_Filter(t *testing.T) {
	r := newRunner(t)
	var mu sync.Mutex
	var seen []string
	s := spec()
	s.Args = []string{"pem", "+", "stderr", "-----BEGIN PRIVATE KEY-----\nsecret2\n-----END PRIVATE KEY-----"}
	s.Filter = callruntime.RedactPrivateKeys
	s.OnLine = func(l callruntime.Line) { mu.Lock(); seen = append(seen, l.Text); mu.Unlock() }
	res := run(t, r, s)
	assert.Equal(t, "before\n[redacted private key]\nafter\n", res.Stdout.Text(nil))
	assert.Equal(t, "[redacted private key]\n", res.Stderr.Text(nil))
	mu.Lock()
	defer mu.Unlock()
	for _, l := range seen {
		assert.NotContains(t, l, "secret")
	}
}

func TestRun_MemoryCeiling(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			r := newRunner(t, m.disable...)
			s := spec("pid", "tree hog:400000000", "hang")
			s.MemoryLimit = 150 << 20
			s.Timeout = proctest.HangAfter // ResourceExceeded, not TimedOut: the ceiling stopped it
			res := run(t, r, s)
			pids := reportedPids(res.Stdout.Text(nil))
			defer proctest.KillAfterFailure(t, pids)
			assert.Equal(t, callruntime.ResourceExceeded, res.End)
			assert.True(t, res.TreeDead)
			if !r.Mechanisms().Uses(callruntime.CgroupMemory) {
				assert.Greater(t, res.PeakRSS, s.MemoryLimit)
			}
			proctest.RequireGone(t, pids, 0)
		})
	}
	t.Run("under the ceiling", func(t *testing.T) {
		r := newRunner(t)
		s := spec("alloc 20000000", "ok")
		s.MemoryLimit = 150 << 20
		res := run(t, r, s)
		assert.Equal(t, callruntime.Exited, res.End)
	})
}

func TestRun_AlreadyCancelled(t *testing.T) {
	r := newRunner(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := r.Run(ctx, spec("ok"))
	require.NoError(t, err)
	assert.Equal(t, callruntime.Cancelled, res.End)
	assert.Zero(t, res.Stdout.Total, "nothing may start once the call is over")

	ctx, cancel = context.WithTimeoutCause(context.Background(), time.Nanosecond, callruntime.ErrTimeout)
	defer cancel()
	<-ctx.Done()
	res, err = r.Run(ctx, spec("ok"))
	require.NoError(t, err)
	assert.Equal(t, callruntime.TimedOut, res.End)
}

func TestRunner_CloseStopsCalls(t *testing.T) {
	r, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(t, err)
	done := make(chan callruntime.Result)
	running := make(chan struct{})
	s := spec("pid", "tree setsid", "hang")
	s.OnLine = func(l callruntime.Line) {
		if strings.HasPrefix(l.Text, "pid setsid ") {
			close(running)
		}
	}
	go func() {
		res, _ := r.Run(context.Background(), s)
		done <- res
	}()
	<-running
	require.NoError(t, r.Close())
	res := <-done
	pids := reportedPids(res.Stdout.Text(nil))
	defer proctest.KillAfterFailure(t, pids)
	require.Len(t, pids, 2, res.Stdout.Text(nil))
	assert.Equal(t, callruntime.Cancelled, res.End)
	proctest.RequireGone(t, pids, 0)
	_, err = r.Run(context.Background(), spec("ok"))
	assert.ErrorIs(t, err, callruntime.ErrRunnerClosed)
}

// TestRunner_Deferred: a Runner made with Options.Deferred touches nothing
// of the machine's until it is started — no state directory made, no
// ledger swept, no lifeline — then sets everything up by itself; Close of
// one never started holds nothing and starts nothing.
func TestRunner_Deferred(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "state")
			r, err := callruntime.NewRunner(callruntime.Options{Disable: m.disable, StateDir: state, Deferred: true})
			require.NoError(t, err)
			assert.NoDirExists(t, state, "nothing is set up before Start")
			r.Start()
			assert.Equal(t, m.tree, r.Tree(), "set up on its own")
			assert.DirExists(t, state)
			used := map[callruntime.Mechanism]bool{}
			for _, ms := range r.Mechanisms().Mechanisms {
				used[ms.Mechanism] = ms.Used
			}
			assert.True(t, used[callruntime.Lifeline], "the lifeline is up")
			assert.Equal(t, 0, run(t, r, spec("ok")).ExitCode)
			require.NoError(t, r.Close())

			never := filepath.Join(t.TempDir(), "never")
			idle, err := callruntime.NewRunner(callruntime.Options{Disable: m.disable, StateDir: never, Deferred: true})
			require.NoError(t, err)
			require.NoError(t, idle.Close())
			assert.NoDirExists(t, never, "closing a Runner never started sets nothing up")
			_, err = idle.Run(context.Background(), spec("ok"))
			assert.ErrorIs(t, err, callruntime.ErrRunnerClosed)
		})
	}
}

// TestRun_ReusedCgroups: cgroups are pooled between calls; one whose tree
// had to be killed must never be reused (on some kernels a killed cgroup
// kills everything later cloned into it).
func TestRun_ReusedCgroups(t *testing.T) {
	r := newRunner(t)
	for i := 0; i < 3; i++ {
		s := spec("ignore-term", "tree stubborn", "hang")
		s.Timeout, s.KillGrace = 100*time.Millisecond, 100*time.Millisecond
		assert.Equal(t, callruntime.TimedOut, run(t, r, s).End)
		for j := 0; j < 3; j++ {
			res := run(t, r, spec("ok"))
			assert.Equal(t, callruntime.Exited, res.End, "call %d after a kill", j)
			assert.Equal(t, 0, res.ExitCode)
		}
	}
}

// TestRunner_Independent: Runners in one process do not share state; closing
// one leaves the other's calls running.
func TestRunner_Independent(t *testing.T) {
	a := newRunner(t)
	b, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(t, err)
	done := make(chan callruntime.Result, 1)
	running := make(chan struct{})
	g := newGate(t)
	s := spec("pid", g.await(), "ok")
	s.Timeout = proctest.HangAfter
	s.OnLine = func(l callruntime.Line) {
		if strings.HasPrefix(l.Text, "pid self ") {
			close(running)
		}
	}
	go func() {
		res, _ := a.Run(context.Background(), s)
		done <- res
	}()
	<-running // a's call is in flight while b runs and closes
	for i := 0; i < 3; i++ {
		assert.Equal(t, 0, run(t, b, spec("ok")).ExitCode)
	}
	require.NoError(t, b.Close())
	require.NoError(t, g.open())
	res := <-done
	assert.Equal(t, callruntime.Exited, res.End)
	assert.Equal(t, 0, res.ExitCode)
}

// TestRun_LeftoversOfOverlappingCalls: daemons left by calls that ran
// alongside others cannot always be attributed while those run, but once no
// call in flight can own them they are killed and reaped — on every
// mechanism, not only where cgroups make it easy.
func TestRun_LeftoversOfOverlappingCalls(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			r := newRunner(t, m.disable...)
			t.Run("pairs", func(t *testing.T) {
				for round := 0; round < 10; round++ {
					var wg sync.WaitGroup
					results := make([]callruntime.Result, 2)
					for i := range results {
						wg.Add(1)
						go func() {
							defer wg.Done()
							res, err := r.Run(context.Background(), spec("pid", "tree daemon,setsid", "sleep 100ms", "exit 0"))
							if err == nil {
								results[i] = res
							}
						}()
					}
					wg.Wait()
					for _, res := range results {
						pids := reportedPids(res.Stdout.Text(nil))
						require.Len(t, pids, 3, "round %d: %s", round, res.Stdout.Text(nil))
						proctest.RequireGone(t, pids, 0)
					}
				}
			})
			t.Run("a daemon older than the other call in flight", func(t *testing.T) {
				// B leaves a daemon, then C starts, then B ends while C
				// runs: only B can own the daemon (it is older than C), so
				// B's end takes it — C's end would not.
				var seen atomic.Int32
				bDaemon := make(chan struct{})
				bGoes := newGate(t)
				b := spec("pid", "tree daemon", bGoes.await(), "exit 0")
				b.Timeout = proctest.HangAfter
				b.OnLine = func(l callruntime.Line) {
					if strings.HasPrefix(l.Text, "pid daemon ") && seen.Add(1) == 1 {
						close(bDaemon)
					}
				}
				bDone := make(chan callruntime.Result, 1)
				go func() {
					res, _ := r.Run(context.Background(), b)
					bDone <- res
				}()
				<-bDaemon
				time.Sleep(20 * time.Millisecond) // C starts at least a start-time tick (10 ms) later
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				cDone := make(chan struct{})
				c := spec("pid", "hang")
				c.OnLine = func(l callruntime.Line) {
					if strings.HasPrefix(l.Text, "pid self ") {
						_ = bGoes.open() // B ends while C runs
					}
				}
				go func() {
					defer close(cDone)
					_, _ = r.Run(ctx, c)
				}()
				res := <-bDone
				pids := reportedPids(res.Stdout.Text(nil))
				defer proctest.KillAfterFailure(t, pids)
				require.Len(t, pids, 2, res.Stdout.Text(nil))
				assert.True(t, res.TreeDead)
				proctest.RequireGone(t, pids, 0)
				cancel()
				<-cDone
			})
			t.Run("beside a long call", func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				long := make(chan callruntime.Result, 1)
				inFlight := make(chan struct{})
				s := spec("pid", "hang")
				s.OnLine = func(l callruntime.Line) {
					if strings.HasPrefix(l.Text, "pid self ") {
						close(inFlight)
					}
				}
				go func() {
					res, _ := r.Run(ctx, s)
					long <- res
				}()
				<-inFlight
				all := map[string]int{}
				for i := 0; i < 10; i++ {
					res := run(t, r, spec("pid", "tree daemon", "sleep 100ms", "exit 0"))
					for role, pid := range reportedPids(res.Stdout.Text(nil)) {
						all[fmt.Sprint(role, i)] = pid
					}
				}
				defer proctest.KillAfterFailure(t, all)
				cancel()
				res := <-long
				assert.True(t, res.TreeDead)
				require.Len(t, all, 20)
				proctest.RequireGone(t, all, 0)
			})
		})
	}
}

// TestRun_GraceCap: a call stopped with a GraceCap cause gets at most the
// cap, not its own grace — the server's shutdown on a signal, which must be
// over before the host's SIGKILL.
func TestRun_GraceCap(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			r := newRunner(t, m.disable...)
			ctx, stop := context.WithCancelCause(context.Background())
			defer stop(nil)
			s := spec("ignore-term", "pid", "tree stubborn", "hang")
			s.KillGrace = 30 * time.Second
			s.OnLine = func(l callruntime.Line) {
				if strings.HasPrefix(l.Text, "pid stubborn ") {
					stop(&callruntime.GraceCap{Cause: context.Canceled, Max: 100 * time.Millisecond})
				}
			}
			res, err := r.Run(ctx, s)
			require.NoError(t, err)
			pids := reportedPids(res.Stdout.Text(nil))
			defer proctest.KillAfterFailure(t, pids)
			require.Len(t, pids, 2, res.Stdout.Text(nil))
			assert.Equal(t, callruntime.Cancelled, res.End)
			assert.Equal(t, "SIGKILL", res.Signal)
			assert.Less(t, res.Duration, s.KillGrace, "the call's own 30 s grace was not waited")
			proctest.RequireGone(t, pids, 0)
		})
	}
}

// TestRun_OrphansOfExitedParents (issue 18 M1): a parent that exits first
// must not take its children out of reach. Linux's /proc walk with the
// subreaper disabled is macOS's situation — an orphan goes to init (XNU:
// launchd) at its parent's exit, and a walk by parent pid no longer finds
// it — so these run there too, with real trees; the old walk lost all
// three. Dead means gone or a zombie: init reaps at its own pace.
func TestRun_OrphansOfExitedParents(t *testing.T) {
	all := append(modes(t), mode{name: "procwalk-without-subreaper", disable: []callruntime.Mechanism{callruntime.CgroupV2, callruntime.Subreaper}, tree: "procwalk"})
	for _, m := range all {
		t.Run(m.name, func(t *testing.T) {
			// A ledger of the test's own, which proctest.WaitLedger reads.
			state := privateStateDir(t)
			r, err := callruntime.NewRunner(callruntime.Options{Disable: m.disable, StateDir: state})
			require.NoError(t, err)
			t.Cleanup(func() { require.NoError(t, r.Close()) })
			t.Run("exit 0 leaving a setsid child", func(t *testing.T) {
				// The leader exits once a walk has seen its children (the
				// ledger lists them): a child orphaned before any walk saw
				// it is the documented limit, and on a loaded machine no
				// sleep is sure to span a walk.
				g := newGate(t)
				s := spec("pid", "tree setsid,holder", g.await(), "exit 0")
				s.Timeout = proctest.HangAfter
				reported := make(chan map[string]int, 1)
				var seen sync.Map
				var n atomic.Int32
				s.OnLine = func(l callruntime.Line) {
					for role, pid := range reportedPids(l.Text) {
						seen.Store(role, pid)
						if n.Add(1) == 3 {
							all := map[string]int{}
							seen.Range(func(k, v any) bool { all[k.(string)] = v.(int); return true })
							reported <- all
						}
					}
				}
				done := make(chan callruntime.Result, 1)
				go func() {
					res, _ := r.Run(context.Background(), s)
					done <- res
				}()
				pids := <-reported
				defer proctest.KillAfterFailure(t, pids)
				if m.tree == "procwalk" {
					proctest.WaitLedger(t, state, os.Getpid(), pids)
				}
				require.NoError(t, g.open())
				res := <-done
				assert.Equal(t, callruntime.Exited, res.End)
				proctest.RequireGone(t, pids, proctest.HangAfter)
			})
			t.Run("a parent honouring SIGTERM, a setsid child ignoring it", func(t *testing.T) {
				s := spec("pid", "tree stubborn-setsid", "hang")
				s.KillGrace = 300 * time.Millisecond
				ctx := stopWhenSeen(&s, "pid stubborn-setsid ")
				res, err := r.Run(ctx, s)
				require.NoError(t, err)
				pids := reportedPids(res.Stdout.Text(nil))
				defer proctest.KillAfterFailure(t, pids)
				require.Len(t, pids, 2, res.Stdout.Text(nil))
				assert.Equal(t, callruntime.Cancelled, res.End)
				proctest.RequireGone(t, pids, proctest.HangAfter)
			})
			t.Run("a fork-and-setsid loop", func(t *testing.T) {
				s := spec("pid", "tree forkloop", "hang")
				s.KillGrace = 300 * time.Millisecond
				var stop error = context.Canceled
				if m.name == "procwalk-without-subreaper" {
					// Without a subreaper the guarantee is "what a walk
					// saw" (docs/platforms.md). The grace's SIGTERM lets
					// the loop run again until it dies of it, and a child
					// it forks in that instant is re-parented to init
					// before any walk sees it: CI's loaded run left fork9
					// so, once. Killed at once, the tree is frozen and
					// killed while stopped: nothing runs to fork.
					stop = &callruntime.GraceCap{Cause: context.Canceled}
				}
				ctx, _ := endWhenSeen(&s, "pid fork5 ", 1, stop) // stopped while it forks
				res, err := r.Run(ctx, s)
				require.NoError(t, err)
				pids := reportedPids(res.Stdout.Text(nil))
				defer proctest.KillAfterFailure(t, pids)
				for _, role := range []string{"self", "forkloop", "fork5"} {
					require.Contains(t, pids, role, res.Stdout.Text(nil)) // others may have been stopped before they printed
				}
				assert.Equal(t, callruntime.Cancelled, res.End)
				proctest.RequireGone(t, pids, proctest.HangAfter)
				t.Logf("%d processes of a forking tree, none left", len(pids))
			})
		})
	}
}
