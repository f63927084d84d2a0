//go:build linux

package e2e

import (
	"encoding/json"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recvLine reads one line and decodes its members, each raw.
func (rs *rawServer) recvLine(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	line, err := rs.out.ReadString('\n')
	require.NoError(t, err, "server output ended; stderr: %s", rs.errs.String())
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(line), &m), line)
	return m
}

// TestE2E_ClaudeCodeListenAck: Claude Code's own subscriptions/listen is
// acknowledged with its own id, byte for byte — Claude Code waits for
// that acknowledgement before it lists tools (~28 s when it named the
// transport's id) — and its cancel stops the listen without an answer.
func TestE2E_ClaudeCodeListenAck(t *testing.T) {
	rs := startRaw(t)
	rs.send(t, claudeDiscover)
	discovered := rs.recvLine(t)
	require.Contains(t, discovered, "result", "server/discover")

	rs.send(t, claudeListen)
	ack := rs.recvLine(t)
	assert.Equal(t, `"notifications/subscriptions/acknowledged"`, string(ack["method"]))
	assert.Equal(t, `"listen:0"`, subscriptionIDOf(t, ack["params"]))

	rs.send(t, `{"jsonrpc":"2.0","id":0,"method":"tools/list","params":{`+claudeMeta+`}}`)
	listed := rs.recvLine(t)
	assert.Equal(t, "0", string(listed["id"]))
	require.Contains(t, listed, "result", "tools/list")

	rs.send(t, claudeCancel)
	rs.send(t, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{`+claudeMeta+`}}`)
	next := rs.recvLine(t)
	assert.Equal(t, "1", string(next["id"]), "the cancelled listen is not answered: the next line is the ping's")
}

// TestE2E_IDsInsideMessages: wherever a request id travels inside a
// message, the host sees its own, byte for byte — an id the SDK cannot
// hold, one written with escapes — in the acknowledgement and in the
// listen's own result; and a cancel naming it reaches the listen.
func TestE2E_IDsInsideMessages(t *testing.T) {
	rs := startRaw(t)
	ids := []string{`"listen:0"`, `"li\u0073ten&<0>"`, `7.5`, `12345678901234567890`, `-3`, `0`, `"2"`}
	for i, id := range ids {
		// A listen that asks for nothing is answered at once.
		rs.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"subscriptions/listen","params":{`+claudeMeta+`,"notifications":{}}}`)
		ack := rs.recvLine(t)
		assert.Equal(t, id, subscriptionIDOf(t, ack["params"]), "acknowledgement of an empty listen with id %s", id)
		result := rs.recvLine(t)
		assert.Equal(t, id, string(result["id"]))
		require.Contains(t, result, "result", "an empty listen with id %s", id)
		assert.Equal(t, id, subscriptionIDOf(t, result["result"]), "result of an empty listen with id %s", id)

		// Claude Code's listen, under id: it stays open until cancelled.
		rs.send(t, strings.Replace(claudeListen, `"listen:0"`, id, 1))
		ack = rs.recvLine(t)
		assert.Equal(t, id, subscriptionIDOf(t, ack["params"]), "acknowledgement of a listen with id %s", id)
		rs.send(t, strings.Replace(claudeCancel, `"listen:0"`, id, 1))

		// Nothing more was written for the cancelled listen.
		rs.send(t, `{"jsonrpc":"2.0","id":"ping-`+string(rune('a'+i))+`","method":"ping"}`)
		next := rs.recvLine(t)
		assert.Equal(t, `"ping-`+string(rune('a'+i))+`"`, string(next["id"]), "after the listen with id %s", id)
	}
}

// TestE2E_ListenEndsWithTheConnection: a subscriptions/listen left open
// (Claude Code leaves one on every connection) is not waited for when the
// host closes our stdin — even with a drain of ten minutes for calls — nor
// when the server is told to stop: it ends at once, its last answer naming
// the host's listen, and the process exits.
func TestE2E_ListenEndsWithTheConnection(t *testing.T) {
	for _, how := range []string{"eof", "sigterm"} {
		t.Run(how, func(t *testing.T) {
			rs := startRaw(t, "--drain", "10m", "--log-level", "info")
			rs.send(t, claudeListen)
			ack := rs.recvLine(t)
			require.Equal(t, `"listen:0"`, subscriptionIDOf(t, ack["params"]))
			if how == "eof" {
				require.NoError(t, rs.in.Close())
			} else {
				require.NoError(t, rs.cmd.Process.Signal(syscall.SIGTERM))
			}
			// Read to the end of the output, then wait for the exit: Wait
			// closes the pipe.
			rest := make(chan string, 1)
			go func() {
				b, _ := io.ReadAll(rs.out)
				rest <- string(b)
			}()
			var out string
			select {
			case out = <-rest:
			case <-time.After(time.Minute): // the drain is ten
				t.Fatalf("the server did not end its output; stderr: %s", rs.errs.String())
			}
			assert.NoError(t, rs.cmd.Wait(), "stderr: %s", rs.errs.String())
			var end map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(out), &end), "the listen's end as the last line: %q", out)
			assert.Equal(t, `"listen:0"`, string(end["id"]))
			require.Contains(t, end, "result", "the stream's end")
			assert.Equal(t, `"listen:0"`, subscriptionIDOf(t, end["result"]))
			assert.NotContains(t, rs.errs.String(), "answers owed", "nothing was left unanswered")
			assert.NotContains(t, rs.errs.String(), "left unanswered")
		})
	}
}

// Claude Code 2.1.332's first lines to a stdio server, as it wrote them
// (captured through a tee in front of aeat-mcp): a server/discover probe
// and a subscriptions/listen for tools/list_changed, both 2026-07-28.
const (
	claudeMeta     = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude-code","title":"Claude Code","version":"2.1.332","description":"Anthropic's agentic coding tool","websiteUrl":"https://claude.com/claude-code"},"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"elicitation":{"form":{},"url":{}}}}`
	claudeDiscover = `{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{` + claudeMeta + `}}`
	claudeListen   = `{"jsonrpc":"2.0","id":"listen:0","method":"subscriptions/listen","params":{` + claudeMeta + `,"notifications":{"toolsListChanged":true}}}`
	claudeCancel   = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"listen:0",` + claudeMeta + `}}`
)

// subscriptionIDOf is the listen a message names
// (_meta["io.modelcontextprotocol/subscriptionId"] of its params or
// result), exactly as written.
func subscriptionIDOf(t *testing.T, body json.RawMessage) string {
	t.Helper()
	var b struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	require.NoError(t, json.Unmarshal(body, &b), string(body))
	id, ok := b.Meta["io.modelcontextprotocol/subscriptionId"]
	require.True(t, ok, "no subscriptionId in %s", body)
	return string(id)
}
