package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/mcptest"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTools(t *testing.T) {
	s := newServer(t, nil)
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			cs := connect(t, s, era, nil)
			res, err := cs.ListTools(context.Background(), nil)
			require.NoError(t, err)
			require.Len(t, res.Tools, len(s.cfg.Manifest.Tools)+3, "the manifest's tools and the built-ins")
			for _, tl := range res.Tools {
				require.NotNil(t, tl.Annotations, tl.Name)
				assert.NotEmpty(t, tl.Title, tl.Name)
				assert.Equal(t, tl.Title, tl.Annotations.Title)
				raw, err := json.Marshal(tl.Annotations)
				require.NoError(t, err)
				for _, h := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
					assert.Contains(t, string(raw), `"`+h+`"`, "%s: %s must be explicit on the wire", tl.Name, h)
				}
			}
		})
	}
	t.Run("read-only advertises only read-only tools", func(t *testing.T) {
		ro := newServer(t, func(c *Config) { c.ReadOnly = true })
		cs := connect(t, ro, "", nil)
		res, err := cs.ListTools(context.Background(), nil)
		require.NoError(t, err)
		var builtins []string
		for _, tl := range res.Tools {
			if strings.HasPrefix(tl.Name, "aeat_mcp_") {
				builtins = append(builtins, tl.Name)
				continue
			}
			assert.True(t, tl.Annotations.ReadOnlyHint, tl.Name)
		}
		assert.ElementsMatch(t, []string{ToolWait, ToolCancel, ToolRuns}, builtins, "the built-ins, cancel included, stay")
		ran := false
		ro.beforeRun = func(string) { ran = true }
		call, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "destroy"})
		require.NoError(t, err, "a hidden tool is refused with a result, not a protocol error")
		o := outcome(t, call)
		assert.True(t, call.IsError)
		assert.Equal(t, CodeRefused, o.Code)
		assert.Equal(t, ReasonReadOnly, o.Reason)
		assert.Nil(t, o.TreeDead, "nothing started")
		assert.False(t, ran)
		_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "no_such_tool"})
		assert.Error(t, err, "a tool the manifest does not have is still unknown")
	})
}

func TestCall_Results(t *testing.T) {
	s := newServer(t, nil)
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			cs := connect(t, s, era, nil)
			t.Run("ok", func(t *testing.T) {
				res := callTool(t, cs, "read_echo", map[string]any{"text": "hola"})
				o := outcome(t, res)
				assert.False(t, res.IsError)
				assert.Equal(t, "hola\n", text(res))
				assert.Equal(t, CodeOK, o.Code)
				assert.Equal(t, "read_echo", o.Tool)
				assert.Equal(t, "read", o.Tier)
				assert.Equal(t, proctest.HangAfter.Seconds(), o.TimeoutSeconds, "the read tier's ceiling (newServer's)")
				require.NotNil(t, o.TreeDead, "a process ran")
				assert.Equal(t, treeDeadConfirmed, *o.TreeDead)
				assert.Nil(t, res.StructuredContent)
			})
			t.Run("json output is also structured", func(t *testing.T) {
				res := callTool(t, cs, "read_json", nil)
				assert.False(t, res.IsError)
				assert.Equal(t, map[string]any{"modelo": "303", "periodo": "1T", "resultado": 123.45}, res.StructuredContent)
			})
			t.Run("argv is rendered, never a shell", func(t *testing.T) {
				res := callTool(t, cs, "read_argv", map[string]any{"year": 2025, "tags": []string{"a b", "$(id)"}, "nif": "-rf"})
				require.False(t, res.IsError, text(res))
				line := strings.SplitN(text(res), "\n", 2)[0]
				var argv []string
				require.NoError(t, json.Unmarshal([]byte(line), &argv))
				assert.Equal(t, []string{"argv", "+", "ok", "--year=2025", "--tag=a b", "--tag=$(id)", "--", "-rf"}, argv)
			})
			t.Run("non-zero exit", func(t *testing.T) {
				res := callTool(t, cs, "read_fail", map[string]any{"code": "3"})
				o := outcome(t, res)
				assert.True(t, res.IsError)
				assert.Nil(t, res.StructuredContent)
				assert.Equal(t, CodeExit, o.Code)
				require.NotNil(t, o.ExitCode)
				assert.Equal(t, 3, *o.ExitCode)
				assert.Equal(t, "read_fail failed: the CLI exited with code 3.\n\nError output (last part):\nboom\n\n\nOutput:\npartial\n", text(res))
			})
			t.Run("invalid arguments: nothing runs", func(t *testing.T) {
				ran := false
				s.beforeRun = func(string) { ran = true }
				defer func() { s.beforeRun = nil }()
				for _, tc := range []struct {
					args  any
					field string
				}{
					{map[string]any{"year": 1999}, "year"},
					{map[string]any{"period": "5T"}, "period"},
					{map[string]any{"yaer": 2025}, "yaer"},
					{map[string]any{"tags": "a"}, "tags"},
				} {
					res := callTool(t, cs, "read_argv", tc.args)
					o := outcome(t, res)
					assert.True(t, res.IsError)
					assert.Equal(t, CodeInvalidArguments, o.Code)
					require.NotNil(t, o.Field)
					assert.Equal(t, tc.field, *o.Field)
					assert.Contains(t, text(res), `argument "`+tc.field+`"`)
				}
				res := callTool(t, cs, "read_echo", map[string]any{})
				assert.Equal(t, "text", *outcome(t, res).Field)
				assert.False(t, ran, "the CLI must not start for invalid arguments")
			})
			t.Run("output is capped", func(t *testing.T) {
				res := callTool(t, cs, "read_flood", nil)
				assert.False(t, res.IsError)
				assert.LessOrEqual(t, len(text(res)), DefaultMaxResultBytes)
				assert.Contains(t, text(res), "bytes left out")
			})
			t.Run("private keys are redacted", func(t *testing.T) {
				res := callTool(t, cs, "read_pem", nil)
				assert.Equal(t, "before\n[redacted private key]\nafter\n", text(res))
			})
		})
	}
}

