//go:build unix

package warm_test

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
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

// A warm call is a child of the template that leads its own session, placed
// in the call's tree, in the call's working directory and environment —
// handed to the template's spare where it keeps one (the first moved into
// the call's cgroup; every later one born in its berth, the cgroup of the
// call it is handed, which the call before it sent), else forked (straight
// into the cgroup where clone3 can).
func TestWarmCallIsTheTemplatesChildInTheCallsTree(t *testing.T) {
	cases := modes(t)
	if dis, ok := cases["cgroup"]; ok {
		cases["cgroup-born"] = dis // no spare: forked by clone3
	}
	for name, dis := range cases {
		t.Run(name, func(t *testing.T) {
			if name == "cgroup-born" {
				defer warm.SetSpares(false)()
			}
			s := newSetup(t, annotations.Warm{}, baseEnv("0.3"), dis...)
			st := s.settled(t)
			require.Equal(t, warm.On, st.State, st.Reason)
			callDir := t.TempDir()
			spec := s.spec("whoami")
			spec.Dir = callDir
			spec.Env = append(append([]string{}, s.env[:len(s.env)-1]...), "TMPDIR="+callDir)
			res := s.run(t, context.Background(), spec)
			require.Equal(t, callruntime.Exited, res.End)
			require.Equal(t, 0, res.ExitCode, "stderr %s", res.Stderr.Head)
			w := parseWhoami(t, res)
			assert.True(t, w.Warm, "the call ran in a fresh interpreter")
			assert.Equal(t, st.TemplatePID, w.Ppid, "its parent is the template")
			assert.Equal(t, w.Pid, w.Sid, "it leads a session of its own")
			assert.Equal(t, w.Pid, w.Pgid)
			assert.Equal(t, callDir, w.Cwd)
			assert.Equal(t, callDir, w.Tmp, "tempfile sees the call's TMPDIR, not the template's")
			assert.Equal(t, s.script, w.Argv0)
			assert.Equal(t, 1, w.Threads)
			switch name {
			case "cgroup":
				assert.Contains(t, w.Cgroup, "/call-", "it ran in the call's cgroup")
				assert.Equal(t, 1, s.pool.Status().Spares, "handed to the spare, then moved there")
				assert.Zero(t, s.pool.Status().BornInCgroup)
				next := s.run(t, context.Background(), spec)
				require.Equal(t, 0, next.ExitCode, "stderr %s", next.Stderr.Head)
				nw := parseWhoami(t, next)
				assert.Contains(t, nw.Cgroup, "/call-", "it ran in the call's cgroup")
				assert.Equal(t, 2, s.pool.Status().Spares)
				assert.Equal(t, 1, s.pool.Status().BornInCgroup, "the second spare was born in its call's cgroup, not moved there")
				treeDead(t, next)
			case "cgroup-born":
				assert.Contains(t, w.Cgroup, "/call-", "it ran in the call's cgroup")
				assert.Equal(t, 1, s.pool.Status().BornInCgroup, "forked straight into it (clone3), not moved there")
			case "cgroup-moved":
				assert.Contains(t, w.Cgroup, "/call-", "it ran in the call's cgroup")
				assert.Zero(t, s.pool.Status().BornInCgroup, "forked, then moved")
			default:
				assert.Zero(t, s.pool.Status().BornInCgroup, "no cgroup to be born in")
			}
			treeDead(t, res)
			tree, _, _ := strings.Cut(name, "-")
			assert.Equal(t, tree, res.Tree)
		})
	}
}

// The settings trap: a template caches settings read from its environment;
// without the reset hook a call given another value still sees the
// template's, with it the call's own.
func TestWarmResetHooks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reset []string
		want  string
	}{
		{"without reset the template's cache leaks", nil, "from-template"},
		{"with reset each call reads its own", []string{"warmdemo.settings:reset_settings_cache"}, "from-call"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSetup(t, annotations.Warm{Reset: tc.reset, Warmup: [][]string{{"setting"}}},
				baseEnv("0.2", "WARMDEMO_GREETING=from-template"))
			st0 := s.settled(t)
			require.Equal(t, warm.On, st0.State, st0.Reason)
			spec := s.spec("setting")
			spec.Env = baseEnv("0.2", "WARMDEMO_GREETING=from-call")
			res := s.run(t, context.Background(), spec)
			assert.Equal(t, tc.want+"\n", string(res.Stdout.Head))
		})
	}
}

