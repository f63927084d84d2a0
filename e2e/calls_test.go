package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// End-to-end: the built aeat-mcp binary, spawned the way a host spawns it,
// spoken to over real stdio.

// serverCmd is the aeat-mcp command line for the test manifest.
func serverCmd(t testing.TB, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"--manifest", testManifestPath(t), "--log-level", "warn"}, args...)...)
	cmd.Env = append(hostEnv(), env...)
	return cmd
}

// hostEnv is the environment a host gives the server: PATH and HOME here;
// on Windows what the MCP TypeScript SDK passes by default there
// (DEFAULT_INHERITED_ENV_VARS), without which a Windows program cannot
// find its own folders.
func hostEnv() []string {
	// XDG_CACHE_HOME: the test run's own (proctest.PrivateCache), so the
	// manifest cache files of temporary manifests leave with the run.
	names := []string{"PATH", "HOME", "XDG_CACHE_HOME"}
	if runtime.GOOS == "windows" {
		names = []string{"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE",
			"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES"}
	}
	env := make([]string, 0, len(names))
	for _, n := range names {
		env = append(env, n+"="+os.Getenv(n))
	}
	return env
}

func connectBinary(t *testing.T, era string, env []string, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := serverCmd(t, env, args...)
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: era})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs, cmd
}

// connectBinaryLogged is connectBinary (2025-11-25) with the server's
// stderr in log.
func connectBinaryLogged(t *testing.T, log *syncBuffer, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := serverCmd(t, nil, args...)
	cmd.Stderr = log
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestE2E_Calls(t *testing.T) {
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			cs, _ := connectBinary(t, era, []string{"AEAT_MCP_LANG=en"}, "--timeout-live", "1s", "--kill-grace", "300ms")
			t.Run("read", func(t *testing.T) {
				res := callTool(t, cs, "read_echo", map[string]any{"text": "¡hola!"})
				assert.Equal(t, "¡hola!\n", text(res))
				assert.Equal(t, CodeOK, outcome(t, res).Code)
			})
			t.Run("live call times out and its tree dies", func(t *testing.T) {
				res := callTool(t, cs, "live_pull", nil)
				o := outcome(t, res)
				assert.Equal(t, CodeTimeout, o.Code)
				assert.Equal(t, 1.0, o.TimeoutSeconds)
				require.NotNil(t, o.TreeDead, "a process ran")
				assert.Equal(t, treeDeadConfirmed, *o.TreeDead)
				assert.Contains(t, text(res), "live_pull did not finish within the 1 s ceiling of its tier (live)")
				requireNoFakecli(t, proctest.HangAfter)
			})
			t.Run("progress", func(t *testing.T) {
				// Progress arrives while the call runs: the call is
				// cancelled once it did (or after the hang bound).
				ctx, cancel := context.WithTimeout(context.Background(), proctest.HangAfter)
				defer cancel()
				var mu sync.Mutex
				var msgs []string
				client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
					ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
						mu.Lock()
						msgs = append(msgs, req.Params.Message)
						mu.Unlock()
						cancel()
					},
				})
				cmd := serverCmd(t, []string{"AEAT_MCP_LANG=en"})
				pcs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: era})
				require.NoError(t, err)
				defer pcs.Close()
				params := &mcp.CallToolParams{Name: "live_pull", Arguments: map[string]any{}}
				params.SetProgressToken("e2e")
				_, _ = pcs.CallTool(ctx, params)
				mu.Lock()
				defer mu.Unlock()
				require.NotEmpty(t, msgs)
				assert.Contains(t, strings.Join(msgs, "\n"), "live_pull: ")
				requireNoFakecli(t, proctest.HangAfter)
			})
		})
	}
}

func TestE2E_TimeoutRefusalInSpanish(t *testing.T) {
	cs, _ := connectBinary(t, "2025-11-25", []string{"LANG=es_ES.UTF-8"}, "--timeout-live", "1s")
	res := callTool(t, cs, "live_pull", nil)
	assert.Contains(t, text(res), "La herramienta live_pull no terminó dentro del límite de 1 s de su nivel (en línea)")
	assert.Contains(t, text(res), "--timeout-live")
	requireNoFakecli(t, proctest.HangAfter)
}

func TestE2E_Cancel(t *testing.T) {
	cs, _ := connectBinary(t, "", nil)
	cancelLivePull(t, cs)
	res := callTool(t, cs, "read_echo", map[string]any{"text": "still up"})
	assert.Equal(t, "still up\n", text(res))
}

func TestE2E_SlowLiveCallsDoNotDelayRead(t *testing.T) {
	cs, _ := connectBinary(t, "", nil, "--dedupe=false")
	liveCallsDoNotDelayRead(t, cs)
}

// rawServer starts the binary with pipes a test writes and reads by hand.
type rawServer struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	errs syncBuffer
}