func TestCall_Environment(t *testing.T) {
	t.Setenv("AEAT_TEST_PASSED", "yes")
	t.Setenv("AEAT_TEST_SECRET", "no")
	t.Setenv("AEAT_TEST_FLAG_PASSED", "flag")
	t.Setenv("LC_TIME", "es_ES.UTF-8")
	t.Setenv("LC_TERMINAL_SECRET", "forwarded by ssh")
	s := newServer(t, func(c *Config) { c.PassEnv = []string{"AEAT_TEST_FLAG_PASSED"} })
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "read_env", nil)
	var env map[string]string
	require.NoError(t, json.Unmarshal([]byte(text(res)), &env))
	assert.Equal(t, "yes", env["AEAT_TEST_PASSED"], "cli.env.pass")
	assert.Equal(t, "flag", env["AEAT_TEST_FLAG_PASSED"], "--pass-env")
	assert.Equal(t, "1", env["AEAT_NONINTERACTIVE"], "cli.env.set")
	assert.Equal(t, "es_ES.UTF-8", env["LC_TIME"], "locale variables are basics")
	assert.NotEmpty(t, env["PATH"])
	assert.NotContains(t, env, "AEAT_TEST_SECRET", "the server's environment must not leak")
	assert.NotContains(t, env, "LC_TERMINAL_SECRET", "only the standard locale categories")
}

func TestCall_CLIUnavailable(t *testing.T) {
	m := loadManifest(t)
	_, cliErr := m.ResolveCommand("/nonexistent/aeat", "")
	require.Error(t, cliErr)
	s := newServer(t, func(c *Config) { c.CLIPath, c.CLIError = "", cliErr })
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "read_echo", map[string]any{"text": "x"})
	assert.True(t, res.IsError)
	assert.Equal(t, CodeCLIUnavailable, outcome(t, res).Code)
	assert.Contains(t, text(res), "/nonexistent/aeat")
	assert.Contains(t, text(res), "--cli")
}