// stdin, exit codes and argv reach a warm call as they reach a cold one.
func TestWarmStdinExitAndArgs(t *testing.T) {
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2"))
	st0 := s.settled(t)
	require.Equal(t, warm.On, st0.State, st0.Reason)
	spec := s.spec("stdin")
	spec.Stdin = []byte("secret on stdin")
	res := s.run(t, context.Background(), spec)
	assert.Equal(t, "15:secret on stdin\n", string(res.Stdout.Head))
	res = s.run(t, context.Background(), s.spec("exit", "3"))
	assert.Equal(t, callruntime.Exited, res.End)
	assert.Equal(t, 3, res.ExitCode)
	res = s.run(t, context.Background(), s.spec("hello", "--name", "a b; $(rm -rf /)"))
	assert.Equal(t, "hello a b; $(rm -rf /)\n", string(res.Stdout.Head))
	res = s.run(t, context.Background(), s.spec("lazy", "more", "report"))
	assert.Equal(t, "a lazily loaded report\n", string(res.Stdout.Head))
	res = s.run(t, context.Background(), s.spec("nosuchverb"))
	assert.Equal(t, 2, res.ExitCode, "click's usage error")
	assert.Contains(t, string(res.Stderr.Head), "No such command")
}

// The fault matrix of a cold call, for warm calls, on every tree mechanism:
// timeout, cancel, a SIGTERM-proof call, a setsid grandchild, a flood, the
// memory ceiling. Every pid the call reported is gone when Run returns.
func TestWarmFaultMatrix(t *testing.T) {
	for name, dis := range modes(t) {
		t.Run(name, func(t *testing.T) {
			s := newSetup(t, annotations.Warm{}, baseEnv("0.2"), dis...)
			st0 := s.settled(t)
			require.Equal(t, warm.On, st0.State, st0.Reason)
			tpl := s.pool.Status().TemplatePID

			t.Run("timeout", func(t *testing.T) {
				spec := s.spec("sleep", "600")
				res := s.run(t, ceilingAtPid(t, &spec), spec)
				assert.Equal(t, callruntime.TimedOut, res.End)
				treeDead(t, res)
				pids := pidLines(t, res.Stdout.Head)
				require.Len(t, pids, 1)
				gone(t, pids[0])
			})
			t.Run("cancel", func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				spec := s.spec("sleep", "60")
				lines := make(chan struct{}, 1)
				spec.OnLine = func(callruntime.Line) {
					select {
					case lines <- struct{}{}:
					default:
					}
				}
				go func() { <-lines; cancel() }()
				res := s.run(t, ctx, spec)
				assert.Equal(t, callruntime.Cancelled, res.End)
				treeDead(t, res)
				pids := pidLines(t, res.Stdout.Head)
				require.NotEmpty(t, pids)
				for _, pid := range pids {
					gone(t, pid)
				}
			})
			t.Run("term-proof", func(t *testing.T) {
				// It reports its pid once SIGTERM is ignored: the ceiling
				// comes to a call that will not stop for it.
				spec := s.spec("termproof", "600")
				res := s.run(t, ceilingAtPid(t, &spec), spec)
				assert.Equal(t, callruntime.TimedOut, res.End)
				assert.Equal(t, "SIGKILL", res.Signal, "killed after the grace")
				treeDead(t, res)
				pids := pidLines(t, res.Stdout.Head)
				require.Len(t, pids, 1)
				gone(t, pids[0])
			})
			t.Run("setsid grandchild after exit", func(t *testing.T) {
				res := s.run(t, context.Background(), s.spec("daemon"))
				assert.Equal(t, callruntime.Exited, res.End)
				assert.Equal(t, 0, res.ExitCode)
				treeDead(t, res)
				pids := pidLines(t, res.Stdout.Head)
				require.Len(t, pids, 2)
				for _, pid := range pids {
					gone(t, pid)
				}
			})
			t.Run("setsid grandchild at timeout", func(t *testing.T) {
				spec := s.spec("daemon", "--stay", "600")
				res := s.run(t, ceilingAtPid(t, &spec), spec)
				assert.Equal(t, callruntime.TimedOut, res.End)
				pids := pidLines(t, res.Stdout.Head)
				require.Len(t, pids, 2)
				for _, pid := range pids {
					gone(t, pid)
				}
			})
			t.Run("flood", func(t *testing.T) {
				spec := s.spec("flood", "64")
				spec.MaxStdout = 64 << 10
				res := s.run(t, context.Background(), spec)
				assert.Equal(t, callruntime.Exited, res.End)
				assert.Equal(t, int64(64<<20), res.Stdout.Total)
				assert.LessOrEqual(t, len(res.Stdout.Head)+len(res.Stdout.Tail), 64<<10)
			})
			t.Run("memory ceiling", func(t *testing.T) {
				spec := s.spec("alloc", "400")
				spec.MemoryLimit = 200 << 20
				spec.Timeout = proctest.HangAfter // not the ceiling under test
				res := s.run(t, context.Background(), spec)
				assert.Equal(t, callruntime.ResourceExceeded, res.End)
				for _, pid := range pidLines(t, res.Stdout.Head) {
					gone(t, pid)
				}
			})
			// Through all of it, the template itself lived on.
			assert.Equal(t, tpl, s.pool.Status().TemplatePID)
		})
	}
}

