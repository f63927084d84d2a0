package tasks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Transport decorator in memory: the SDK's own server behind it, a raw
// client in front (no Go client speaks tasks), and a handler that does
// what the server's does with a Request — makes the task of a real run,
// or a task born finished — so that what crosses the SDK is only the
// ticket.

// harness is a session through a Transport.
type harness struct {
	requests *Requests
	tb       *Table
	reg      runs.Registry[*mcp.CallToolResult]
	// seen gets the Request each call's handler found.
	seen chan *Request
	// release ends the runs of "pull"; ran gets each run started.
	release chan struct{}
	ran     chan *Run
	conn    mcp.Connection
	next    int64
	notes   []*jsonrpc.Request
}

// newHarness connects a raw client to an SDK server with the tools "pull"
// (may run as a task) and "look" (may not), through a Transport over
// in-memory transports; without a table when table is false.
func newHarness(t *testing.T, table bool, wrap ...func(mcp.Transport) mcp.Transport) *harness {
	t.Helper()
	h := &harness{requests: &Requests{}, seen: make(chan *Request, 16), release: make(chan struct{}), ran: make(chan *Run, 16)}
	if table {
		h.tb = NewTable(Options{})
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "tasks-test", Version: "1"}, nil)
	schema := map[string]any{"type": "object"}
	srv.AddTool(&mcp.Tool{Name: "pull", InputSchema: schema}, h.handle)
	srv.AddTool(&mcp.Tool{Name: "look", InputSchema: schema}, h.handle)
	ct, st := mcp.NewInMemoryTransports()
	var inner mcp.Transport = st
	for _, w := range wrap {
		inner = w(inner)
	}
	ss, err := srv.Connect(context.Background(), &Transport{Inner: inner, Requests: h.requests, Table: h.tb,
		Tools: func(name string) bool { return name == "pull" }}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	h.conn, err = ct.Connect(context.Background())
	require.NoError(t, err)
	t.Cleanup(func() { h.conn.Close() })
	t.Cleanup(func() {
		select {
		case <-h.release:
		default:
			close(h.release)
		}
	})
	return h
}

// handle is the tools' handler: "pull" with arguments {"refuse": true}, or
// any call of "look", answers at once; a "pull" that may be a task becomes
// the task of a run that ends when release is closed.
func (h *harness) handle(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	rq := h.requests.Of(req.Params.Meta)
	h.seen <- rq
	var args struct{ Refuse bool }
	_ = json.Unmarshal(req.Params.Arguments, &args)
	res := textResult("plain, naming "+ticketKey, false)
	switch {
	case req.Params.Name == "pull" && args.Refuse:
		res = textResult("refused", true)
	case req.Params.Name == "pull" && rq.WantsTask():
		r, _ := h.reg.Start(context.Background(), runs.Spec{Tool: "pull", Tier: "live", Ceiling: time.Minute},
			func(ctx context.Context, _ *Run) (*mcp.CallToolResult, runs.Phase) {
				select {
				case <-h.release:
					return textResult("pulled", false), runs.Completed
				case <-ctx.Done():
					return textResult("cancelled", true), runs.Cancelled
				}
			})
		h.ran <- r
		rq.Assign(h.tb.Create(rq.Gen, r, rq.TTL()))
		return &mcp.CallToolResult{Content: []mcp.Content{}}, nil
	}
	if rq.Owed() {
		rq.Assign(h.tb.Finished(rq.Gen, res, rq.TTL()))
	}
	return res, nil
}

// send writes a request (params a JSON object's text) and returns its id.
func (h *harness) send(t *testing.T, method, params string) jsonrpc.ID {
	t.Helper()
	h.next++
	id, err := jsonrpc.MakeID(float64(h.next))
	require.NoError(t, err)
	require.NoError(t, h.conn.Write(context.Background(), &jsonrpc.Request{ID: id, Method: method, Params: json.RawMessage(params)}))
	return id
}

// answer reads until the answer to id, keeping the notifications.
func (h *harness) answer(t *testing.T, id jsonrpc.ID) *jsonrpc.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), proctest.HangAfter)
	defer cancel()
	for {
		msg, err := h.conn.Read(ctx)
		require.NoError(t, err, "no answer to %v", id)
		switch m := msg.(type) {
		case *jsonrpc.Request:
			h.notes = append(h.notes, m)
		case *jsonrpc.Response:
			require.Equal(t, id, m.ID, "the answer to another request")
			return m
		}
	}
}

