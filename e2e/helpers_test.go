package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// The package's set-up and the helpers its tests share.

// binary is aeat-mcp, built once for the package; fakecli the fake CLI the
// test manifest runs; fakeaeat the fake of the real aeat the example
// manifests run.
var binary, fakecli, fakeaeat string

// The shipped manifests of the real aeat.
const (
	exampleManifest     = "../examples/aeat.manifest.json"      // the curated 19 verbs
	curatedAeatManifest = exampleManifest                       // (the name the catalog tests give it)
	fullAeatManifest    = "../examples/aeat.full.manifest.json" // the whole real aeat, 300 tools
)

func TestMain(m *testing.M) {
	if helper := testMainHelpers[os.Getenv("E2E_TEST_HELPER")]; helper != nil {
		os.Exit(helper())
	}
	removeCache := proctest.PrivateCache()
	for out, pkg := range map[*string]string{&binary: "cmd/aeat-mcp", &fakecli: "testdata/fakecli", &fakeaeat: "testdata/fakeaeat"} {
		bin, err := proctest.Built(pkg)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		*out = bin
	}
	code := m.Run()
	proctest.RemoveBuilds()
	removeCache()
	os.Exit(code)
}

// testMainHelpers are the roles the test binary plays when re-executed
// (E2E_TEST_HELPER), registered by the files that need them.
var testMainHelpers = map[string]func() int{}

// treeDeadConfirmed is what tree_dead says of a call whose tree died: the
// supervisor confirms it on Linux and Windows (cgroup, the /proc walk with
// the subreaper, a Job Object); macOS's walk cannot see an orphan no walk
// saw, so there it stays false (docs/platforms.md).
var treeDeadConfirmed = runtime.GOOS != "darwin"

// Protocol eras a test runs in: the SDK's default (session-less) and the
// initialize handshake today's hosts send.
var eras = []string{"", "2025-11-25"}

func eraName(v string) string {
	if v == "" {
		return "2026-07-28"
	}
	return v
}

// testManifestPath writes the server's test manifest
// (internal/server/testdata/test.manifest.json) with the fake CLI's path
// in it.
func testManifestPath(t testing.TB) string {
	t.Helper()
	raw, err := os.ReadFile("../internal/server/testdata/test.manifest.json")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "test.manifest.json")
	quoted, err := json.Marshal(fakecli) // a Windows path's backslashes, escaped
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(string(raw), `"FAKECLI"`, string(quoted))), 0o644))
	return path
}

// outcome reads a result's _meta["aeat-mcp/outcome"].
func outcome(t testing.TB, res *mcp.CallToolResult) Outcome {
	t.Helper()
	require.NotNil(t, res.Meta, "no _meta on the result")
	raw, err := json.Marshal(res.Meta[OutcomeKey])
	require.NoError(t, err)
	var o Outcome
	require.NoError(t, json.Unmarshal(raw, &o))
	return o
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func callTool(t testing.TB, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	return res
}

// structured is a result's structuredContent as JSON values; resultOfCLI
// its "result", what the CLI's success envelope held.
func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(raw, &v), "structuredContent: %s", raw)
	return v
}

func resultOfCLI(t *testing.T, res *mcp.CallToolResult) map[string]any {
	r, _ := structured(t, res)["result"].(map[string]any)
	return r
}

// stringsIn appends every string in the JSON value v to out.
func stringsIn(v any, out []string) []string {
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case map[string]any:
		for _, e := range x {
			out = stringsIn(e, out)
		}
	case []any:
		for _, e := range x {
			out = stringsIn(e, out)
		}
	}
	return out
}

// progressMessages is a client that records the progress messages it is
// sent, and a function that returns them so far.
func progressMessages() (*mcp.ClientOptions, func() []string) {
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

// handled waits until cond holds of what the client's handlers were given,
// or the hang bound passes, and reports whether it held. The SDK client runs
// notification handlers on a queue of their own: a notification sent before
// a call's result may be handled after the call returned, later still on a
// loaded machine.
func handled(cond func() bool) bool {
	for deadline := time.Now().Add(proctest.HangAfter); !cond(); {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// waitRun collects run id with aeat_mcp_wait, as a host does, until it is
// no longer running: each wait is bounded by the server, the whole by the
// hang bound, not by a number of waits a loaded machine may need more of.
func waitRun(t testing.TB, cs *mcp.ClientSession, id string) *mcp.CallToolResult {
	t.Helper()
	deadline := time.Now().Add(proctest.HangAfter)
	for {
		got := callTool(t, cs, ToolWait, map[string]any{"run_id": id})
		if outcome(t, got).Code != CodeRunning || time.Now().After(deadline) {
			return got
		}
	}
}

// withoutDuration is a result as JSON with the outcome's duration zeroed:
// two calls of the same work differ only there.
func withoutDuration(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	o := outcome(t, res)
	o.DurationMS = 0
	cp := *res
	cp.Meta = mcp.Meta{OutcomeKey: o}
	b, err := json.Marshal(&cp)
	require.NoError(t, err)
	return string(b)
}

// fakecliPids lists the live processes running this package's fakecli.
func fakecliPids() map[string]int { return proctest.Running(fakecli) }

// waitForFakecli waits until at least n fakecli processes run.
func waitForFakecli(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(proctest.HangAfter)
	for len(fakecliPids()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("fakecli did not start %d processes", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// requireNoFakecli waits until no fakecli started by this test process is
// left: every tree the server started is gone.
func requireNoFakecli(t *testing.T, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		pids := fakecliPids()
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range pids {
				proctest.Kill(pid)
			}
			t.Fatalf("fakecli processes left: %v", pids)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// cancelLivePull starts a never-ending live call, cancels it from the client
// once its tree is up, and requires every process of the tree to be gone.
func cancelLivePull(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "live_pull", Arguments: map[string]any{}})
		done <- err
	}()
	waitForFakecli(t, 3)
	cancel()
	require.Error(t, <-done)
	requireNoFakecli(t, proctest.HangAfter)
}
