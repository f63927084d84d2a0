package e2e

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2E_ShutdownWithDetachedRuns: the host closes stdin while a detached
// run goes on: the server exits 0 and leaves no process behind.
func TestE2E_ShutdownWithDetachedRuns(t *testing.T) {
	rs := startRaw(t, "--detach-after", "300ms", "--drain", "300ms")
	rs.initialize(t)
	rs.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"live_pull","arguments":{}}}`)
	_, msg := rs.recvRaw(t)
	res := msg["result"].(map[string]any)
	assert.Equal(t, string(CodeRunning), res["_meta"].(map[string]any)[OutcomeKey].(map[string]any)["code"])
	waitForFakecli(t, 3)
	require.NoError(t, rs.in.Close())
	assert.NoError(t, rs.cmd.Wait(), "exit 0; stderr: %s", rs.errs.String())
	requireNoFakecli(t, proctest.HangAfter)
}

// TestE2E_DetachThenWait: over real stdio against the built binary, in both
// protocol eras: the call detaches, and aeat_mcp_wait returns what a
// synchronous call returns.
func TestE2E_DetachThenWait(t *testing.T) {
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			cs, _ := connectBinary(t, era, nil, "--detach-after", "400ms")
			o := outcome(t, callTool(t, cs, "live_quick", nil))
			require.Equal(t, CodeRunning, o.Code)
			got := waitRun(t, cs, o.RunID)
			sync, _ := connectBinary(t, era, nil, "--detach-after", "0")
			want := callTool(t, sync, "live_quick", nil)
			assert.Equal(t, withoutDuration(t, want), withoutDuration(t, got))
		})
	}
}

// TestE2E_RunsOverStdio: cancel of a detached run (its whole tree, the setsid
// grandchild included), an unknown id, and two identical mutations joining
// one tree — against the built binary.
func TestE2E_RunsOverStdio(t *testing.T) {
	cs, _ := connectBinary(t, "2025-11-25", nil, "--detach-after", "300ms")
	o := outcome(t, callTool(t, cs, "live_pull", nil))
	require.Equal(t, CodeRunning, o.Code)
	waitForFakecli(t, 3)
	res := callTool(t, cs, ToolCancel, map[string]any{"run_id": o.RunID})
	assert.Equal(t, CodeOK, outcome(t, res).Code, text(res))
	requireNoFakecli(t, proctest.HangAfter)

	res = callTool(t, cs, ToolWait, map[string]any{"run_id": "r-ffffffffffffffff"})
	assert.True(t, res.IsError)
	assert.Equal(t, CodeInvalidArguments, outcome(t, res).Code)

	var log syncBuffer
	waiting := connectBinaryLogged(t, &log, "--detach-after", "0", "--log-level", "debug")
	pids := concurrentPids(t, waiting, 2, map[string]any{"what": "x"}, log.String)
	assert.Regexp(t, `^pid self \d+$`, pids[0])
	assert.Equal(t, pids[0], pids[1], "one process tree for two identical mutations")
}

// TestE2E_RetryThatJoinedSurvivesTheCancel: a host that timed out retries
// the call (which joins the run in progress), then cancels the original
// request: the retry still gets the run's result. Once every request that
// waited is cancelled, the tree is killed. Against the built binary.
func TestE2E_RetryThatJoinedSurvivesTheCancel(t *testing.T) {
	rs := startRaw(t, "--log-level", "debug")
	rs.initialize(t)
	joins, cancels := 0, 0
	// The run waits for its gate: it cannot end before the retry joined
	// and the cancels were taken, however slow the machine.
	joinAndCancel := func(gate string, first, retry int, cancel ...int) {
		call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"mutate_await","arguments":{"gate":%q}}}`
		rs.send(t, fmt.Sprintf(call, first, gate))
		waitForFakecli(t, 1)
		rs.send(t, fmt.Sprintf(call, retry, gate))
		joins++
		waitLog(t, rs.errs.String, "call joined a run", joins)
		for _, id := range cancel {
			rs.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,"reason":"timed out"}}`, id))
		}
		cancels += len(cancel)
		waitLog(t, rs.errs.String, "code=cancelled", cancels)
	}

	gate := newGate(t)
	joinAndCancel(gate, 1, 2, 1)
	require.NoError(t, openGate(gate))
	_, msg := rs.recvRaw(t)
	assert.Equal(t, 2.0, msg["id"], "only the retry is answered: %v", msg)
	res, _ := msg["result"].(map[string]any)
	require.NotNil(t, res, "%v", msg)
	assert.Equal(t, string(CodeOK), outcomeOf(res)["code"], "the retry gets the run's result: %v", res)
	assert.Contains(t, fmt.Sprint(res["content"]), "pid self")
	assert.Contains(t, fmt.Sprint(res["content"]), "joined run")

	joinAndCancel(newGate(t), 3, 4, 3, 4)
	requireNoFakecli(t, proctest.HangAfter) // nobody waits: the tree is killed
	rs.send(t, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	_, msg = rs.recvRaw(t)
	assert.Equal(t, 5.0, msg["id"], "no answer for the cancelled requests: %v", msg)
}

// TestE2E_BuiltinArgumentErrors: aeat_mcp_wait refuses a negative, an
// overflowing or a too long wait_seconds (it used to answer at once, an
// invitation to busy-poll), and every wrong argument of the built-in tools
// gets an invalid_arguments result that names the field and the expected
// JSON type in a manifest tool's words (annotations.Tool.Validate reads
// both) — never a Go decoder's message. Against the built binary.
func TestE2E_BuiltinArgumentErrors(t *testing.T) {
	cs, _ := connectBinary(t, "2025-11-25", nil, "--detach-after", "2s")
	const id = "r-0123456789abcdef"
	tests := []struct {
		tool  string
		args  any
		field string
		msg   string
	}{
		{ToolWait, map[string]any{"run_id": id, "wait_seconds": -1}, "wait_seconds", "must be at least 0 (got -1)"},
		{ToolWait, map[string]any{"run_id": id, "wait_seconds": json.RawMessage("1e400")}, "wait_seconds", "must be at most 2 (got 1e400)"},
		{ToolWait, map[string]any{"run_id": id, "wait_seconds": 1e19}, "wait_seconds", "must be at most 2 (got 10000000000000000000)"},
		{ToolWait, map[string]any{"run_id": id, "wait_seconds": 2.5}, "wait_seconds", "must be at most 2 (got 2.5)"},
		{ToolWait, map[string]any{"run_id": id, "wait_seconds": "10"}, "wait_seconds", "must be a number (got a string)"},
		{ToolWait, map[string]any{"run_id": 7}, "run_id", "must be a string (got a number)"},
		{ToolWait, map[string]any{"run_id": "r-1"}, "run_id", `"r-1" does not match the pattern ^r-[0-9a-f]{16}$`},
		{ToolWait, map[string]any{}, "run_id", "is required"},
		{ToolCancel, map[string]any{"run_id": []any{id}}, "run_id", "must be a string (got an array)"},
		{ToolCancel, map[string]any{"run_id": id, "wait_seconds": 1}, "wait_seconds", "unknown argument; this tool takes run_id"},
		{ToolRuns, map[string]any{"run_id": id}, "run_id", "unknown argument; this tool takes no arguments"},
		{ToolWait, []any{id}, "", "arguments must be an object, not an array"},
	}
	for _, tc := range tests {
		raw, _ := json.Marshal(tc.args)
		t.Run(tc.tool+" "+string(raw), func(t *testing.T) {
			res := callTool(t, cs, tc.tool, tc.args)
			o := outcome(t, res)
			assert.Equal(t, CodeInvalidArguments, o.Code, text(res))
			if assert.NotNil(t, o.Field) {
				assert.Equal(t, tc.field, *o.Field)
			}
			assert.Contains(t, text(res), tc.msg)
			for _, goism := range []string{"unmarshal", "Go struct", "builtinArgs", "json:"} {
				assert.NotContains(t, text(res), goism)
			}
		})
	}
}