// Calls in flight at once each get their own child and tree.
func TestWarmConcurrentCalls(t *testing.T) {
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2"))
	st0 := s.settled(t)
	require.Equal(t, warm.On, st0.State, st0.Reason)
	const n = 8
	pids := make(chan int, n)
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			res, err := s.pool.Run(context.Background(), s.spec("whoami"))
			if err != nil {
				errs <- err
				return
			}
			w := parseWhoami(t, res)
			if !w.Warm || res.TreeDead != treesConfirmed {
				errs <- assert.AnError
				return
			}
			pids <- w.Pid
		}()
	}
	seen := map[int]bool{}
	for i := 0; i < n; i++ {
		select {
		case err := <-errs:
			t.Fatal(err)
		case pid := <-pids:
			seen[pid] = true
		}
	}
	assert.Len(t, seen, n)
}

// verify: a call whose stdout differs between cold and warm turns warm off,
// with the reason; calls then start cold and succeed.
func TestWarmVerifyMismatchTurnsWarmOff(t *testing.T) {
	s := newSetup(t, annotations.Warm{Verify: [][]string{{"hello"}, {"startmode"}}}, baseEnv("0.2"))
	st := s.settled(t)
	require.Equal(t, warm.Off, st.State)
	assert.Contains(t, st.Reason, "verify startmode: stdout differs between cold and warm")
	res := s.run(t, context.Background(), s.spec("startmode"))
	assert.Equal(t, "cold\n", string(res.Stdout.Head))
}

// verify calls that agree keep warm on.
func TestWarmVerifyMatch(t *testing.T) {
	s := newSetup(t, annotations.Warm{Verify: [][]string{{"hello", "--name", "x"}, {"exit", "4"}}}, baseEnv("0.2"))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State, st.Reason)
	assert.Equal(t, 2, st.Verified)
}