// syncBuffer is a strings.Builder safe to read while os/exec writes it.
type syncBuffer = proctest.SyncBuffer

func startRaw(t *testing.T, args ...string) *rawServer {
	t.Helper()
	return startRawEnv(t, nil, args...)
}

// startRawEnv is startRaw with more variables in the server's environment.
func startRawEnv(t *testing.T, env []string, args ...string) *rawServer {
	t.Helper()
	return startRawCmd(t, serverCmd(t, env, args...))
}

// startRawCmd starts cmd, an aeat-mcp command line, for a test that
// speaks raw JSON-RPC lines to it; the server is killed when the test
// ends.
func startRawCmd(t *testing.T, cmd *exec.Cmd) *rawServer {
	t.Helper()
	rs := &rawServer{cmd: cmd}
	var err error
	rs.in, err = cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	rs.out = bufio.NewReaderSize(stdout, 1<<20)
	cmd.Stderr = &rs.errs
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return rs
}

func (rs *rawServer) send(t *testing.T, line string) {
	t.Helper()
	_, err := io.WriteString(rs.in, line+"\n")
	require.NoError(t, err)
}

func (rs *rawServer) recv(t *testing.T) map[string]any {
	t.Helper()
	line, err := rs.out.ReadString('\n')
	require.NoError(t, err, "server output ended; stderr: %s", rs.errs.String())
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(line), &m), line)
	return m
}

// initialize does the handshake.
func (rs *rawServer) initialize(t *testing.T) {
	t.Helper()
	rs.send(t, initLine)
	require.Contains(t, rs.recv(t), "result")
	rs.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// startLivePull starts a never-ending live call as request 1 and waits for
// its tree (fakecli, a child, a setsid child) to be up.
func (rs *rawServer) startLivePull(t *testing.T) {
	t.Helper()
	rs.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"live_pull","arguments":{}}}`)
	waitForFakecli(t, 3)
}

func errorCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

const initLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// TestE2E_EverythingAtOnce: a host that sends initialize, tools/list and a
// call in one write, without waiting for the answer to initialize, gets
// every tool in the list and the call's result — the tools are registered
// after initialize (register), and nothing reads them before — and no
// notifications/tools/list_changed (fixedTools): the list never changes.
// The tools capability is the SDK's, as before. The whole transcript, to
// the server's exit, is read.
func TestE2E_EverythingAtOnce(t *testing.T) {
	want := toolNamesOnceInitialized(t)
	require.Contains(t, want, "read_echo")
	rs := startRaw(t)
	rs.send(t, initLine+"\n"+
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_echo","arguments":{"text":"hola"}}}`)
	require.NoError(t, rs.in.Close())
	var lines []string
	for {
		line, err := rs.out.ReadString('\n')
		if err != nil {
			break
		}
		lines = append(lines, line)
	}
	byID := map[string]map[string]any{}
	for _, line := range lines {
		assert.NotContains(t, line, "list_changed")
		var msg map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &msg), line)
		byID[fmt.Sprint(msg["id"])], _ = msg["result"].(map[string]any)
	}
	require.Equal(t, 3, len(byID), "three answers: %s", lines)
	caps, _ := byID["0"]["capabilities"].(map[string]any)
	assert.Equal(t, map[string]any{"listChanged": true}, caps["tools"], "the SDK's tools capability")
	var listed []string
	tools, _ := byID["1"]["tools"].([]any)
	for _, tool := range tools {
		listed = append(listed, tool.(map[string]any)["name"].(string))
	}
	assert.ElementsMatch(t, want, listed)
	content, _ := byID["2"]["content"].([]any)
	require.Len(t, content, 1, "%v", byID["2"])
	assert.Contains(t, content[0].(map[string]any)["text"], "hola")
	assert.NotEqual(t, true, byID["2"]["isError"])
}

// toolNamesOnceInitialized is the list of a server asked for it as a
// patient host asks: after the handshake.
func toolNamesOnceInitialized(t *testing.T) []string {
	t.Helper()
	rs := startRaw(t)
	rs.initialize(t)
	rs.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	for {
		msg := rs.recv(t)
		if msg["id"] != float64(1) {
			continue
		}
		result, _ := msg["result"].(map[string]any)
		tools, _ := result["tools"].([]any)
		var names []string
		for _, tool := range tools {
			names = append(names, tool.(map[string]any)["name"].(string))
		}
		return names
	}
}

