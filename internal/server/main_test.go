//go:build linux

package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
)

// fakecli and binary are built once for the package: the fake CLI the test
// manifest runs, and aeat-mcp itself for the end-to-end tests.
var fakecli, fakeaeat, binary string

func TestMain(m *testing.M) {
	switch os.Getenv("SERVER_TEST_HELPER") {
	case "parent":
		os.Exit(helperParent())
	case "naive":
		os.Exit(naiveMain())
	}
	if os.Getenv("PARENT_WATCH_ROLE") != "" {
		os.Exit(m.Run()) // a helper of TestWatchParentExit: it needs no binaries
	}
	dir, err := os.MkdirTemp("", "server-test")
	if err != nil {
		panic(err)
	}
	fakecli = filepath.Join(dir, "fakecli")
	fakeaeat = filepath.Join(dir, "aeat")
	binary = filepath.Join(dir, "aeat-mcp")
	for out, pkg := range map[string]string{fakecli: "../../testdata/fakecli", fakeaeat: "../../testdata/fakeaeat", binary: "../../cmd/aeat-mcp"} {
		build := exec.Command("go", "build", "-o", out, pkg)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building", pkg, err)
			os.Exit(2)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Protocol eras a test runs in: the SDK's default (session-less) and the
// initialize handshake today's hosts send.
var eras = []string{"", "2025-11-25"}

func eraName(v string) string {
	if v == "" {
		return "2026-07-28"
	}
	return v
}

// testManifestPath writes the test manifest with the fake CLI's path in it.
func testManifestPath(t testing.TB) string {
	t.Helper()
	raw, err := os.ReadFile("testdata/test.manifest.json")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "test.manifest.json")
	require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(string(raw), "FAKECLI", fakecli)), 0o644))
	return path
}

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
		Manifest:  m,
		CLIPath:   fakecli,
		Runner:    r,
		Ceilings:  annotations.Ceilings{Read: 10 * time.Second, Mutate: 10 * time.Second, Live: 10 * time.Second},
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

func killPids(pids map[string]int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// fakecliPids lists the live processes running this package's fakecli.
func fakecliPids() map[string]int {
	out := map[string]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if exe, err := os.Readlink("/proc/" + e.Name() + "/exe"); err == nil && exe == fakecli && !proctest.Gone(pid) {
			out[e.Name()] = pid
		}
	}
	return out
}

// helperParent plays a host: it starts aeat-mcp on the pipes it inherited as
// fds 3 (stdin) and 4 (stdout), prints the server's pid, and waits to be
// killed. With SERVER_TEST_SPAWN_THREAD set it starts the server from an OS
// thread that exits right after (as a host spawning from a worker thread
// does): Linux then sends the server its parent-death signal although its
// parent lives on.
func helperParent() int {
	cmd := exec.Command(os.Getenv("AEAT_MCP_BINARY"), "--manifest", os.Getenv("AEAT_MCP_MANIFEST"), "--log-level", "error")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.NewFile(3, "in"), os.NewFile(4, "out"), os.Stderr
	started := make(chan error)
	if os.Getenv("SERVER_TEST_SPAWN_THREAD") != "" {
		// Keep the main thread for this goroutine: a locked goroutine that
		// exits on the main thread does not end it, on any other it does.
		runtime.LockOSThread()
	}
	go func() {
		if os.Getenv("SERVER_TEST_SPAWN_THREAD") != "" {
			runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		}
		started <- cmd.Start()
		// Outlive the server's start-up, so that it has armed its
		// parent-death signal when this thread exits.
		time.Sleep(500 * time.Millisecond)
	}()
	if err := <-started; err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println(cmd.Process.Pid)
	for {
		time.Sleep(time.Hour)
	}
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

// concurrentPids calls mutate_slow n times at once (100 ms apart) and
// returns the pid each result reports ("pid self N"): equal pids mean one
// process tree served both calls.
func concurrentPids(t *testing.T, cs *mcp.ClientSession, n int, args map[string]any) []string {
	t.Helper()
	var wg sync.WaitGroup
	pids := make([]string, n)
	for i := range pids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mutate_slow", Arguments: args})
			if assert.NoError(t, err) && assert.False(t, r.IsError) { // no require off the test goroutine
				pids[i] = strings.SplitN(text(r), "\n", 2)[0]
			}
		}()
		time.Sleep(100 * time.Millisecond)
	}
	wg.Wait()
	return pids
}