// More than one thread in the template: at start, warm is off; a thread that
// appears later makes the next fork refuse, and that call starts cold and
// succeeds.
func TestWarmExtraThread(t *testing.T) {
	t.Run("at start", func(t *testing.T) {
		s := newSetup(t, annotations.Warm{}, baseEnv("0.2", "WARMDEMO_THREAD=1"))
		st := s.settled(t)
		require.Equal(t, warm.Off, st.State)
		assert.Contains(t, st.Reason, "thread")
		res := s.run(t, context.Background(), s.spec("startmode"))
		assert.Equal(t, "cold\n", string(res.Stdout.Head))
	})
	t.Run("at fork", func(t *testing.T) {
		mark := filepath.Join(t.TempDir(), "thread")
		s := newSetup(t, annotations.Warm{}, baseEnv("0.2", "WARMDEMO_THREAD_ON_SIGNAL=1", "WARMDEMO_THREAD_MARK="+mark))
		st0 := s.settled(t)
		require.Equal(t, warm.On, st0.State, st0.Reason)
		// The thread appears in the template once it serves (SIGUSR1 starts
		// it; a timer started at import could fire before a loaded machine
		// got the template ready), and it says so in a file of its pid's.
		require.NoError(t, syscall.Kill(st0.TemplatePID, syscall.SIGUSR1))
		mark = fmt.Sprintf("%s.%d", mark, st0.TemplatePID)
		for deadline := time.Now().Add(proctest.HangAfter); ; time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(mark); err == nil {
				break
			}
			require.True(t, time.Now().Before(deadline), "the template's thread never started")
		}
		res := s.run(t, context.Background(), s.spec("startmode"))
		assert.Equal(t, "cold\n", string(res.Stdout.Head), "the call fell back to a cold start")
		assert.Equal(t, 0, res.ExitCode)
		st := s.pool.Status()
		assert.Equal(t, warm.Off, st.State)
		assert.Contains(t, st.Reason, "threads when it forked")
	})
}

// A template that dies is replaced; meanwhile calls start cold.
func TestWarmTemplateCrashRestarts(t *testing.T) {
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2"))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State)
	old := st.TemplatePID
	require.NoError(t, killPid(old))
	gone(t, old)
	res := s.run(t, context.Background(), s.spec("hello"))
	assert.Equal(t, "hello world\n", string(res.Stdout.Head), "a call while the template is down succeeds")
	st = s.waitFor(t, "a new template", func(st warm.Status) bool { return st.TemplatePID != 0 && st.TemplatePID != old })
	assert.Equal(t, warm.On, st.State)
	assert.Equal(t, 2, st.Templates)
	w := parseWhoami(t, s.run(t, context.Background(), s.spec("whoami")))
	assert.True(t, w.Warm)
	assert.Equal(t, st.TemplatePID, w.Ppid)
}

// A CLI upgraded on disk (its files changed) gets a fresh template; the call
// that notices starts cold.
func TestWarmCLIUpgradeRestarts(t *testing.T) {
	restore := warm.SetCheckEvery(0)
	defer restore()
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2"))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State)
	old := st.TemplatePID
	w := parseWhoami(t, s.run(t, context.Background(), s.spec("whoami")))
	require.True(t, w.Warm)
	// "pip install -U": the module is rewritten.
	mod := strings.TrimSuffix(s.script, "warmdemo-cli") + "warmdemo/settings.py"
	later := time.Now().Add(time.Minute)
	require.NoError(t, chtimes(mod, later))
	w = parseWhoami(t, s.run(t, context.Background(), s.spec("whoami")))
	assert.False(t, w.Warm, "the call that noticed the upgrade started cold")
	st = s.waitFor(t, "a fresh template", func(st warm.Status) bool { return st.TemplatePID != 0 && st.TemplatePID != old })
	gone(t, old)
	w = parseWhoami(t, s.run(t, context.Background(), s.spec("whoami")))
	assert.True(t, w.Warm)
	assert.Equal(t, st.TemplatePID, w.Ppid)
}

