//go:build unix

package warm_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runAsync runs spec on the pool in the background; the result arrives on
// the channel.
type outcome struct {
	res callruntime.Result
	err error
}

func (s *setup) runAsync(ctx context.Context, spec callruntime.Spec) <-chan outcome {
	ch := make(chan outcome, 1)
	go func() {
		res, err := s.pool.Run(ctx, spec)
		ch <- outcome{res, err}
	}()
	return ch
}

// await waits for a call's outcome: a bound that holds however loaded the
// machine (the calls it waits for end within seconds); a call that never
// comes back fails the test rather than hanging it.
func await(t *testing.T, ch <-chan outcome, what string) outcome {
	t.Helper()
	select {
	case o := <-ch:
		return o
	case <-time.After(3 * time.Minute):
		t.Fatalf("%s: the call was never answered", what)
		return outcome{}
	}
}

// pidFile is where the demo CLI writes the pids its calls report.
func pidFile(t *testing.T) (string, func(n int) []int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pids")
	return path, func(n int) []int {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for {
			b, _ := os.ReadFile(path)
			if pids := pidLines(t, b); len(pids) >= n {
				return pids
			}
			require.True(t, time.Now().Before(deadline), "the calls reported fewer than %d pids", n)
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// A template that dies — killed, or by the OOM killer — takes no call with
// it: each warm call's child lives in its own tree and ends as it would
// have (issue 29, item 2). The template is replaced.
func TestWarmCallsOutliveTheirTemplate(t *testing.T) {
	t.Parallel() // no package knob: it may run beside the others
	for name, dis := range modes(t) {
		t.Run(name, func(t *testing.T) {
			path, pids := pidFile(t)
			s := newSetup(t, annotations.Warm{}, baseEnv("0.2", "WARMDEMO_PIDFILE="+path), dis...)
			st := s.settled(t)
			require.Equal(t, warm.On, st.State, st.Reason)
			// Each call runs until the gate opens, which is after its
			// template is gone: however loaded the machine, no call has
			// ended before.
			gate := filepath.Join(t.TempDir(), "gate")
			const n = 3
			var calls []<-chan outcome
			for range n {
				calls = append(calls, s.runAsync(context.Background(), s.spec("gate", gate)))
			}
			pids(n) // every call runs
			old := st.TemplatePID
			require.NoError(t, killPid(old))
			gone(t, old)
			require.NoError(t, os.WriteFile(gate, nil, 0o644))
			for i, ch := range calls {
				o := await(t, ch, "a call whose template died")
				if runtime.GOOS == "darwin" {
					// No child subreaper: the orphan goes to launchd, which
					// reaps it, and how it ended cannot be learnt — the
					// call is lost, and the server runs a READ again.
					var lost *warm.LostError
					require.ErrorAs(t, o.err, &lost, "call %d", i)
					continue
				}
				require.NoError(t, o.err)
				assert.Equal(t, callruntime.Exited, o.res.End, "call %d: %s %s", i, o.res.Signal, o.res.Stderr.Head)
				assert.Equal(t, 0, o.res.ExitCode, "call %d", i)
				treeDead(t, o.res)
			}
			replaced(t, s, old)
		})
	}
}

// When the template's death does take a call (here: the template is killed,
// then the call's child, as an OOM kill of both would), the call is lost to
// warm start, not to the CLI: Run says so with a LostError, which the server
// turns into a retry (a READ) or a retryable fault of its own.
func TestWarmCallTakenByTheTemplatesDeathIsLost(t *testing.T) {
	t.Parallel() // no package knob: it may run beside the others
	path, pids := pidFile(t)
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2", "WARMDEMO_PIDFILE="+path))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State, st.Reason)
	ch := s.runAsync(context.Background(), s.spec("sleep", "60"))
	child := pids(1)[0]
	require.NoError(t, killPid(st.TemplatePID))
	gone(t, st.TemplatePID)
	require.NoError(t, killPid(child))
	o := await(t, ch, "a call lost with its template")
	var lost *warm.LostError
	require.ErrorAs(t, o.err, &lost, "end %s signal %s", o.res.End, o.res.Signal)
	assert.Contains(t, lost.Why, "the warm template died during the call")
	assert.Equal(t, callruntime.Signaled, lost.Result.End)
	assert.Equal(t, "SIGKILL", lost.Result.Signal)
	assert.Equal(t, 1, s.pool.Status().Lost)
}

// A template that stops answering (SIGSTOP, a swap storm) breaks no call's
// ceiling, and is killed and replaced (issue 29, item 3): a call in flight
// when it stops ends at its ceiling; a call that asks it for a fork starts
// cold within its ceiling; the next calls fork from a fresh template. Each
// ceiling comes at an event — the call's child reported its pid, the
// template was asked for a fork — not after a time a loaded machine can
// outlast before the call even got there (issue 29, item 8). The template
// is given 5 s to answer: the stall this test makes is meant to outlast
// it, a fork on a machine 10 times oversubscribed is not.
func TestWarmStalledTemplate(t *testing.T) {
	defer warm.SetAnswerWait(5 * time.Second)()
	t.Run("with a call in flight", func(t *testing.T) {
		path, pids := pidFile(t)
		s := newSetup(t, annotations.Warm{}, baseEnv("0.2", "WARMDEMO_PIDFILE="+path))
		st := s.settled(t)
		require.Equal(t, warm.On, st.State, st.Reason)
		ctx, ceiling := context.WithCancelCause(context.Background())
		defer ceiling(nil)
		ch := s.runAsync(ctx, s.spec("sleep", "600"))
		child := pids(1)[0]
		require.NoError(t, syscall.Kill(st.TemplatePID, syscall.SIGSTOP))
		t.Cleanup(func() { _ = syscall.Kill(st.TemplatePID, syscall.SIGCONT) })
		ceiling(callruntime.ErrTimeout)
		o := await(t, ch, "a call whose template stopped")
		require.NoError(t, o.err)
		assert.Equal(t, callruntime.TimedOut, o.res.End)
		gone(t, child)
		replaced(t, s, st.TemplatePID)
	})
	t.Run("asked for a fork", func(t *testing.T) {
		asked := make(chan int, 16)
		// Registered before the pool's Close, so restored after it.
		t.Cleanup(warm.OnForkAsked(func(pid int) {
			select {
			case asked <- pid:
			default:
			}
		}))
		s := newSetup(t, annotations.Warm{}, baseEnv("0.2"))
		st := s.settled(t)
		require.Equal(t, warm.On, st.State, st.Reason)
		require.NoError(t, syscall.Kill(st.TemplatePID, syscall.SIGSTOP))
		t.Cleanup(func() { _ = syscall.Kill(st.TemplatePID, syscall.SIGCONT) })
		// The ceiling comes once the stopped template was asked for the
		// fork, long before it is given up on: the call gives up waiting
		// for the fork at its ceiling, and the template is still killed.
		ctx, ceiling := context.WithCancelCause(context.Background())
		defer ceiling(nil)
		go func() {
			for {
				select {
				case pid := <-asked:
					if pid == st.TemplatePID {
						ceiling(callruntime.ErrTimeout)
						return
					}
				case <-ctx.Done():
					return
				}
			}
		}()
		spec := s.spec("startmode")
		spec.Timeout = proctest.HangAfter
		o := await(t, s.runAsync(ctx, spec), "a call asking a stopped template")
		require.NoError(t, o.err)
		assert.Equal(t, callruntime.TimedOut, o.res.End, "its ceiling bound it: %s", o.res.Stdout.Head)
		replaced(t, s, st.TemplatePID)
	})
}

// replaced waits until old is gone and a fresh template serves warm calls.
func replaced(t *testing.T, s *setup, old int) {
	t.Helper()
	gone(t, old)
	st := s.waitFor(t, "a fresh template", func(st warm.Status) bool {
		return st.State == warm.On && st.TemplatePID != 0 && st.TemplatePID != old
	})
	w := parseWhoami(t, s.run(t, context.Background(), s.spec("whoami")))
	assert.True(t, w.Warm, "the next call forked from the fresh template")
	assert.Equal(t, st.TemplatePID, w.Ppid)
}

// A generator made at import gives each warm call its own numbers, as a
// fresh interpreter would (issue 29, item 4).
func TestWarmReseedsRandomGenerators(t *testing.T) {
	t.Parallel() // no package knob: it may run beside the others
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2"))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State, st.Reason)
	seen := map[string]bool{}
	for range 4 {
		res := s.run(t, context.Background(), s.spec("rand"))
		require.Equal(t, 0, res.ExitCode, "%s", res.Stderr.Head)
		seen[string(res.Stdout.Head)] = true
	}
	assert.Len(t, seen, 4, "each call drew its own numbers: %v", seen)
}

// A file the CLI opened at import would share its offset with every warm
// call (cold reads line 1 each time; warm calls would read on from each
// other): such a template is never served from (issue 29, item 4). A log
// opened for appending is no such file (every write goes to its end).
func TestWarmRefusesFilesOpenedAtImport(t *testing.T) {
	t.Parallel() // no package knob: it may run beside the others
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	require.NoError(t, os.WriteFile(data, []byte("line-1\nline-2\n"), 0o644))
	t.Run("a file read per call", func(t *testing.T) {
		s := newSetup(t, annotations.Warm{}, baseEnv("0.2", "WARMDEMO_OPEN_AT_IMPORT="+data))
		st := s.settled(t)
		require.Equal(t, warm.Off, st.State)
		assert.Contains(t, st.Reason, data)
		assert.Contains(t, st.Reason, "every call would share it")
		for range 2 {
			res := s.run(t, context.Background(), s.spec("readline"))
			assert.Equal(t, "line-1\n", string(res.Stdout.Head), "each call reads as a cold one does")
		}
	})
	t.Run("a log opened for appending", func(t *testing.T) {
		s := newSetup(t, annotations.Warm{}, baseEnv("0.2", "WARMDEMO_LOG_AT_IMPORT="+filepath.Join(dir, "log")))
		st := s.settled(t)
		assert.Equal(t, warm.On, st.State, st.Reason)
	})
}

// A verify call that times out says the machine is loaded, not that warm
// start is wrong: it is tried again with a longer ceiling, and warm start
// turns on once the runs agree — never off in between, never the verdict
// "off" (issue 28, item 4). Here every cold run outlasts the first ceiling
// (the CLI's import alone takes longer), as on a machine that stays loaded:
// a ceiling that did not grow would never be met (issue 29, item 8).
func TestWarmVerifyTimeoutIsNotAVerdict(t *testing.T) {
	defer warm.SetVerifyRetry(100 * time.Millisecond)()
	verdicts := t.TempDir()
	w := annotations.Warm{Verify: [][]string{{"hello"}}}
	s := newSetupWith(t, w, baseEnv("3"), func(c *warm.Config) {
		c.VerifyTimeout = 2 * time.Second
		c.VerdictDir = verdicts
	})
	var mu sync.Mutex
	var states []warm.State
	st := s.waitFor(t, "on", func(st warm.Status) bool {
		mu.Lock()
		states = append(states, st.State)
		mu.Unlock()
		return st.State != warm.Starting
	})
	assert.Equal(t, warm.On, st.State, st.Reason)
	assert.NotContains(t, states, warm.Off)
	files, _ := filepath.Glob(filepath.Join(verdicts, "verdict-*.json"))
	require.Len(t, files, 1)
	b, _ := os.ReadFile(files[0])
	assert.Contains(t, string(b), `"state":"on"`)
}

// A call that arrives while the template is starting waits for it when it
// will serve sooner than a cold run would end — here the last start on
// this machine (its verdict) says a template serves in about a second and a
// cold call takes ten minutes — and starts cold when it would not (issue
// 28, item 4). There are no verify calls: a cold one would be timed as it
// ran, and its length weighed instead of the verdict's — on a loaded
// machine a template later than that gives the call up to a cold start.
func TestWarmWaitsForAStartingTemplate(t *testing.T) {
	t.Parallel() // no package knob: it may run beside the others
	for _, tc := range []struct {
		name            string
		readyMS, coldMS int64
		warm            bool
	}{
		{"the template will serve first", 1000, 600000, true},
		{"a cold run will end first", 600000, 100, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			verdicts := t.TempDir()
			s := newSetupWith(t, annotations.Warm{}, baseEnv("1"), func(c *warm.Config) {
				c.VerdictDir = verdicts
				writeVerdict(t, verdicts, warm.VerdictKey(c.Python, c.Script, c.Args, c.Warm), tc.readyMS, tc.coldMS)
			})
			res := s.run(t, context.Background(), s.spec("startmode"))
			want := map[bool]string{true: "warm\n", false: "cold\n"}[tc.warm]
			assert.Equal(t, want, string(res.Stdout.Head), "end %s, exit %d, signal %s, stderr %q", res.End, res.ExitCode, res.Signal, res.Stderr.Head)
			if tc.warm {
				assert.Equal(t, 1, s.pool.Status().Waited)
			}
		})
	}
}

// writeVerdict leaves the verdict a previous server would have left.
func writeVerdict(t *testing.T, dir, key string, readyMS, coldMS int64) {
	t.Helper()
	v := fmt.Sprintf(`{"state":"on","verified":1,"at":"2026-01-01T00:00:00Z","ready_ms":%d,"cold_ms":%d}`, readyMS, coldMS)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "verdict-"+key+".json"), []byte(v), 0o600))
}

