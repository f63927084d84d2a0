package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Long calls (docs/long-calls.md): a call still running after DetachAfter returns
// its run's id; aeat_mcp_wait collects exactly the result the call would
// have returned; aeat_mcp_cancel kills the tree; identical mutations join.

func detachingServer(t *testing.T, adjust ...func(*Config)) *Server {
	return newServer(t, func(c *Config) {
		c.DetachAfter = 300 * time.Millisecond
		for _, a := range adjust {
			a(c)
		}
	})
}

func TestRuns_DetachThenWait(t *testing.T) {
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			s := detachingServer(t)
			cs := connect(t, s, era, nil)
			res := callTool(t, cs, "live_quick", nil)
			o := outcome(t, res)
			require.Equal(t, CodeRunning, o.Code, text(res))
			assert.False(t, res.IsError, "detaching is not an error")
			assert.Regexp(t, `^r-[0-9a-f]{16}$`, o.RunID)
			assert.Contains(t, text(res), o.RunID)
			assert.Contains(t, text(res), "aeat_mcp_wait")

			first := callTool(t, cs, ToolWait, map[string]any{"run_id": o.RunID, "wait_seconds": 0.1})
			assert.Equal(t, CodeRunning, outcome(t, first).Code, "still running after a short wait")
			got := waitRun(t, cs, o.RunID)
			require.Equal(t, CodeOK, outcome(t, got).Code, text(got))
			again := callTool(t, cs, ToolWait, map[string]any{"run_id": o.RunID})
			gotJSON, _ := json.Marshal(got)
			againJSON, _ := json.Marshal(again)
			assert.Equal(t, string(gotJSON), string(againJSON), "the run's result, byte for byte, every time")

			sync := connect(t, newServer(t, nil), era, nil)
			want := callTool(t, sync, "live_quick", nil)
			assert.Equal(t, withoutDuration(t, want), withoutDuration(t, got), "what the call itself would have returned")
		})
	}
}

func TestRuns_DetachedTimeout(t *testing.T) {
	s := detachingServer(t, func(c *Config) { c.Ceilings.Live = 1500 * time.Millisecond })
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "live_pull", nil)
	o := outcome(t, res)
	require.Equal(t, CodeRunning, o.Code)
	waitForFakecli(t, 3)
	got := waitRun(t, cs, o.RunID)
	og := outcome(t, got)
	assert.Equal(t, CodeTimeout, og.Code, text(got))
	assert.True(t, got.IsError)
	require.NotNil(t, og.TreeDead)
	assert.Equal(t, treeDeadConfirmed, *og.TreeDead)
	requireNoFakecli(t, proctest.HangAfter)
}

func TestRuns_CancelDetached(t *testing.T) {
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			s := detachingServer(t)
			cs := connect(t, s, era, nil)
			o := outcome(t, callTool(t, cs, "live_pull", nil))
			require.Equal(t, CodeRunning, o.Code)
			waitForFakecli(t, 3) // the CLI, a child, a setsid grandchild
			res := callTool(t, cs, ToolCancel, map[string]any{"run_id": o.RunID})
			assert.Equal(t, CodeOK, outcome(t, res).Code, text(res))
			assert.Contains(t, text(res), "cancelled")
			requireNoFakecli(t, proctest.HangAfter)
			got := callTool(t, cs, ToolWait, map[string]any{"run_id": o.RunID})
			assert.Equal(t, CodeCancelled, outcome(t, got).Code)
			res = callTool(t, cs, ToolCancel, map[string]any{"run_id": o.RunID})
			assert.Contains(t, text(res), "already ended", "cancel is idempotent")
		})
	}
}