// The look at the CLI's files a call begins runs while the template forks
// its child, not before the fork is asked for: a look held until the fork
// request was sent still lets the call run warm. (Before, the look — 3–6 ms
// for the real aeat's files, traced — came first, on the call's path.)
func TestWarmCLILookedAtWhileTheTemplateForks(t *testing.T) {
	defer warm.SetCheckEvery(0)()
	asked := make(chan struct{}, 64)
	defer warm.OnForkAsked(func(int) {
		select {
		case asked <- struct{}{}:
		default:
		}
	})()
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2"))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State)
	for len(asked) > 0 {
		<-asked // the verify runs'
	}
	var heldTooLong atomic.Bool
	defer warm.OnLook(func() {
		select {
		case <-asked:
		case <-time.After(proctest.HangAfter): // only a look that comes first waits this long
			heldTooLong.Store(true)
		}
	})()
	w := parseWhoami(t, s.run(t, context.Background(), s.spec("whoami")))
	assert.True(t, w.Warm)
	assert.False(t, heldTooLong.Load(), "the fork was asked for only after the look")
}

// After max_calls calls a replacement starts; the old template serves until
// it is ready, then goes.
func TestWarmMaxCallsReplaces(t *testing.T) {
	s := newSetup(t, annotations.Warm{MaxCalls: 2}, baseEnv("0.2"))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State)
	old := st.TemplatePID
	for i := 0; i < 3; i++ {
		w := parseWhoami(t, s.run(t, context.Background(), s.spec("whoami")))
		assert.True(t, w.Warm, "call "+strconv.Itoa(i))
	}
	st = s.waitFor(t, "the replacement", func(st warm.Status) bool { return st.TemplatePID != 0 && st.TemplatePID != old })
	gone(t, old)
	assert.Equal(t, 2, st.Templates)
}

// Close ends the template and whatever it forked.
func TestWarmCloseEndsTheTemplate(t *testing.T) {
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2"))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State)
	s.pool.Close()
	gone(t, st.TemplatePID)
	res := s.run(t, context.Background(), s.spec("startmode"))
	assert.Equal(t, "cold\n", string(res.Stdout.Head), "after Close calls start cold")
}

// A CLI that fails to import leaves warm start off, saying why.
func TestWarmImportFailure(t *testing.T) {
	s := newSetup(t, annotations.Warm{Entry: "warmdemo.nosuch:main"}, baseEnv("0"))
	st := s.settled(t)
	// Each failed start counts; the third gives up.
	st = s.waitFor(t, "off", func(st warm.Status) bool { return st.State == warm.Off })
	assert.Contains(t, st.Reason, "ModuleNotFoundError")
}

// The interpreter comes from the script's #! line.
func TestInterpreter(t *testing.T) {
	script := demoCLI(t)
	py, err := warm.Interpreter(script, "")
	require.NoError(t, err)
	assert.Equal(t, python(t), py)
	_, err = warm.Interpreter("/bin/true", "")
	assert.ErrorContains(t, err, "not a script")
	env := writeScript(t, "#!/usr/bin/env -S python3 -u\n")
	py, err = warm.Interpreter(env, "/nonexistent:"+dirOf(python(t)))
	require.NoError(t, err)
	assert.Equal(t, dirOf(python(t))+"/python3", py)
	sh := writeScript(t, "#!/bin/sh\n")
	_, err = warm.Interpreter(sh, "")
	assert.ErrorContains(t, err, "not Python")
}

