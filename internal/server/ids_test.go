package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

// pipedSDK is the SDK's own server over a StdioTransport, spoken to through
// pipes: the SDK writes every message it writes in v1.8.0, the transport
// frames it, and the test reads what a host would.
type pipedSDK struct {
	srv *mcp.Server
	tr  *StdioTransport
	in  io.Writer
	out *bufio.Reader
}

func newPipedSDK(t *testing.T) *pipedSDK {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "ids", Version: "1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{
			Tools:     &mcp.ToolCapabilities{ListChanged: true},
			Prompts:   &mcp.PromptCapabilities{ListChanged: true},
			Resources: &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
		},
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := &StdioTransport{In: inR, Out: outW}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_ = srv.Run(ctx, tr)
	}()
	t.Cleanup(func() {
		_ = outR.Close() // a write in progress fails
		_ = inW.Close()
		cancel()
		<-ran
	})
	return &pipedSDK{srv: srv, tr: tr, in: inW, out: bufio.NewReader(outR)}
}

func (p *pipedSDK) send(t *testing.T, line string) {
	t.Helper()
	_, err := io.WriteString(p.in, line+"\n")
	require.NoError(t, err)
}

// recvLine reads one line and decodes its members, each raw.
func (p *pipedSDK) recvLine(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	line, err := p.out.ReadString('\n')
	require.NoError(t, err)
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(line), &m), line)
	return m
}

// TestIDsInsideMessages_EveryPlace: every place of idPlaces, written by
// the SDK itself over the transport, names the host's listen by the
// host's id, byte for byte; the host's cancel, naming it, stops the
// listen (its answer is then owed no more); and every place the table
// lists was written, so that none is listed without being tried.
func TestIDsInsideMessages_EveryPlace(t *testing.T) {
	p := newPipedSDK(t)
	const id = `"li\u0073ten&<0>"` // escapes, and what json.Marshal would escape
	seen := map[string]bool{}

	// A listen that asks for nothing: acknowledged, then answered.
	p.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"subscriptions/listen","params":{`+claudeMeta+`,"notifications":{}}}`)
	for _, want := range []string{"notifications/subscriptions/acknowledged", "subscriptions/listen"} {
		m := p.recvLine(t)
		body := m["params"]
		if _, isResult := m["result"]; isResult {
			body = m["result"]
			assert.Equal(t, id, string(m["id"]))
		} else {
			assert.Equal(t, `"`+want+`"`, string(m["method"]))
		}
		assert.Equal(t, id, subscriptionIDOf(t, body), want)
		seen[want] = true
	}

	// A listen for everything, then a change of each kind.
	p.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"subscriptions/listen","params":{`+claudeMeta+
		`,"notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true,"resourceSubscriptions":["file:///x"]}}}`)
	ack := p.recvLine(t)
	assert.Equal(t, id, subscriptionIDOf(t, ack["params"]), "acknowledgement")
	p.srv.AddTool(&mcp.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	p.srv.AddPrompt(&mcp.Prompt{Name: "p"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	p.srv.AddResource(&mcp.Resource{URI: "file:///x", Name: "x"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	})
	updated := make(chan error, 1)
	go func() { // it writes at once, and the pipe holds nothing until read
		updated <- p.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: "file:///x"})
	}()
	// The three list changes are debounced apart from each other: they
	// come in any order, one of each.
	for range 4 {
		m := p.recvLine(t)
		var method string
		require.NoError(t, json.Unmarshal(m["method"], &method), "%s", m)
		assert.Equal(t, id, subscriptionIDOf(t, m["params"]), method)
		assert.False(t, seen[method], "%s twice", method)
		seen[method] = true
	}
	require.NoError(t, <-updated)

	// The host's cancel reaches the listen under the SDK's id: the listen
	// returns, and its (unsent) answer is all that was owed.
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`}}`)
	assert.True(t, p.tr.WaitAnswered(time.Minute), "the cancelled listen ended")

	for _, place := range idPlaces {
		if place.dir == toHost {
			assert.True(t, seen[place.method], "the SDK wrote no %s", place.method)
		}
	}
}

// TestIDsInsideMessages_NotInFlight: a message of the SDK's that names a
// request no longer in flight is not sent — the host would find an id of
// the transport's, or one it may have reused — and a message without the
// member passes as it is.
func TestIDsInsideMessages_NotInFlight(t *testing.T) {
	var out bytes.Buffer
	c := (&StdioTransport{Out: &out}).newConn()
	ctx := context.Background()
	stale := json.RawMessage(`{"_meta":{"io.modelcontextprotocol/subscriptionId":1}}`)
	require.NoError(t, c.Write(ctx, &jsonrpc.Request{Method: "notifications/tools/list_changed", Params: stale}))
	assert.Empty(t, out.String(), "a notification naming no request in flight")

	legacy := json.RawMessage(`{}`)
	require.NoError(t, c.Write(ctx, &jsonrpc.Request{Method: "notifications/tools/list_changed", Params: legacy}))
	assert.JSONEq(t, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}}`, out.String())
}

// TestIDPlacesReadFromThisSDK: idPlaces lists what one SDK release writes;
// under another, the places must be read from its source again (every
// write of MetaKeySubscriptionID, of a requestId, of an id into _meta)
// before idPlacesSDK moves.
func TestIDPlacesReadFromThisSDK(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	require.NoError(t, err)
	sdk := regexp.MustCompile(`(?m)^\s*(?:require\s+)?github\.com/modelcontextprotocol/go-sdk (\S+)`).FindSubmatch(mod)
	require.NotNil(t, sdk, "go.mod requires no go-sdk")
	assert.Equal(t, idPlacesSDK, string(sdk[1]), "go-sdk changed: read its source for ids inside messages, update idPlaces, then idPlacesSDK")
}