func TestCall_Timeout(t *testing.T) {
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			for _, lang := range []string{"en", "es"} {
				t.Run(lang, func(t *testing.T) {
					s := newServer(t, func(c *Config) {
						c.Ceilings.Live = 700 * time.Millisecond
						c.Printer = i18n.Parse(lang)
					})
					cs := connect(t, s, era, nil)
					res := callTool(t, cs, "live_pull", nil)
					o := outcome(t, res)
					assert.True(t, res.IsError)
					assert.Nil(t, res.StructuredContent)
					assert.Equal(t, CodeTimeout, o.Code)
					assert.True(t, o.TimedOut)
					assert.True(t, o.Retryable)
					assert.Equal(t, 0.7, o.TimeoutSeconds)
					require.NotNil(t, o.TreeDead, "a process ran")
					assert.Equal(t, treeDeadConfirmed, *o.TreeDead)
					msg := text(res)
					if lang == "en" {
						assert.Contains(t, msg, "live_pull did not finish within the 0.7 s ceiling of its tier (live)")
						assert.Contains(t, msg, "--timeout-live")
					} else {
						assert.Contains(t, msg, "La herramienta live_pull no terminó dentro del límite de 0.7 s de su nivel (en línea)")
						assert.Contains(t, msg, "--timeout-live")
					}
				})
			}
		})
	}
	t.Run("a tool's own timeout points at --timeout-tool", func(t *testing.T) {
		s := newServer(t, nil)
		cs := connect(t, s, "", nil)
		res := callTool(t, cs, "read_hang_own", nil)
		o := outcome(t, res)
		assert.Equal(t, CodeTimeout, o.Code)
		assert.Equal(t, 0.3, o.TimeoutSeconds)
		assert.Contains(t, text(res), `within its own ceiling of 0.3 s`)
		assert.Contains(t, text(res), `--timeout-tool read_hang_own=DURATION`)
		assert.Contains(t, text(res), `--timeout-read does not apply to it`)
	})
	t.Run("a writing tier warns of a partial change", func(t *testing.T) {
		s := newServer(t, func(c *Config) { c.Ceilings.Live = 500 * time.Millisecond })
		cs := connect(t, s, "", nil)
		res := callTool(t, cs, "live_submit", nil)
		assert.Contains(t, text(res), "the change may have been partly applied")
	})
}

// TestCall_Cancel: a client's notifications/cancelled kills the call's tree.
func TestCall_Cancel(t *testing.T) {
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			s := newServer(t, nil)
			cancelLivePull(t, connect(t, s, era, nil))
		})
	}
}

// cancelLivePull: mcptest.CancelLivePull with this package's fakecli.
func cancelLivePull(t *testing.T, cs *mcp.ClientSession) { mcptest.CancelLivePull(t, cs, fakecli) }

func TestCall_Progress(t *testing.T) {
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			type note struct {
				progress, total float64
				msg             string
			}
			var mu sync.Mutex
			var notes []note
			s := newServer(t, func(c *Config) {
				c.Ceilings.Live = 2500 * time.Millisecond
				c.Heartbeat = 700 * time.Millisecond
			})
			// The client's transport logs what it reads in wire order: the
			// SDK client runs notification handlers on a queue of their own,
			// so a handler may run after the call returned even for a
			// notification sent before the result. Order is checked here.
			var wire syncBuffer
			ct, st := mcp.NewInMemoryTransports()
			ss, err := s.Connect(context.Background(), st)
			require.NoError(t, err)
			t.Cleanup(func() { ss.Close() })
			client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
					mu.Lock()
					notes = append(notes, note{req.Params.Progress, req.Params.Total, req.Params.Message})
					mu.Unlock()
				},
			})
			cs, err := client.Connect(context.Background(), &mcp.LoggingTransport{Transport: ct, Writer: &wire}, &mcp.ClientSessionOptions{ProtocolVersion: era})
			require.NoError(t, err)
			t.Cleanup(func() { cs.Close() })
			params := &mcp.CallToolParams{Name: "live_pull", Arguments: map[string]any{}}
			params.SetProgressToken(42)
			start := time.Now()
			res, err := cs.CallTool(context.Background(), params)
			require.NoError(t, err)
			took := time.Since(start)
			assert.Equal(t, CodeTimeout, outcome(t, res).Code)
			resultSeen, sent := false, 0
			for _, line := range strings.Split(wire.String(), "\n") {
				if !strings.HasPrefix(line, "read: ") {
					continue
				}
				switch {
				case strings.Contains(line, `"result":`) && strings.Contains(line, `"content":`):
					resultSeen = true // the tool call's result
				case strings.Contains(line, "notifications/progress"):
					sent++
					assert.False(t, resultSeen, "progress after the result: %s", line)
				}
			}
			assert.True(t, resultSeen)
			handled(func() bool { mu.Lock(); defer mu.Unlock(); return len(notes) >= sent })
			mu.Lock()
			defer mu.Unlock()
			require.Len(t, notes, sent, "every progress notification reached the handler")
			require.GreaterOrEqual(t, len(notes), 3, "progress from lines and heartbeats")
			// 100 ms lines: at most twice a second, plus heartbeats — for
			// as long as the call took (its 2.5 s ceiling, or more on a
			// loaded machine), not one per line.
			assert.LessOrEqual(t, len(notes), int(took.Seconds()*2)+int(took/(700*time.Millisecond))+2)
			for i, n := range notes {
				assert.Equal(t, 2.5, n.total)
				assert.True(t, strings.HasPrefix(n.msg, "live_pull: "), n.msg)
				if i > 0 {
					assert.Greater(t, n.progress, notes[i-1].progress, "progress must increase")
				}
			}
			// Output lines are shown, each once: a heartbeat right after a
			// line (no new line since) says only the time.
			shown := map[string]int{}
			for _, n := range notes {
				if _, line, ok := strings.Cut(n.msg, " — "); ok {
					shown[line]++
				}
			}
			assert.NotEmpty(t, shown, "output lines are shown")
			for line, times := range shown {
				assert.Equal(t, 1, times, "%q was said %d times", line, times)
			}
		})
	}
}