// A warm call ends exactly as a cold one: the child skips the interpreter's
// teardown of the template's modules (most of an exit's cost), so everything
// that teardown does for the program is done by hand — atexit functions,
// non-daemon threads joined, buffers flushed, the call's own objects
// finalized (an unclosed file written out, a NamedTemporaryFile removed),
// the exit status of sys.exit("message"), an uncaught exception, an
// unhandled KeyboardInterrupt (death by SIGINT).
func TestWarmEndsAsColdDoes(t *testing.T) {
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2"))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State, st.Reason)
	type ending struct {
		outcome  callruntime.End
		code     int
		signal   string
		stdout   string
		stderr   string // its last line
		artifact string // what the call left in its directory
		full     string // all of stderr
	}
	run := func(t *testing.T, isWarm bool, env []string, args ...string) ending {
		dir := t.TempDir()
		for i, a := range args {
			args[i] = strings.ReplaceAll(a, "$DIR", dir)
		}
		spec := s.spec(args...)
		spec.Env = append(append([]string{}, s.env...), env...)
		var res callruntime.Result
		var err error
		if isWarm {
			res, err = s.pool.Run(context.Background(), spec)
		} else {
			res, err = s.runner.Run(context.Background(), spec)
		}
		require.NoError(t, err)
		lines := strings.Split(strings.TrimRight(string(res.Stderr.Head), "\n"), "\n")
		e := ending{outcome: res.End, code: res.ExitCode, signal: res.Signal, stdout: string(res.Stdout.Head),
			stderr: lines[len(lines)-1], full: string(res.Stderr.Head)}
		ents, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, ent := range ents {
			b, _ := os.ReadFile(filepath.Join(dir, ent.Name()))
			e.artifact += fmt.Sprintf("%s:%d;", ent.Name(), len(b))
		}
		return e
	}
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want ending
	}{
		{"atexit", nil, []string{"ending", "atexit"}, ending{outcome: callruntime.Exited, stdout: "atexit ran\n"}},
		{"non-daemon thread", nil, []string{"ending", "thread"}, ending{outcome: callruntime.Exited, stdout: "the thread finished\n"}},
		{"unclosed file", nil, []string{"ending", "unclosed", "$DIR/out"}, ending{outcome: callruntime.Exited, artifact: "out:100004;"}},
		{"temporary file", nil, []string{"ending", "tempfile", "$DIR"}, ending{outcome: callruntime.Exited}},
		{"sys.exit(message)", nil, []string{"ending", "message"}, ending{outcome: callruntime.Exited, code: 1, stderr: "goodbye from sys.exit"}},
		{"uncaught exception", nil, []string{"ending", "raise"}, ending{outcome: callruntime.Exited, code: 1, stderr: "RuntimeError: boom"}},
		{"unflushed output", nil, []string{"ending", "unflushed"},
			ending{outcome: callruntime.Exited, stdout: "no newline, never flushed", stderr: "stderr, never flushed"}},
		{"sys.exit(None)", nil, []string{"ending", "returns"}, ending{outcome: callruntime.Exited}},
		{"KeyboardInterrupt", []string{"WARMDEMO_INTERRUPT=1"}, []string{"hello"},
			ending{outcome: callruntime.Signaled, code: -1, signal: "SIGINT", stderr: "KeyboardInterrupt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cold := run(t, false, tc.env, slices.Clone(tc.args)...)
			warmEnd := run(t, true, tc.env, slices.Clone(tc.args)...)
			if tc.name == "temporary file" {
				// The name printed is the file's; it is gone either way.
				tc.want.stdout, warmEnd.stdout, cold.stdout = "", "", ""
			}
			// A traceback too: it starts at the console script's line,
			// never in the template.
			assert.NotContains(t, warmEnd.full, `File "<string>"`)
			want := cold
			want.full = ""
			assert.Equal(t, tc.want, want, "cold (the reference)")
			assert.Equal(t, cold, warmEnd, "warm ends as cold does")
		})
	}
}

