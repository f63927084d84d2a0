package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/mcptest"
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

// What both the in-process and the end-to-end tests say to a session
// (internal/mcptest) and wait on (internal/proctest), under the names
// these tests use.
var (
	eras             = mcptest.Eras
	eraName          = mcptest.EraName
	text             = mcptest.Text
	callTool         = mcptest.CallTool
	progressMessages = mcptest.ProgressMessages
	handled          = proctest.Eventually
	waitLog          = proctest.WaitLog
	newGate          = proctest.NewGate
	openGate         = proctest.OpenGate
)

// waitForFakecli waits until at least n fakecli processes run.
func waitForFakecli(t *testing.T, n int) { proctest.WaitRunning(t, fakecli, n) }

// requireNoFakecli waits until no fakecli started by this test process is
// left: every tree the server started is gone.
func requireNoFakecli(t *testing.T, within time.Duration) {
	proctest.RequireNoneRunning(t, fakecli, within)
}

// concurrentPids: mcptest.ConcurrentPids with this package's fakecli.
func concurrentPids(t *testing.T, cs *mcp.ClientSession, n int, args map[string]any, log func() string) []string {
	return mcptest.ConcurrentPids(t, cs, fakecli, n, args, log)
}

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

// testManifestPath is the server's test manifest with this package's
// fakecli in it.
func testManifestPath(t testing.TB) string { return mcptest.TestManifest(t, fakecli) }

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

// cancelLivePull: mcptest.CancelLivePull with this package's fakecli.
func cancelLivePull(t *testing.T, cs *mcp.ClientSession) { mcptest.CancelLivePull(t, cs, fakecli) }