// A template killed before it said it is ready is a template that died:
// another is started, and after too many deaths warm start turns off —
// the launch never waits for a ready line from a dead template (it did,
// forever, while this process held the template's end of the control
// socket open).
func TestWarmTemplateKilledBeforeReady(t *testing.T) {
	t.Parallel() // no package knob: it may run beside the others
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2", "WARMDEMO_KILLED_IN_TEMPLATE=1"))
	st := s.settled(t)
	require.Equal(t, warm.Off, st.State)
	assert.Contains(t, st.Reason, "exited before it was ready")
	res := s.run(t, context.Background(), s.spec("startmode"))
	assert.Equal(t, "cold\n", string(res.Stdout.Head), "end %s, exit %d, signal %s, stderr %q", res.End, res.ExitCode, res.Signal, res.Stderr.Head)
}

// The fork canary (issue 30, item 1): a child forked at the template's
// start touches what Apple's runtimes make unsafe after a fork; if it dies,
// calls never fork from this CLI. Here the test CLI dies as a Mac's would.
func TestWarmForkCanary(t *testing.T) {
	t.Parallel() // no package knob: it may run beside the others
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2", "WARMDEMO_FORK_UNSAFE=1"))
	st := s.settled(t)
	require.Equal(t, warm.Off, st.State)
	assert.Contains(t, st.Reason, "the fork canary (proxies") // and the keychain, on macOS
	assert.Contains(t, st.Reason, "was killed by signal 6")
	res := s.run(t, context.Background(), s.spec("startmode"))
	assert.Equal(t, "cold\n", string(res.Stdout.Head), "end %s, exit %d, signal %s, stderr %q", res.End, res.ExitCode, res.Signal, res.Stderr.Head)
}

