//go:build linux

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2E_QueuedRunsAreBounded: a tier takes as many runs as its slots and
// --max-queued; one more call is refused at once (reason busy, retryable),
// here as the task a 2025-11-25 host asked for, born finished. Against the
// built binary.
func TestE2E_QueuedRunsAreBounded(t *testing.T) {
	c := startV1(t, "--max-queued", "2")
	var ids []string
	for i := range 4 { // MUTATE has one slot: one runs, two wait, one is refused
		task := c.ok(t, "tools/call", fmt.Sprintf(`"name":"mutate_sleep","arguments":{"duration":"%ds"},"task":{}`, 30+i))["task"].(map[string]any)
		ids = append(ids, task["taskId"].(string))
		if i < 3 {
			assert.Equal(t, "working", task["status"], "call %d", i)
		} else {
			assert.Equal(t, "failed", task["status"], "the fourth is refused")
		}
	}
	res := c.ok(t, "tasks/result", fmt.Sprintf(`"taskId":%q`, ids[3]))
	o := outcomeOf(res)
	assert.Equal(t, string(CodeRefused), o["code"])
	assert.Equal(t, ReasonBusy, o["reason"])
	assert.Equal(t, true, o["retryable"])
	assert.Contains(t, fmt.Sprint(res["content"]), "3 calls of its tier (local change) are already running or waiting")
	// A destructive call is refused busy before anyone is asked: a person
	// must not say yes to a call that is then refused.
	res = c.ok(t, "tools/call", `"name":"destroy","arguments":{}`)
	assert.Equal(t, ReasonBusy, outcomeOf(res)["reason"], "%v", res)
	// A place frees when a run ends: then a call is taken again.
	c.ok(t, "tasks/cancel", fmt.Sprintf(`"taskId":%q`, ids[1]))
	task := c.ok(t, "tools/call", `"name":"mutate_sleep","arguments":{"duration":"40s"},"task":{}`)["task"].(map[string]any)
	assert.Equal(t, "working", task["status"])
	for _, id := range []string{ids[0], ids[2], task["taskId"].(string)} {
		c.ok(t, "tasks/cancel", fmt.Sprintf(`"taskId":%q`, id))
	}
	requireNoFakecli(t, proctest.HangAfter)
}

// TestE2E_RequestsInFlightAreBounded: past DefaultMaxInFlight requests
// waiting (tasks/result blocks until its task ends), one more is answered
// CodeBusy at once, saying why; the others wait on, and are answered.
func TestE2E_RequestsInFlightAreBounded(t *testing.T) {
	c := startV1(t)
	id := c.ok(t, "tools/call", `"name":"mutate_sleep","arguments":{"duration":"60s"},"task":{}`)["task"].(map[string]any)["taskId"].(string)
	const extra = 8
	var lines strings.Builder
	for i := range DefaultMaxInFlight + extra {
		fmt.Fprintf(&lines, `{"jsonrpc":"2.0","id":"r%d","method":"tasks/result","params":{"taskId":%q}}`+"\n", i, id)
	}
	_, err := c.rs.in.Write([]byte(lines.String()))
	require.NoError(t, err)
	busy := 0
	for busy < extra {
		m := c.rs.recv(t)
		e, _ := m["error"].(map[string]any)
		require.NotNil(t, e, "only refusals come before the task ends: %v", m)
		assert.Equal(t, float64(CodeBusy), e["code"])
		assert.Contains(t, e["message"], "server busy: 1024 requests are in flight")
		busy++
	}
	// The client gives up one wait (a notification: nothing is in flight
	// for it), which makes room for a request that ends the task; every
	// other wait is then answered, the run's cancelled result.
	c.rs.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r0"}}`)
	cancel := `{"jsonrpc":"2.0","id":"cancel","method":"tasks/cancel","params":{"taskId":"` + id + `"}}`
	c.rs.send(t, cancel)
	results, cancelled := 0, false
	for results < DefaultMaxInFlight-1 || !cancelled {
		m := c.rs.recv(t)
		e, _ := m["error"].(map[string]any)
		switch {
		case m["id"] == "cancel" && e != nil && e["code"] == float64(CodeBusy):
			time.Sleep(10 * time.Millisecond) // the given-up wait has not let go yet
			c.rs.send(t, cancel)
		case m["id"] == "cancel":
			require.Nil(t, e, "%v", m)
			cancelled = true
		case m["id"] != nil:
			require.Nil(t, e, "%v", m)
			assert.Equal(t, string(CodeCancelled), outcomeOf(m["result"].(map[string]any))["code"])
			results++
		}
	}
}

// TestE2E_BigResultMemory: one result of --max-result-bytes 64 MiB (the
// CLI printing 96 MiB) keeps the server's peak resident memory within 7
// times that cap (it was 9.3 times, 570–636 MB, before issue 22). Against
// the built binary; the same scenario as BenchmarkMemoryPeaks/64MiB-result.
func TestE2E_BigResultMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 96 MiB through the server")
	}
	rs := startRaw(t, "--max-result-bytes", strconv.Itoa(64<<20))
	rs.initialize(t)
	rs.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_flood_n","arguments":{"bytes":"%d"}}}`, 96<<20))
	line, err := rs.out.ReadBytes('\n')
	require.NoError(t, err)
	var m struct {
		Result struct {
			Content []struct{ Text string } `json:"content"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(line, &m))
	require.Len(t, m.Result.Content, 2, "the text, and the link to the whole output it cut (resources.go)")
	assert.LessOrEqual(t, len(m.Result.Content[0].Text), 64<<20)
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", rs.cmd.Process.Pid))
	require.NoError(t, err)
	var peakKB int64
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "VmHWM:" {
			peakKB, _ = strconv.ParseInt(f[1], 10, 64)
		}
	}
	t.Logf("peak RSS of the server: %d MiB (%.1f times the cap)", peakKB>>10, float64(peakKB)/float64(64<<10))
	assert.Less(t, peakKB, int64(7*64<<10), "peak RSS within 7 times the cap")
}