// ok sends a request and returns its result, decoded.
func (h *harness) ok(t *testing.T, method, params string) map[string]any {
	t.Helper()
	resp := h.answer(t, h.send(t, method, params))
	require.Nil(t, resp.Error, "%s %s", method, params)
	var m map[string]any
	require.NoError(t, json.Unmarshal(resp.Result, &m))
	return m
}

// refused sends a request that must be refused with code.
func (h *harness) refused(t *testing.T, code int64, method, params string) *jsonrpc.Error {
	t.Helper()
	resp := h.answer(t, h.send(t, method, params))
	var rerr *jsonrpc.Error
	require.ErrorAs(t, resp.Error, &rerr, "%s %s: %s", method, params, resp.Result)
	assert.Equal(t, code, rerr.Code, "%s %s: %v", method, params, rerr)
	return rerr
}

func (h *harness) initialize(t *testing.T, version string) map[string]any {
	t.Helper()
	r := h.ok(t, "initialize", fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`, version))
	require.NoError(t, h.conn.Write(context.Background(), &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}))
	return r
}

// v2Meta is a 2026-07-28 request's _meta, declaring the extension or not.
func v2Meta(declared bool) string {
	caps := `{}`
	if declared {
		caps = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`
	}
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":` + caps + `}`
}

func textOf(res map[string]any) string {
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		return ""
	}
	c, _ := content[0].(map[string]any)
	s, _ := c["text"].(string)
	return s
}

// TestTransport_V1: a 2025-11-25 session learns the tasks capability and
// which tools may run as tasks; a "task" param (escaped or not) reaches the
// handler as a Request of that generation with its time to live, never as
// JSON it could forge; the handle goes out in place of the handler's
// result; tasks/* are served; every request is forgotten once answered.
func TestTransport_V1(t *testing.T) {
	h := newHarness(t, true)
	init := h.initialize(t, "2025-11-25")
	assert.Equal(t, map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
		"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}},
		init["capabilities"].(map[string]any)["tasks"])
	list := h.ok(t, "tools/list", `{}`)
	for _, tool := range list["tools"].([]any) {
		tool := tool.(map[string]any)
		if tool["name"] == "pull" {
			assert.Equal(t, map[string]any{"taskSupport": "optional"}, tool["execution"])
		} else {
			assert.Nil(t, tool["execution"], "%v", tool["name"])
		}
	}

	// The mark: a "task" param written with an escape, a ticket forged in
	// _meta.
	handle := h.ok(t, "tools/call", `{"name":"pull","arguments":{},"t\u0061sk":{"ttl":5000},"_meta":{"aeat-mcp/ticket":"c-forged","progressToken":7}}`)
	rq := <-h.seen
	require.NotNil(t, rq, "the handler finds the transport's request")
	assert.Equal(t, V1, rq.Gen)
	assert.True(t, rq.WantsTask())
	assert.Equal(t, 5*time.Second, rq.TTL())
	assert.True(t, rq.Owed(), "2025-11-25 owes a task to whoever asked")
	assert.NotEqual(t, "c-forged", rq.ticket, "a ticket a client writes is no ticket")
	assert.Nil(t, h.requests.Of(map[string]any{ticketKey: "c-forged"}))
	assert.Nil(t, h.requests.Of(nil))

	task, _ := handle["task"].(map[string]any)
	require.NotNil(t, task, "the handle, not the handler's result: %v", handle)
	id, _ := task["taskId"].(string)
	require.NotEmpty(t, id)
	assert.Equal(t, "working", task["status"])
	assert.Equal(t, 1, len(h.ok(t, "tasks/list", `{}`)["tasks"].([]any)))

	// tasks/result waits for the run; the status change is pushed.
	waiting := h.send(t, "tasks/result", fmt.Sprintf(`{"taskId":%q}`, id))
	close(h.release)
	resp := h.answer(t, waiting)
	require.Nil(t, resp.Error)
	var res map[string]any
	require.NoError(t, json.Unmarshal(resp.Result, &res))
	assert.Equal(t, "pulled", textOf(res))
	assert.Equal(t, map[string]any{"taskId": id}, res["_meta"].(map[string]any)[RelatedTaskKey])
	got := h.ok(t, "tasks/get", fmt.Sprintf(`{"taskId":%q}`, id))
	assert.Equal(t, "completed", got["status"])
	completedSaid := func() bool {
		for _, n := range h.notes {
			var p map[string]any
			if n.Method == MethodStatusV1 && json.Unmarshal(n.Params, &p) == nil && p["status"] == "completed" {
				return true
			}
		}
		return false
	}
	// Not require.Eventually: its condition runs off the test goroutine,
	// and h.ok may fail the test.
	for deadline := time.Now().Add(proctest.HangAfter); !completedSaid(); time.Sleep(10 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "notifications/tasks/status never said completed")
		h.ok(t, "ping", `{}`) // reads on
	}

	// A tool that cannot run as a task, and a "task" that is no object.
	h.refused(t, jsonrpc.CodeMethodNotFound, "tools/call", `{"name":"look","arguments":{},"task":{}}`)
	h.refused(t, jsonrpc.CodeInvalidParams, "tools/call", `{"name":"pull","arguments":{},"task":5}`)
	h.refused(t, jsonrpc.CodeInvalidParams, "tools/call", `{"name":"pull","arguments":{},"_meta":[]}`)

	// An ordinary call: its result, even one that names the ticket key,
	// goes out as it is; its handler still knows the session.
	plain := h.ok(t, "tools/call", `{"name":"look","arguments":{}}`)
	assert.Equal(t, "plain, naming "+ticketKey, textOf(plain))
	rq = <-h.seen
	assert.Equal(t, V1, rq.Gen)
	assert.False(t, rq.WantsTask())

	h.requests.mu.Lock()
	assert.Empty(t, h.requests.m, "every answered request is forgotten")
	h.requests.mu.Unlock()
}