func TestCall_TierSlots(t *testing.T) {
	s := newServer(t, func(c *Config) {
		c.Slots = map[annotations.Tier]int{annotations.Live: 2, annotations.Mutate: 1, annotations.Read: 8}
		c.Ceilings.Live = 10 * proctest.HangAfter // the live calls run until cancelled
		c.NoDedupe = true                         // two identical live calls, two trees
	})
	cs := connect(t, s, "", nil)
	t.Run("slow live calls do not delay a quick read", func(t *testing.T) {
		liveCallsDoNotDelayRead(t, cs)
	})
	t.Run("waiting for a slot counts toward the ceiling", func(t *testing.T) {
		s := newServer(t, func(c *Config) {
			c.Slots = map[annotations.Tier]int{annotations.Read: 1}
			c.Ceilings.Read = 800 * time.Millisecond
			// The first call ignores SIGTERM: it holds the only slot for
			// its ceiling and this grace, far past the second's ceiling
			// however late the second one starts.
			c.KillGrace = proctest.HangAfter
		})
		cs := connect(t, s, "", nil)
		go func() {
			_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_stubborn", Arguments: map[string]any{"duration": "5m"}})
		}()
		waitForFakecli(t, 1) // it holds the slot
		res := callTool(t, cs, "read_echo", map[string]any{"text": "late"})
		o := outcome(t, res)
		assert.Equal(t, CodeTimeout, o.Code, text(res))
		assert.Nil(t, o.TreeDead, "timed out while waiting for the slot: nothing ran")
		assert.GreaterOrEqual(t, o.DurationMS, int64(800), "its whole ceiling")
	})
}

// liveCallsDoNotDelayRead starts two live calls that run until cancelled
// and requires a read to be answered while both still run: a read queued
// behind them would wait for as long as they run.
func liveCallsDoNotDelayRead(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var ended atomic.Int32
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "live_pull", Arguments: map[string]any{}})
			ended.Add(1)
		}()
	}
	waitForFakecli(t, 6) // both live calls hold their slots
	readCtx, readCancel := context.WithTimeout(context.Background(), proctest.HangAfter)
	defer readCancel()
	res, err := cs.CallTool(readCtx, &mcp.CallToolParams{Name: "read_echo", Arguments: map[string]any{"text": "quick"}})
	require.NoError(t, err, "the read waited behind the live calls")
	assert.Equal(t, CodeOK, outcome(t, res).Code)
	assert.Zero(t, ended.Load(), "answered while the live calls ran")
	cancel()
	wg.Wait()
	requireNoFakecli(t, proctest.HangAfter)
}

func TestCall_ScratchDir(t *testing.T) {
	s := newServer(t, func(c *Config) { c.Manifest.CLI.Cwd = annotations.ScratchDir })
	cs := connect(t, s, "", nil)
	first := strings.TrimSpace(text(callTool(t, cs, "read_cwd", nil)))
	second := strings.TrimSpace(text(callTool(t, cs, "read_cwd", nil)))
	pid, key := self()
	assert.Contains(t, first, scratchName(runtime.GOOS, pid, key, ""))
	assert.NotEqual(t, first, second, "a fresh directory per call")
	_, err := os.Stat(first)
	assert.True(t, os.IsNotExist(err), "the scratch directory is removed after the call")

	// The CLI's temporary directory is its scratch directory, so what it
	// (or its browser) writes there goes too.
	res := callTool(t, cs, "read_env", nil)
	var env map[string]string
	require.NoError(t, json.Unmarshal([]byte(text(res)), &env), text(res))
	assert.Contains(t, env["TMPDIR"], scratchName(runtime.GOOS, pid, key, ""))
}

