package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/mcptest"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
)

// The package's test set-up and helpers, for every OS. The end-to-end tests
// build and run on every OS too (CI compiles them for darwin and windows;
// the workflow runs them there); what needs Linux itself (the bench marks'
// /proc readings, the parent-death signal, XDG) or Unix signals is in files
// built for it.

// fakecli and fakeaeat are built once for the package: the fake CLI the
// test manifest runs, and the fake aeat the example manifests run. The
// end-to-end tests of the built binary are the e2e package's.
var fakecli, fakeaeat string

// aeatMCP is the built aeat-mcp, for the benchmarks that start it as a
// host does.
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

// fakecliPids lists the live processes running this package's fakecli.
func fakecliPids() map[string]int { return proctest.Running(fakecli) }

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

func aeatMCP(tb testing.TB) string { return proctest.Build(tb, "cmd/aeat-mcp") }

func TestMain(m *testing.M) {
	if helper := testMainHelpers[os.Getenv("SERVER_TEST_HELPER")]; helper != nil {
		os.Exit(helper())
	}
	if os.Getenv("PARENT_WATCH_ROLE") != "" {
		os.Exit(m.Run()) // a helper of TestWatchParentExit: it needs no binaries
	}
	removeCache := proctest.PrivateCache()
	for out, pkg := range map[*string]string{&fakecli: "testdata/fakecli", &fakeaeat: "testdata/fakeaeat"} {
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
// (SERVER_TEST_HELPER), registered by the files that need them.
var testMainHelpers = map[string]func() int{}

// treeDeadConfirmed is what tree_dead says of a call whose tree died: the
// supervisor confirms it on Linux and Windows (cgroup, the /proc walk with
// the subreaper, a Job Object); macOS's walk cannot see an orphan no walk
// saw, so there it stays false (docs/platforms.md).
var treeDeadConfirmed = runtime.GOOS != "darwin"

// testManifestPath is the server's test manifest with this package's
// fakecli in it.
func testManifestPath(t testing.TB) string { return mcptest.TestManifest(t, fakecli) }

func loadManifest(t testing.TB) *annotations.Manifest {
	t.Helper()
	m, err := annotations.Load(testManifestPath(t))
	require.NoError(t, err)
	return m
}

// newServer builds a server over the test manifest; adjust may change the
// config first.
func newServer(t testing.TB, adjust func(*Config)) *Server {
	t.Helper()
	r, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	m := loadManifest(t)
	cfg := Config{
		Manifest: m,
		CLIPath:  fakecli,
		Runner:   r,
		// Ceilings that only catch a hang: a test of what a ceiling
		// does sets its own.
		Ceilings:  annotations.Ceilings{Read: proctest.HangAfter, Mutate: proctest.HangAfter, Live: proctest.HangAfter},
		KillGrace: 300 * time.Millisecond,
		Printer:   i18n.For(language.English),
	}
	if adjust != nil {
		adjust(&cfg)
	}
	s, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(s.Shutdown)
	return s
}

// connect opens a client session to s over in-memory transports, in the
// given protocol era ("" for the SDK's default).
func connect(t testing.TB, s *Server, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, opts)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
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

// serverCmd is the built aeat-mcp on the test manifest, started with the
// environment a host gives it and env, for the benchmarks.
func serverCmd(tb testing.TB, env []string, args ...string) *exec.Cmd {
	tb.Helper()
	cmd := exec.Command(aeatMCP(tb), append([]string{"--manifest", testManifestPath(tb), "--log-level", "warn"}, args...)...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), proctest.CacheEnv()}, env...)
	return cmd
}

// fullAeatManifest is the whole real aeat, 300 tools.
const fullAeatManifest = "../../examples/aeat.full.manifest.json"

// initLine is a 2025-11-25 initialize request, as a raw JSON-RPC line.
const initLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// syncBuffer is a strings.Builder safe to read while os/exec writes it.
type syncBuffer = proctest.SyncBuffer

// outputLink is the result's resource_link to the whole of stream.
func outputLink(t *testing.T, res *mcp.CallToolResult, stream string) *mcp.ResourceLink {
	t.Helper()
	for _, c := range res.Content {
		if l, ok := c.(*mcp.ResourceLink); ok && strings.HasSuffix(l.URI, "/"+stream) {
			return l
		}
	}
	require.Failf(t, "no resource_link", "the result links no %s: %s", stream, text(res))
	return nil
}

// rpcCode is the JSON-RPC error code of err, 0 when it is none.
func rpcCode(err error) int64 {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we.Code
	}
	return 0
}