// A warm call's environment is what a cold call's would be when its program
// starts: the call's own, with what importing the CLI did to it (awscli sets
// AWS_DATA_PATH at import) — unless the call set that variable itself, as a
// setdefault at import would keep it — and what the console script's own
// lines do.
func TestWarmEnvironmentAsCold(t *testing.T) {
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2"))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State, st.Reason)
	for _, tc := range []struct {
		name, verb, variable string
		env                  []string
		want                 string
	}{
		{"set at import", "env", "WARMDEMO_DATA_PATH", nil, "warmdemo-data"},
		{"defaulted at import", "env", "WARMDEMO_DEFAULTED", nil, "by the import"},
		{"defaulted at import, the call's own", "env", "WARMDEMO_DEFAULTED", []string{"WARMDEMO_DEFAULTED=from the call"}, "from the call"},
		{"set by the script", "env", "WARMDEMO_SCRIPT_FIX", []string{"WARMDEMO_SCRIPT_FIX=1"}, "fixed by the script"},
		{"the call's own", "env", "WARMDEMO_GREETING", []string{"WARMDEMO_GREETING=hi"}, "hi"},
		// The template's interpreter alone gets an allocator setting
		// (templateEnv): neither a call nor the CLI's import sees it.
		{"not the template's allocator setting", "env", "GLIBC_TUNABLES", nil, ""},
		{"not the template's allocator setting, at import", "importenv", "GLIBC_TUNABLES", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := s.spec(tc.verb, tc.variable)
			spec.Env = append(append([]string{}, s.env...), tc.env...)
			cold, err := s.runner.Run(context.Background(), spec)
			require.NoError(t, err)
			hot, err := s.pool.Run(context.Background(), spec)
			require.NoError(t, err)
			assert.Equal(t, tc.want+"\n", string(cold.Stdout.Head), "cold (the reference): %s", cold.Stderr.Head)
			assert.Equal(t, string(cold.Stdout.Head), string(hot.Stdout.Head), "warm as cold")
		})
	}
}

// Each template start leaves its verdict where Config.VerdictDir says — on,
// or off and why — for a command that must not start one (tools); a verdict
// about files the CLI no longer has is not current.
func TestWarmVerdictKept(t *testing.T) {
	for _, tc := range []struct {
		name     string
		verify   [][]string
		state    warm.State
		reason   string
		verified int
	}{
		{"on", [][]string{{"hello"}}, warm.On, "", 1},
		{"off", [][]string{{"startmode"}}, warm.Off, "verify startmode: stdout differs between cold and warm", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			w := annotations.Warm{Entry: "warmdemo:main", Preload: annotations.PreloadClick, Verify: tc.verify}
			s := newSetupWith(t, w, baseEnv("0.2"), func(c *warm.Config) { c.VerdictDir = dir })
			st := s.settled(t)
			require.Equal(t, tc.state, st.State, st.Reason)
			py, err := warm.Interpreter(s.script, "")
			require.NoError(t, err)
			key := warm.VerdictKey(py, s.script, nil, w)
			v, current, err := warm.LoadVerdict(dir, key)
			require.NoError(t, err)
			assert.True(t, current)
			assert.Equal(t, tc.state, v.State)
			assert.Contains(t, v.Reason, tc.reason)
			assert.Equal(t, tc.verified, v.Verified)
			assert.WithinDuration(t, time.Now(), v.At, time.Minute)
			// An upgrade (a file of the CLI rewritten) makes it stale.
			require.NoError(t, chtimes(s.script, time.Now().Add(time.Hour)))
			_, current, err = warm.LoadVerdict(dir, key)
			require.NoError(t, err)
			assert.False(t, current)
			_, _, err = warm.LoadVerdict(dir, warm.VerdictKey(py, s.script, []string{"--other"}, w))
			assert.ErrorIs(t, err, fs.ErrNotExist, "another configuration has no verdict yet")
		})
	}
}

// A CLI warm start does not apply to (not Python) is said at info level —
// nothing is wrong, its calls start cold as they always did; a Pool that
// cannot work for another reason warns.
func TestWarmInapplicableIsNoWarning(t *testing.T) {
	for _, tc := range []struct {
		name  string
		make  func(warm.Config, string) *warm.Pool
		level string
	}{{"inapplicable", warm.Inapplicable, "level=INFO"}, {"disabled", warm.Disabled, "level=WARN"}} {
		t.Run(tc.name, func(t *testing.T) {
			var log strings.Builder
			_, err := warm.Interpreter("/bin/true", "")
			require.ErrorIs(t, err, warm.ErrNotPython)
			p := tc.make(warm.Config{Logger: slog.New(slog.NewTextHandler(&log, nil))}, err.Error())
			st := p.Status()
			assert.Equal(t, warm.Off, st.State)
			assert.Contains(t, st.Reason, "not a script")
			assert.Contains(t, log.String(), tc.level)
		})
	}
}