// TestScratch_SweptAtStart: a server killed before it could clean up leaves
// its scratch directories; the next server removes, once past initialize,
// those of servers that are gone, and only those — a server whose pid was reused by another
// process is gone too (the name keeps the server's start time).
func TestScratch_SweptAtStart(t *testing.T) {
	gone := exec.Command("true")
	require.NoError(t, gone.Run())
	tmp := os.TempDir()
	mk := func(pid int, key uint64) string {
		dir := filepath.Join(tmp, scratchName(runtime.GOOS, pid, key, scratchRandom()))
		require.NoError(t, os.Mkdir(dir, 0o700))
		t.Cleanup(func() { os.RemoveAll(dir) })
		return dir
	}
	deadDir := mk(gone.Process.Pid, 12345)
	require.NoError(t, os.MkdirAll(filepath.Join(deadDir, "browser", "cache"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(deadDir, "browser", "cache", "f"), []byte("x"), 0o400))
	require.NoError(t, os.Chmod(filepath.Join(deadDir, "browser"), 0o500))
	parent := os.Getppid()
	parentStart, ok := callruntime.ProcessStart(parent)
	require.True(t, ok)
	liveDir := mk(parent, scratchKey(runtime.GOOS, parentStart))
	reusedDir := mk(parent, scratchKey(runtime.GOOS, parentStart)+1) // same pid, another process
	// Named as a dead server's, but not made as ours: open to others.
	notOurs := mk(gone.Process.Pid, 12346)
	require.NoError(t, os.Chmod(notOurs, 0o755))
	// Not named as ours at all (MkdirTemp's names of long ago).
	oldStyle, err := os.MkdirTemp(tmp, "aeat-mcp-call."+strconv.Itoa(gone.Process.Pid)+".")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(oldStyle) })

	s := newServer(t, func(c *Config) { c.Manifest.CLI.Cwd = annotations.ScratchDir })
	// The sweep is start-up work no host waits for: once past initialize
	// (prepare), before the first call starts.
	assert.DirExists(t, deadDir, "nothing swept on the way to initialize")
	s.prepare()
	<-s.prepared
	assert.NoDirExists(t, deadDir, "the directory of a dead server is removed")
	assert.NoDirExists(t, reusedDir, "the directory of a server whose pid another process now has is removed")
	assert.DirExists(t, liveDir, "a live server's directory is left alone")
	assert.DirExists(t, notOurs, "a directory not made as ours (mode 0755) is left alone")
	assert.DirExists(t, oldStyle, "a name not of the exact form is left alone")
}

// TestCall_ProgressIsClean: progress messages are shown in terminals: they
// carry no private key, no control sequence, no direction override, and no
// line without a word; the result text is as clean.
func TestCall_ProgressIsClean(t *testing.T) {
	s := newServer(t, func(c *Config) { c.Heartbeat = 50 * time.Millisecond })
	opts, messages := progressMessages()
	cs := connect(t, s, "", opts)
	params := &mcp.CallToolParams{Name: "read_noisy", Arguments: map[string]any{}}
	params.SetProgressToken(2)
	res, err := cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	assert.Equal(t, "step one done\n[redacted private key]\n}\n", text(res))
	shows := func(msgs []string, suffix string) bool {
		return slices.ContainsFunc(msgs, func(m string) bool { return strings.HasSuffix(m, suffix) })
	}
	handled(func() bool {
		msgs := messages()
		return shows(msgs, "— step one done") && shows(msgs, "— [redacted private key]")
	})
	msgs := messages()
	require.NotEmpty(t, msgs, "progress was sent")
	sawLine, sawKey := false, false
	for _, m := range msgs {
		assert.NotContains(t, m, "secret")
		assert.NotContains(t, m, "lQOYBF")
		assert.NotContains(t, m, "\x1b")
		assert.NotContains(t, m, "\u202e")
		assert.NotContains(t, m, "pwned")
		assert.False(t, strings.HasSuffix(m, "— }"), "a line without words: %q", m)
		sawLine = sawLine || strings.HasSuffix(m, "— step one done")
		sawKey = sawKey || strings.HasSuffix(m, "— [redacted private key]")
	}
	assert.True(t, sawLine, "the output line is shown, cleaned: %q", msgs)
	assert.True(t, sawKey, "the redacted key is what shows: %q", msgs)
}