// A fork canary that did not end within its wait says nothing about the
// CLI (a loaded machine, a child waiting for a core): its template is
// replaced as one that died, and only a run of such starts turns warm off
// — for this server, never as the CLI's verdict. It was the verdict "off
// for good" at the first timeout.
func TestWarmForkCanaryTimeoutIsNotAVerdict(t *testing.T) {
	t.Parallel() // no package knob: it may run beside the others
	verdicts := t.TempDir()
	cfg := func(c *warm.Config) {
		c.CanaryWait = time.Second
		c.VerdictDir = verdicts
	}
	s := newSetupWith(t, annotations.Warm{}, baseEnv("0.2", "WARMDEMO_FORK_SLOW=1"), cfg)
	st := s.settled(t)
	require.Equal(t, warm.Off, st.State)
	assert.Contains(t, st.Reason, "the template failed")
	assert.Contains(t, st.Reason, "did not end within 1 s")
	res := s.run(t, context.Background(), s.spec("startmode"))
	assert.Equal(t, "cold\n", string(res.Stdout.Head))
	// The next server with the same CLI tries again.
	again := newSetupWith(t, annotations.Warm{}, baseEnv("0.2", "WARMDEMO_FORK_SLOW=1"), func(c *warm.Config) {
		cfg(c)
		c.Script = s.script
	})
	st = again.settled(t)
	assert.NotContains(t, st.Reason, "the CLI has not changed since")
}