func TestRuns_UnknownAndExpired(t *testing.T) {
	// A READ call that ends long before it would detach, even on a loaded
	// machine (at 300 ms it once came back "running" under -race).
	s := detachingServer(t, func(c *Config) { c.KeepResults, c.DetachAfter = 300*time.Millisecond, 10*time.Second })
	cs := connect(t, s, "", nil)
	for _, args := range []map[string]any{
		{"run_id": "r-0123456789abcdef"},
		{"run_id": "not-an-id"},
		{},
		{"run_id": "r-0123456789abcdef", "extra": 1},
	} {
		for _, tool := range []string{ToolWait, ToolCancel} {
			res := callTool(t, cs, tool, args)
			o := outcome(t, res)
			assert.True(t, res.IsError, "%s %v", tool, args)
			assert.Equal(t, CodeInvalidArguments, o.Code, "%s %v: %s", tool, args, text(res))
		}
	}
	res := callTool(t, cs, "read_echo", map[string]any{"text": "x"})
	require.Equal(t, CodeOK, outcome(t, res).Code)
	list := callTool(t, cs, ToolRuns, nil)
	runsList := list.StructuredContent.(map[string]any)["runs"].([]any)
	require.Len(t, runsList, 1)
	id := runsList[0].(map[string]any)["run_id"].(string)
	assert.Equal(t, CodeOK, outcome(t, callTool(t, cs, ToolWait, map[string]any{"run_id": id})).Code)
	time.Sleep(400 * time.Millisecond)
	res = callTool(t, cs, ToolWait, map[string]any{"run_id": id})
	assert.Equal(t, CodeInvalidArguments, outcome(t, res).Code, "expired")
	assert.Contains(t, text(res), "no run "+id)
}

// twoMutations lets two mutations run at once (the default is one at a
// time): the tests that hold a run open until its gate opens need the
// second run started, not queued behind the first.
var twoMutations = map[annotations.Tier]int{annotations.Read: 8, annotations.Mutate: 2, annotations.Live: 2}

func TestRuns_IdenticalMutationsJoin(t *testing.T) {
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			var log syncBuffer
			s := newServer(t, func(c *Config) {
				c.Logger = slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
				c.Slots = twoMutations // the run of other arguments runs beside the first
			})
			cs := connect(t, s, era, nil)
			gate := newGate(t)
			var wg sync.WaitGroup
			results := make([]*mcp.CallToolResult, 3)
			for i := range results {
				wg.Add(1)
				go func() {
					defer wg.Done()
					args := map[string]any{"what": "a", "gate": gate}
					if i == 2 {
						args["what"] = "b" // other arguments: a run of its own
					}
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mutate_await", Arguments: args})
					if assert.NoError(t, err) {
						results[i] = res
					}
				}()
				// Each call in flight before the next: the runs end only
				// once the gate opens.
				switch i {
				case 0:
					waitForFakecli(t, 1)
				case 1:
					waitLog(t, log.String, "call joined a run", 1)
				case 2:
					waitForFakecli(t, 2)
				}
			}
			require.NoError(t, openGate(gate))
			wg.Wait()
			require.NotContains(t, results, (*mcp.CallToolResult)(nil))
			pid := func(res *mcp.CallToolResult) string { return strings.SplitN(text(res), "\n", 2)[0] }
			assert.Equal(t, pid(results[0]), pid(results[1]), "one process tree for two identical calls")
			assert.NotEqual(t, pid(results[0]), pid(results[2]))
			require.Len(t, results[1].Content, 2)
			assert.Contains(t, results[1].Content[1].(*mcp.TextContent).Text, "joined run")
			assert.Equal(t, results[0].Content[0], results[1].Content[0], "the same result")
		})
	}
	t.Run("nothing is joined with --dedupe=false", func(t *testing.T) {
		s := newServer(t, func(c *Config) { c.NoDedupe, c.Slots = true, twoMutations })
		pids := concurrentPids(t, connect(t, s, "", nil), 2, map[string]any{}, nil)
		assert.NotEqual(t, pids[0], pids[1])
	})
}

func TestRuns_ProgressWhileWaiting(t *testing.T) {
	// A run that goes on until the test ends, and a wait of 2 s: twenty
	// heartbeats' time, however late each comes.
	s := detachingServer(t, func(c *Config) { c.Heartbeat, c.DetachAfter = 100*time.Millisecond, 2*time.Second })
	opts, messages := progressMessages()
	cs := connect(t, s, "", opts)
	o := outcome(t, callTool(t, cs, "live_pull", nil))
	require.Equal(t, CodeRunning, o.Code)
	params := &mcp.CallToolParams{Name: ToolWait, Arguments: map[string]any{"run_id": o.RunID, "wait_seconds": 2}}
	params.SetProgressToken("w")
	res, err := cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	assert.Equal(t, CodeRunning, outcome(t, res).Code)
	handled(func() bool { return len(messages()) > 0 })
	msgs := messages()
	require.NotEmpty(t, msgs, "a wait sends progress")
	assert.Contains(t, msgs[len(msgs)-1], "live_pull: ")
}