// TestTransport_V1BornFinished: a 2025-11-25 requester that asked for a
// task gets one even when the call ended before any run — "failed" for a
// refusal — and its result through tasks/result.
func TestTransport_V1BornFinished(t *testing.T) {
	h := newHarness(t, true)
	h.initialize(t, "2025-11-25")
	handle := h.ok(t, "tools/call", `{"name":"pull","arguments":{"refuse":true},"task":{}}`)
	<-h.seen
	task := handle["task"].(map[string]any)
	assert.Equal(t, "failed", task["status"])
	res := h.ok(t, "tasks/result", fmt.Sprintf(`{"taskId":%q}`, task["taskId"]))
	assert.Equal(t, "refused", textOf(res))
	assert.Equal(t, true, res["isError"])
}

// TestTransport_V2: a session that never initializes speaks 2026-07-28: a
// call that declares the extension may become a task, one that does not
// is answered as it is; tasks/* need the declaration too, and
// 2025-11-25's methods are not served.
func TestTransport_V2(t *testing.T) {
	h := newHarness(t, true)
	plain := h.ok(t, "tools/call", `{"name":"pull","arguments":{},`+v2Meta(false)+`}`)
	rq := <-h.seen
	assert.Equal(t, V2, rq.Gen)
	assert.False(t, rq.WantsTask())
	assert.Equal(t, "plain, naming "+ticketKey, textOf(plain))

	handle := h.ok(t, "tools/call", `{"name":"pull","arguments":{},`+v2Meta(true)+`}`)
	rq = <-h.seen
	assert.True(t, rq.WantsTask())
	assert.False(t, rq.Owed(), "2026-07-28: the server decides")
	assert.Equal(t, "task", handle["resultType"])
	id := handle["taskId"].(string)

	h.refused(t, CodeMissingCapability, "tasks/get", fmt.Sprintf(`{"taskId":%q,%s}`, id, v2Meta(false)))
	h.refused(t, jsonrpc.CodeMethodNotFound, "tasks/result", fmt.Sprintf(`{"taskId":%q,%s}`, id, v2Meta(true)))
	h.refused(t, CodeMissingCapability, "subscriptions/listen", `{"notifications":{"taskIds":["`+id+`"]},`+v2Meta(false)+`}`)
	got := h.ok(t, "tasks/get", fmt.Sprintf(`{"taskId":%q,%s}`, id, v2Meta(true)))
	assert.Equal(t, "working", got["status"])
	close(h.release)
	for deadline := time.Now().Add(proctest.HangAfter); h.ok(t, "tasks/get", fmt.Sprintf(`{"taskId":%q,%s}`, id, v2Meta(true)))["status"] != "completed"; time.Sleep(20 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the task never completed")
	}
}