// TestCall_Outputs: structured output survives whenever stdout was whole;
// a truncation marker counts exactly what is not shown.
func TestCall_Outputs(t *testing.T) {
	s := newServer(t, nil)
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "read_bigjson", nil)
	require.False(t, res.IsError)
	require.NotNil(t, res.StructuredContent, "40 KB of JSON in a 64 KiB capture is whole")
	assert.Greater(t, len(text(res)), 32<<10)
	assert.Len(t, res.StructuredContent, 1667, "every key fakecli's bigjson 40000 printed: one a 24-byte item, ⌈40000/24⌉")

	res = callTool(t, cs, "read_flood", nil) // 1,000,000 bytes of 80-byte lines
	assert.LessOrEqual(t, len(text(res)), DefaultMaxResultBytes)
	got, note, linked := strings.Cut(text(res), "\n\n[The whole stdout") // where the whole is (resources.go)
	require.True(t, linked, "the text says where the whole output is: %s", note)
	m := regexp.MustCompile(`\[… (\d+) bytes left out …\]`).FindAllStringSubmatch(got, -1)
	require.Len(t, m, 1, "one marker")
	left, _ := strconv.Atoi(m[0][1])
	shown := len(got) - len(m[0][0]) - 2 // the marker's own line breaks
	assert.Equal(t, 1000000, left+shown, "shown + left out = all of it")
}

// TestCall_TreeDeadOnlyWhenStarted: tree_dead is reported only for a call
// that started a process.
func TestCall_TreeDeadOnlyWhenStarted(t *testing.T) {
	s := newServer(t, nil)
	cs := connect(t, s, "", nil)
	o := outcome(t, callTool(t, cs, "read_echo", map[string]any{}))
	assert.Equal(t, CodeInvalidArguments, o.Code)
	assert.Nil(t, o.TreeDead)
	o = outcome(t, callTool(t, cs, "read_echo", map[string]any{"text": "x"}))
	require.NotNil(t, o.TreeDead)
	assert.Equal(t, treeDeadConfirmed, *o.TreeDead)

	missing := newServer(t, func(c *Config) { c.CLIPath = ""; c.CLIError = errors.New("not found") })
	o = outcome(t, callTool(t, connect(t, missing, "", nil), "read_echo", map[string]any{"text": "x"}))
	assert.Equal(t, CodeCLIUnavailable, o.Code)
	assert.Nil(t, o.TreeDead)
}

// TestCall_CannotStart: every reason the CLI cannot start is
// cli_unavailable with the real reason, never "internal".
func TestCall_CannotStart(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage")
	require.NoError(t, os.WriteFile(garbage, []byte("not a program\x00\x01"), 0o755))
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, tc := range []struct {
		name   string
		adjust func(*Config)
		says   string
	}{
		{"not a program (ENOEXEC)", func(c *Config) { c.CLIPath = garbage }, "exec format error"},
		{"working directory missing", func(c *Config) { c.Manifest.CLI.Cwd = filepath.Join(dir, "nope") }, "nope"},
		{"working directory is a file", func(c *Config) { c.Manifest.CLI.Cwd = file }, "not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, tc.adjust)
			res := callTool(t, connect(t, s, "", nil), "read_echo", map[string]any{"text": "x"})
			assert.Equal(t, CodeCLIUnavailable, outcome(t, res).Code, text(res))
			assert.Contains(t, text(res), tc.says)
		})
	}
}

// TestInstructions_RealCeilings: a tool with its own timeout is listed with
// it, not under its tier's ceiling.
func TestInstructions_RealCeilings(t *testing.T) {
	s := newServer(t, nil)
	in := s.instructions()
	assert.Contains(t, in, "read 0.3s (read_hang_own)")
	tier := fmt.Sprintf("read %gs", proctest.HangAfter.Seconds()) // newServer's read ceiling
	assert.Regexp(t, tier+` \([a-z_, ]*read_echo`, in)
	assert.NotRegexp(t, tier+` \([^)]*read_hang_own`, in)
}

func TestCall_PanicBecomesInternal(t *testing.T) {
	s := newServer(t, nil)
	cs := connect(t, s, "", nil)
	s.beforeRun = func(tool string) {
		if tool == "read_echo" {
			panic("boom")
		}
	}
	defer func() { s.beforeRun = nil }()
	res := callTool(t, cs, "read_echo", map[string]any{"text": "x"})
	assert.True(t, res.IsError)
	assert.Equal(t, CodeInternal, outcome(t, res).Code)
	res = callTool(t, cs, "mutate_store", nil)
	assert.Equal(t, CodeOK, outcome(t, res).Code, "the server stays up after a panic")
}
