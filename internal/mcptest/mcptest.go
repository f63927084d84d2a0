// Package mcptest is what the tests of the server (in process) and of the
// built binary (e2e) both say to an MCP session: read a result's text,
// call a tool, record progress, run concurrent calls of the test
// manifest. It is for tests only; nothing in the product imports it.
//
// What a result's outcome means is deliberately not here: e2e spells the
// wire's words itself (e2e/wire_test.go), so a renamed code fails there as
// it would fail a host, while the server's tests read its own types.
package mcptest

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
)

// Eras are the protocol eras a test runs in: the SDK's default
// (session-less) and the initialize handshake today's hosts send.
var Eras = []string{"", "2025-11-25"}

// EraName names an era for a subtest.
func EraName(v string) string {
	if v == "" {
		return "2026-07-28"
	}
	return v
}

// Text is the text of a result's text contents, in order.
func Text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// CallTool calls a tool and fails the test on a protocol error (a tool's
// own error is a result).
func CallTool(tb testing.TB, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	tb.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(tb, err)
	return res
}

// ProgressMessages is a client that records the progress messages it is
// sent, and a function that returns them so far. The SDK client runs
// notification handlers on a queue of their own: a notification sent
// before a call's result may be handled after the call returned, so wait
// for one with proctest.Eventually.
func ProgressMessages() (*mcp.ClientOptions, func() []string) {
	var mu sync.Mutex
	var msgs []string
	opts := &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			msgs = append(msgs, req.Params.Message)
			mu.Unlock()
		},
	}
	return opts, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), msgs...)
	}
}

// ConcurrentPids makes n identical calls of the test manifest's
// mutate_await tool with args, each sent once the one before is in flight
// — its own process of fakecli running, or, where calls join (log is the
// server's debug log), once the server says it joined — then lets them
// end, and returns the first line of each result (the pid line). Nothing
// depends on how fast the machine is: no call can end before the last one
// is in.
func ConcurrentPids(t *testing.T, cs *mcp.ClientSession, fakecli string, n int, args map[string]any, log func() string) []string {
	t.Helper()
	gate := proctest.NewGate(t)
	args = maps.Clone(args)
	args["gate"] = gate
	var wg sync.WaitGroup
	pids := make([]string, n)
	for i := range pids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mutate_await", Arguments: args})
			if assert.NoError(t, err) && assert.False(t, r.IsError) { // no require off the test goroutine
				pids[i] = strings.SplitN(Text(r), "\n", 2)[0]
			}
		}()
		switch {
		case i == 0 || log == nil:
			proctest.WaitRunning(t, fakecli, i+1)
		default:
			proctest.WaitLog(t, log, "call joined a run", i)
		}
	}
	require.NoError(t, proctest.OpenGate(gate))
	wg.Wait()
	return pids
}

// TestManifest writes the server's test manifest
// (internal/server/testdata/test.manifest.json) with the fake CLI at
// fakecli in it, and returns its path.
func TestManifest(tb testing.TB, fakecli string) string {
	tb.Helper()
	root, err := proctest.Root()
	require.NoError(tb, err)
	raw, err := os.ReadFile(filepath.Join(root, "internal", "server", "testdata", "test.manifest.json"))
	require.NoError(tb, err)
	path := filepath.Join(tb.TempDir(), "test.manifest.json")
	quoted, err := json.Marshal(fakecli) // a Windows path's backslashes, escaped
	require.NoError(tb, err)
	require.NoError(tb, os.WriteFile(path, []byte(strings.ReplaceAll(string(raw), `"FAKECLI"`, string(quoted))), 0o644))
	return path
}

// CancelLivePull starts the test manifest's never-ending live_pull call,
// cancels it from the client once its tree (three processes of fakecli)
// is up, and requires every process of the tree to be gone.
func CancelLivePull(t *testing.T, cs *mcp.ClientSession, fakecli string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "live_pull", Arguments: map[string]any{}})
		done <- err
	}()
	proctest.WaitRunning(t, fakecli, 3)
	cancel()
	require.Error(t, <-done)
	proctest.RequireNoneRunning(t, fakecli, proctest.HangAfter)
}
