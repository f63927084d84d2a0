package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recvRaw reads one line and returns its id exactly as written.
func (rs *rawServer) recvRaw(t *testing.T) (id string, msg map[string]any) {
	t.Helper()
	line, err := rs.out.ReadString('\n')
	require.NoError(t, err, "server output ended; stderr: %s", rs.errs.String())
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &m), line)
	require.NoError(t, json.Unmarshal([]byte(line), &msg), line)
	return string(m.ID), msg
}

// TestE2E_IDsEchoedExactly: an id goes back exactly as the client wrote
// it — also a fraction, a number past 2^53 and one past int64 — in results
// and in the transport's own error replies.
func TestE2E_IDsEchoedExactly(t *testing.T) {
	rs := startRaw(t)
	rs.initialize(t)
	for _, id := range []string{`7.5`, `9007199254740993`, `12345678901234567890`, `-3`, `1e2`, `"abc"`, `"9007199254740993"`, `""`} {
		rs.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		got, msg := rs.recvRaw(t)
		assert.Equal(t, id, got, "ping answer")
		assert.Contains(t, msg, "result")

		rs.send(t, `{"jsonrpc":"1.0","id":`+id+`,"method":"ping"}`)
		got, msg = rs.recvRaw(t)
		assert.Equal(t, id, got, "transport error reply")
		assert.Equal(t, -32600.0, errorCode(msg))

		rs.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"read_echo","arguments":{"text":"x"}}}`)
		got, msg = rs.recvRaw(t)
		assert.Equal(t, id, got, "tool result")
		assert.Contains(t, msg, "result")
	}
}

// TestE2E_DuplicateIDInFlight: a request reusing the id of one still in
// flight gets an error answer, and the first one is still answered.
func TestE2E_DuplicateIDInFlight(t *testing.T) {
	rs := startRaw(t)
	rs.initialize(t)
	rs.startLivePull(t) // id 1, runs until cancelled
	rs.send(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	id, msg := rs.recvRaw(t)
	assert.Equal(t, "1", id)
	assert.Equal(t, -32600.0, errorCode(msg), "%v", msg)
	assert.Contains(t, fmt.Sprint(msg["error"]), "already in use")

	// A cancel naming an id that is not in flight touches nothing.
	rs.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	rs.send(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	id, msg = rs.recvRaw(t)
	assert.Equal(t, "2", id)
	assert.Contains(t, msg, "result")
}

// TestE2E_SecondInitialize is an invalid request, not an internal error.
func TestE2E_SecondInitialize(t *testing.T) {
	rs := startRaw(t)
	rs.initialize(t)
	rs.send(t, strings.Replace(initLine, `"id":0`, `"id":5`, 1))
	id, msg := rs.recvRaw(t)
	assert.Equal(t, "5", id)
	assert.Equal(t, -32600.0, errorCode(msg), "%v", msg)
}

// TestE2E_AnswersBeforeEOF: a script writes its requests and closes our
// stdin at once (printf … | aeat-mcp): every request read is answered, and
// the server exits 0.
func TestE2E_AnswersBeforeEOF(t *testing.T) {
	for i := 0; i < 5; i++ {
		cmd := serverCmd(t, nil)
		cmd.Stdin = strings.NewReader(initLine + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_echo","arguments":{"text":"hello"}}}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n")
		out, err := cmd.Output()
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		require.Len(t, lines, 3, "%s", out)
		assert.Contains(t, string(out), `"id":1,"result"`)
		assert.Contains(t, string(out), "hello")
		assert.Contains(t, string(out), `"id":2,"result"`)
	}
}

// TestE2E_StdinEOF: the host closes our stdin with a call in flight that
// would run for minutes: after the drain it is stopped, its tree killed,
// its "cancelled" result written, and the server exits 0.
func TestE2E_StdinEOF(t *testing.T) {
	rs := startRaw(t, "--drain", "300ms")
	rs.initialize(t)
	rs.startLivePull(t)
	pids := fakecliPids()
	start := time.Now()
	require.NoError(t, rs.in.Close())
	id, msg := rs.recvRaw(t)
	assert.Equal(t, "1", id)
	res, _ := msg["result"].(map[string]any)
	require.NotNil(t, res, "%v", msg)
	assert.Equal(t, string(CodeCancelled), res["_meta"].(map[string]any)[OutcomeKey].(map[string]any)["code"])
	err := rs.cmd.Wait()
	assert.NoError(t, err, "exit 0; stderr: %s", rs.errs.String())
	assert.Less(t, time.Since(start), proctest.HangAfter, "the call never ends by itself")
	proctest.RequireGone(t, pids, proctest.HangAfter)
}

// TestE2E_ShutdownWhileHostDoesNotRead: a host that stops reading our
// stdout cannot keep the server alive: SIGTERM ends it within about a
// second, the call's tree dead, whatever the pipe holds.
func TestE2E_ShutdownWhileHostDoesNotRead(t *testing.T) {
	hows := []string{"eof"}
	if runtime.GOOS != "windows" {
		hows = append(hows, "sigterm") // Windows has none: a host there closes stdin, or kills
	}
	for _, how := range hows {
		t.Run(how, func(t *testing.T) {
			cmd := serverCmd(t, nil, "--drain", "200ms")
			in, err := cmd.StdinPipe()
			require.NoError(t, err)
			out, err := cmd.StdoutPipe() // never read after the start
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			t.Cleanup(func() { _ = cmd.Process.Kill(); <-waited })
			_, err = io.WriteString(in, initLine+"\n")
			require.NoError(t, err)
			buf := make([]byte, 1)
			_, err = out.Read(buf) // the server is up
			require.NoError(t, err)
			// Fill the stdout pipe (64 KiB) with answers nobody reads,
			// then start a long call.
			big := strings.Repeat("y", 60<<10)
			for i := 0; i < 8; i++ {
				_, err = io.WriteString(in, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_echo","arguments":{"text":%q}}}`+"\n", 10+i, big))
				require.NoError(t, err)
			}
			_, err = io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"live_pull","arguments":{}}}`+"\n")
			require.NoError(t, err)
			waitForFakecli(t, 3)
			pids := fakecliPids()
			start := time.Now()
			if how == "sigterm" {
				require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
			} else {
				require.NoError(t, in.Close())
			}
			select {
			case err := <-waited:
				waited <- err // for the cleanup
				assert.NoError(t, err, "exit 0")
			case <-time.After(proctest.HangAfter):
				t.Fatalf("the server did not exit in %v while its stdout was full", time.Since(start))
			}
			proctest.RequireGone(t, pids, proctest.HangAfter)
		})
	}
}

// TestE2E_RefusedLinesKeepTheirID: a line the transport refuses whole — one
// longer than it reads (16 MiB), one nested deeper than 10,000 levels — is
// answered with the request's own id when it can be read, wherever it
// stands in the line (Claude Code writes it last), with the code and the
// words of what was wrong; the server reads on.
func TestE2E_RefusedLinesKeepTheirID(t *testing.T) {
	rs := startRaw(t)
	rs.initialize(t)
	huge := `{"text":"` + strings.Repeat("x", DefaultMaxLine) + `"}`
	deep := strings.Repeat("[", maxNesting+1) + strings.Repeat("]", maxNesting+1)
	tests := []struct {
		name, line, id, words string
	}{
		{"too long, id first", `{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{"name":"read_echo","arguments":` + huge + `}}`, `"big-1"`, "longer than 16777216 bytes"},
		{"too long, id last", `{"method":"tools/call","params":{"name":"read_echo","arguments":` + huge + `},"jsonrpc":"2.0","id":12345678901234567890}`, `12345678901234567890`, "longer than 16777216 bytes"},
		{"too deep, id first", `{"jsonrpc":"2.0","id":7.5,"method":"tools/call","params":{"name":"read_echo","arguments":{"text":` + deep + `}}}`, `7.5`, "deeper than 10000 levels"},
		{"too deep, id last, escaped", `{"jsonrpc":"2.0","method":"ping","params":{"x":` + deep + `},"i\u0064":"de\"ep"}`, `"de\"ep"`, "deeper than 10000 levels"},
		{"too deep, no id", `{"jsonrpc":"2.0","method":"ping","params":` + deep + `}`, `null`, "deeper than 10000 levels"},
		{"too deep, a batch", deep, `null`, "deeper than 10000 levels"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs.send(t, tc.line)
			id, msg := rs.recvRaw(t)
			assert.Equal(t, tc.id, id)
			assert.Equal(t, -32600.0, errorCode(msg), "%v", msg["error"])
			assert.Contains(t, fmt.Sprint(msg["error"]), tc.words)
			assert.NotContains(t, fmt.Sprint(msg["error"]), "not valid JSON")
		})
	}
	rs.send(t, `{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	id, msg := rs.recvRaw(t)
	assert.Equal(t, `"after"`, id)
	assert.Contains(t, msg, "result", "the server reads on")
}