// TestTransport_CancelStopsAServedWait: a notifications/cancelled for a
// tasks/result this transport serves stops its wait (the run goes on), and
// never reaches the SDK.
func TestTransport_CancelStopsAServedWait(t *testing.T) {
	h := newHarness(t, true)
	h.initialize(t, "2025-11-25")
	id := h.ok(t, "tools/call", `{"name":"pull","arguments":{},"task":{}}`)["task"].(map[string]any)["taskId"].(string)
	<-h.seen
	waiting := h.send(t, "tasks/result", fmt.Sprintf(`{"taskId":%q}`, id))
	require.NoError(t, h.conn.Write(context.Background(), &jsonrpc.Request{Method: "notifications/cancelled",
		Params: json.RawMessage(fmt.Sprintf(`{"requestId":%v}`, waiting.Raw()))}))
	resp := h.answer(t, waiting) // over stdio, the inner transport sends nothing for it
	require.NotNil(t, resp.Error)
	assert.Contains(t, resp.Error.Error(), "stopped waiting")
	assert.Equal(t, "working", h.ok(t, "tasks/get", fmt.Sprintf(`{"taskId":%q}`, id))["status"], "the run goes on")
}

// TestTransport_NoTable: without a table no task is served, advertised or
// made, and a call still knows its session's generation.
func TestTransport_NoTable(t *testing.T) {
	h := newHarness(t, false)
	init := h.initialize(t, "2025-11-25")
	assert.Nil(t, init["capabilities"].(map[string]any)["tasks"])
	h.refused(t, jsonrpc.CodeMethodNotFound, "tasks/list", `{}`)
	plain := h.ok(t, "tools/call", `{"name":"look","arguments":{},"task":{}}`)
	assert.Equal(t, "plain, naming "+ticketKey, textOf(plain))
	rq := <-h.seen
	assert.Equal(t, V1, rq.Gen)
	assert.False(t, rq.WantsTask())
}

// TestTransport_V1StatusOfARunThatEndsAsItsHandleGoesOut: the run ends
// while its "working" handle is being written — the requester holds a
// handle that says working, and must be told the end. The handle was
// marked sent only after the write, so the watcher saw the end first and
// said nothing: the requester was never told.
func TestTransport_V1StatusOfARunThatEndsAsItsHandleGoesOut(t *testing.T) {
	var h *harness
	h = newHarness(t, true, func(inner mcp.Transport) mcp.Transport {
		return onHandle{inner, func() {
			r := <-h.ran
			close(h.release)
			<-r.Done()
		}}
	})
	h.initialize(t, "2025-11-25")
	handle := h.ok(t, "tools/call", `{"name":"pull","arguments":{},"task":{}}`)
	<-h.seen
	task, _ := handle["task"].(map[string]any)
	require.NotNil(t, task, "the handle: %v", handle)
	id, _ := task["taskId"].(string)
	completedSaid := func() bool {
		for _, n := range h.notes {
			var p map[string]any
			if n.Method == MethodStatusV1 && json.Unmarshal(n.Params, &p) == nil && p["taskId"] == id && p["status"] == "completed" {
				return true
			}
		}
		return false
	}
	if task["status"] == "completed" {
		return // the handle itself said it
	}
	for deadline := time.Now().Add(proctest.HangAfter); !completedSaid(); time.Sleep(10 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the requester holds a %q handle and was never told the run completed", task["status"])
		h.ok(t, "ping", `{}`)
	}
}

// onHandle is a transport whose connection runs hook once a task handle
// is written, before the write returns.
type onHandle struct {
	mcp.Transport
	hook func()
}

func (o onHandle) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := o.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &onHandleConn{Connection: c, hook: o.hook}, nil
}

type onHandleConn struct {
	mcp.Connection
	hook func()
	once sync.Once
}

func (c *onHandleConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if r, ok := msg.(*jsonrpc.Response); ok && bytes.Contains(r.Result, []byte(`"taskId"`)) && !bytes.Contains(r.Result, []byte(`"tasks"`)) {
		c.once.Do(c.hook)
	}
	return err
}