// On macOS a warm child that a signal ended is taken for what Apple's
// runtimes do to a forked child: warm start turns off for good (the
// verdict is sticky until the CLI changes) and the call is lost, not the
// CLI's crash (issue 30, item 1). Run here with macOS's policies.
func TestWarmCrashOnDarwinTurnsWarmOff(t *testing.T) {
	t.Parallel() // no package knob: it may run beside the others
	verdicts := t.TempDir()
	s := newSetupWith(t, annotations.Warm{}, baseEnv("0.2"), func(c *warm.Config) {
		c.GOOS = "darwin"
		c.VerdictDir = verdicts
	})
	st := s.settled(t)
	require.Equal(t, warm.On, st.State, st.Reason)
	_, err := s.pool.Run(context.Background(), s.spec("forkcrash"))
	var lost *warm.LostError
	require.True(t, errors.As(err, &lost), "%v", err)
	assert.Equal(t, "SIGABRT", lost.Result.Signal)
	st = s.pool.Status()
	assert.Equal(t, warm.Off, st.State)
	assert.Contains(t, st.Reason, "killed by SIGABRT")
	res := s.run(t, context.Background(), s.spec("forkcrash"))
	assert.Equal(t, "cold\n", string(res.Stdout.Head), "end %s, exit %d, signal %s, stderr %q", res.End, res.ExitCode, res.Signal, res.Stderr.Head)
	// A later server with the same CLI does not try again.
	again := newSetupWith(t, annotations.Warm{}, baseEnv("0.2"), func(c *warm.Config) {
		c.GOOS = "darwin"
		c.VerdictDir = verdicts
		c.Script = s.script
	})
	st = again.settled(t)
	assert.Equal(t, warm.Off, st.State)
	assert.Contains(t, st.Reason, "the CLI has not changed since")
}

