//go:build linux

package server

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ignoresSignal reports whether process pid ignores sig (its SigIgn mask).
func ignoresSignal(pid int, sig syscall.Signal) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if mask, ok := strings.CutPrefix(line, "SigIgn:"); ok {
			m, err := strconv.ParseUint(strings.TrimSpace(mask), 16, 64)
			return err == nil && m&(1<<(uint(sig)-1)) != 0
		}
	}
	return false
}

// TestDetach_DuringShutdown: --detach-after passing while the server stops
// (SIGTERM: shutdownNow) does not answer "running … call aeat_mcp_wait" —
// a run the stopping server kills and nobody could collect — but waits for
// the run's end: "cancelled", its tree dead. The CLI ignores SIGTERM, so
// its tree lives through the stop's grace, and the detach fires in it.
func TestDetach_DuringShutdown(t *testing.T) {
	fire := make(chan time.Time, 1)
	s := newServer(t, func(c *Config) { c.DetachAfter = time.Hour })
	s.detachNow = fire
	cs := connect(t, s, "2025-11-25", nil)
	answered := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_stubborn", Arguments: map[string]any{"duration": "1h"}})
		if err != nil {
			res = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		answered <- res
	}()
	deadline := time.Now().Add(time.Minute)
	for deaf := false; !deaf; {
		for _, pid := range fakecliPids() {
			deaf = deaf || ignoresSignal(pid, syscall.SIGTERM)
		}
		require.True(t, time.Now().Before(deadline), "the CLI did not start ignoring SIGTERM")
		time.Sleep(10 * time.Millisecond)
	}

	s.shutdownNow()
	fire <- time.Now()
	var res *mcp.CallToolResult
	select {
	case res = <-answered:
	case <-time.After(time.Minute):
		t.Fatal("no answer a minute after the stop")
	}
	o := outcome(t, res)
	assert.Equal(t, CodeCancelled, o.Code, text(res))
	assert.Empty(t, o.RunID)
	require.NotNil(t, o.TreeDead)
	assert.True(t, *o.TreeDead)
	assert.NotContains(t, text(res), ToolWait)
	requireNoFakecli(t, proctest.HangAfter)
}