// TestE2E_MalformedInput: every malformed line gets the JSON-RPC error the
// spec names, never code 0, and the server stays up and answers.
func TestE2E_MalformedInput(t *testing.T) {
	rs := startRaw(t)
	rs.initialize(t)
	tests := []struct {
		line string
		code float64
	}{
		{`{not json`, -32700},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600},
		{`{"jsonrpc":"1.0","id":2,"method":"ping"}`, -32600},
		{`{"id":3,"method":"ping"}`, -32600},
		{`{"jsonrpc":"2.0","id":4}`, -32600},
		{`{"jsonrpc":"2.0","id":5,"method":7}`, -32600},
		{`"hello"`, -32600},
		{`{"jsonrpc":"2.0","id":6,"method":"no/such/method"}`, -32601},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"x"}`, -32602},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"no_such_tool"}}`, -32602},
	}
	for _, tc := range tests {
		rs.send(t, tc.line)
		resp := rs.recv(t)
		assert.Equal(t, tc.code, errorCode(resp), "%s -> %v", tc.line, resp)
	}
	rs.send(t, `{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	resp := rs.recv(t)
	assert.Equal(t, 9.0, resp["id"])
	assert.Contains(t, resp, "result", "the server is still up")
}

// TestE2E_BigLine: a 10 MiB line is read and answered (as a call whose
// argument no operating system would pass on a command line).
func TestE2E_BigLine(t *testing.T) {
	rs := startRaw(t)
	rs.initialize(t)
	big := strings.Repeat("x", 10<<20)
	rs.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_echo","arguments":{"text":%q}}}`, big))
	resp := rs.recv(t)
	res, _ := resp["result"].(map[string]any)
	require.NotNil(t, res, "%v", resp["error"])
	meta := res["_meta"].(map[string]any)[OutcomeKey].(map[string]any)
	assert.Equal(t, string(CodeInvalidArguments), meta["code"])
	rs.send(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	assert.Contains(t, rs.recv(t), "result")
}

func TestE2E_BrokenManifest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"version": 1, "cli": {"command": "aeat"}, "tools": [
		{"name": "a", "title": "T", "description": "D", "command": ["x"], "annotations": {"readOnlyHint": true}},
		{"name": "Bad-Name"}]}`), 0o644))
	cmd := exec.Command(binary, "--manifest", path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, 2, ee.ExitCode())
	assert.Contains(t, stderr.String(), `tool "a": annotations.destructiveHint: missing`)
	assert.Contains(t, stderr.String(), `tools[1].name: "Bad-Name" must match`)
}

func TestE2E_MissingCLIStillServes(t *testing.T) {
	cs, _ := connectBinary(t, "", nil, "--cli", "/nonexistent/aeat")
	res := callTool(t, cs, "read_echo", map[string]any{"text": "x"})
	assert.Equal(t, CodeCLIUnavailable, outcome(t, res).Code)
	assert.Contains(t, text(res), "/nonexistent/aeat")
}

// TestE2E_CancelledIsNotAnswered: after notifications/cancelled the server
// sends nothing more for that request (the spec's SHOULD NOT), kills its
// tree, and answers the next request as usual.
func TestE2E_CancelledIsNotAnswered(t *testing.T) {
	rs := startRaw(t)
	rs.initialize(t)
	rs.startLivePull(t)
	rs.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}`)
	requireNoFakecli(t, proctest.HangAfter)
	rs.send(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	resp := rs.recv(t)
	assert.Equal(t, 2.0, resp["id"])
	assert.Equal(t, map[string]any{}, resp["result"], "the next message is the ping's answer, not the cancelled call's")
}

// TestE2E_PythonText: a Python CLI's non-ASCII output reaches the model
// as it wrote it. On Windows a Python before 3.15 writing to a pipe
// encodes in the ANSI code page (cp1252) unless in UTF-8 mode: "Año" came
// out as U+FFFD, and "✓" (outside cp1252) made the CLI exit 1. The server
// gives Windows CLIs PYTHONUTF8=1 (env.go). It runs wherever Python is
// found (proctest.Python: AEAT_MCP_TEST_PYTHON, else python3 or python on PATH); the CI
// workflow requires it (AEAT_MCP_TEST_REQUIRE_PYTHON=1), on Windows above
// all.
func TestE2E_PythonText(t *testing.T) {
	python := proctest.Python(t)
	quoted, err := json.Marshal(python)
	require.NoError(t, err)
	manifest := filepath.Join(t.TempDir(), "python.json")
	require.NoError(t, os.WriteFile(manifest, []byte(`{"version": 1,
	  "cli": {"command": `+string(quoted)+`, "args": ["-c", "import sys; print(sys.argv[-1])"]},
	  "tools": [{"name": "read_say", "title": "Say", "description": "Prints its text.", "command": ["say"],
	    "params": [{"name": "text", "type": "string", "positional": true, "required": true}],
	    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`), 0o644))
	cmd := exec.Command(binary, "--manifest", manifest, "--log-level", "warn")
	cmd.Env = hostEnv()
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	defer cs.Close()

	const say = "Año fiscal 2025: 1.234,56 € — ✓ ½ 中文"
	res := callTool(t, cs, "read_say", map[string]any{"text": say})
	require.Equal(t, CodeOK, outcome(t, res).Code, text(res))
	assert.Equal(t, say, strings.TrimRight(text(res), "\r\n"))
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