// cli.warm.preload (issue 28, item 4): the modules a verb imports when it
// runs, and the one-time set-up it does ("module:function"), are loaded in
// the template before the first fork — a warm call does neither again —
// and a call records what it loaded that its template had not.
func TestWarmPreloadPerVerb(t *testing.T) {
	t.Parallel() // no package knob: it may run beside the others
	for _, tc := range []struct {
		name    string
		modules map[string][]string
		stats   bool   // the stats verb's imports recorded in the call
		table   string // what the table verb says of its set-up
	}{
		{"without", nil, true, "built"},
		{"with", map[string][]string{"stats": {"statistics"}, "table": {"warmdemo:build_table"}}, false, "inherited"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSetup(t, annotations.Warm{Modules: tc.modules}, baseEnv("0.2"))
			st := s.settled(t)
			require.Equal(t, warm.On, st.State, st.Reason)
			rec, res, err := s.pool.Record(context.Background(), s.spec("stats"))
			require.NoError(t, err)
			require.Equal(t, 0, res.ExitCode, "%s", res.Stderr.Head)
			assert.Equal(t, "2\n", string(res.Stdout.Head))
			assert.Equal(t, tc.stats, slices.Contains(rec.Modules, "statistics"), "recorded: %v", rec.Modules)
			res = s.run(t, context.Background(), s.spec("table"))
			assert.Equal(t, tc.table+"\n", string(res.Stdout.Head), "end %s, exit %d, signal %s, stderr %q", res.End, res.ExitCode, res.Signal, res.Stderr.Head)
		})
	}
}
