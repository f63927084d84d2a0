package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transport serves MCP Tasks, which the SDK does not speak, over another
// transport — the shape of the SDK's LoggingTransport: its connection
// wraps the inner one's Read and Write. It
//
//   - learns the session's generation from what was negotiated: what
//     initialize answered, or, when no initialize is made, 2026-07-28's;
//   - serves tasks/* from [Transport.Table] itself, answering through the
//     inner Write (so the inner transport's id echo, cancellation and
//     drain accounting apply as to any answer), and stops a wait the
//     requester cancels;
//   - gives every tools/call a [Request] for its handler — the session's
//     generation and whether the requester may be answered with a task —
//     and, for a call the handler answered with a task, sends the task's
//     handle in place of its result;
//   - adds to a 2025-11-25 session's initialize and tools/list answers the
//     tasks capability and each task tool's execution.taskSupport;
//   - refuses -32021 a 2026-07-28 subscriptions/listen that asks for task
//     status without declaring the extension;
//   - pushes a 2025-11-25 task's status notifications.
//
// Every decision is taken on decoded params, never on their bytes: a key
// may be written with escapes ("t\u0061sk") and mean the same. A
// tools/call's params reach the SDK rewritten from their members as read
// here — one "_meta", one of each key, no escapes in the keys — so that
// the SDK reads exactly what was decided here: with a key written twice,
// Go's decoder keeps the last while the SDK's merges two "_meta" objects.
// The values are passed on as written, in one copy (a call's arguments may
// be megabytes).
type Transport struct {
	// Inner carries the messages: framing, ids, cancellation, drain.
	Inner mcp.Transport
	// Requests is where handlers find what this transport learned of each
	// tools/call. Required.
	Requests *Requests
	// Table holds the tasks. If nil, no tasks are served: tasks/* go on to
	// the SDK (which answers "method not found") and no call becomes a
	// task — but every tools/call still carries its session's generation.
	Table *Table
	// Tools reports whether a tool may run as a task (2025-11-25's
	// execution.taskSupport "optional"); nil: none may.
	Tools  func(name string) bool
	Logger *slog.Logger
}

// Connect implements [mcp.Transport].
func (t *Transport) Connect(ctx context.Context) (mcp.Connection, error) {
	if t.Requests == nil {
		return nil, errors.New("tasks: a Transport needs Requests")
	}
	inner, err := t.Inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	logger := t.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	c := &conn{inner: inner, t: t, logger: logger, done: make(chan struct{}),
		views: map[jsonrpc.ID]string{}, calls: map[jsonrpc.ID]*Request{}, served: map[jsonrpc.ID]context.CancelFunc{}}
	return c, nil
}

// Methods the transport looks at besides tasks/*.
const (
	methodInitialize = "initialize"
	methodToolsList  = "tools/list"
	methodToolsCall  = "tools/call"
	methodListen     = "subscriptions/listen"
	methodCancelled  = "notifications/cancelled"
)

type conn struct {
	inner  mcp.Connection
	t      *Transport
	logger *slog.Logger
	done   chan struct{}
	once   sync.Once

	// writeMu orders a task's handle before its status notifications: the
	// handle is written under it, and so is every notification.
	writeMu sync.Mutex

	mu sync.Mutex
	// The session's negotiation: an initialize in flight, one answered
	// (and what it answered).
	initializing bool
	initialized  bool
	gen          Generation
	// views are the requests whose answers this transport edits
	// (initialize, tools/list), by id.
	views map[jsonrpc.ID]string
	// calls are the tools/call requests passed on and not yet answered.
	calls map[jsonrpc.ID]*Request
	// served are the tasks/* requests being answered here, each with the
	// function that stops its wait.
	served map[jsonrpc.ID]context.CancelFunc
}

func (c *conn) SessionID() string { return c.inner.SessionID() }

// generation is the session's: the one initialize negotiated; none while
// an initialize is being answered; 2026-07-28's when no initialize was
// made (that protocol has none: every request carries its own version and
// capabilities).
func (c *conn) generation() Generation {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.initialized:
		return c.gen
	case c.initializing:
		return None
	}
	return V2
}

func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.inner.Read(ctx)
		if err != nil {
			return nil, err
		}
		if msg = c.read(msg); msg != nil {
			return msg, nil
		}
	}
}

// read is what the SDK gets of msg: msg itself, msg with its params
// marked, or nothing (the transport answered it, or it was a cancel of a
// request served here).
func (c *conn) read(msg jsonrpc.Message) jsonrpc.Message {
	req, ok := msg.(*jsonrpc.Request)
	switch {
	case !ok:
		return msg
	case !req.IsCall():
		if req.Method == methodCancelled && c.stopServed(req.Params) {
			return nil
		}
		return msg
	case req.Method == methodToolsCall:
		return c.call(req)
	case req.Method == methodInitialize, req.Method == methodToolsList:
		c.view(req)
		return msg
	case c.t.Table == nil:
		return msg
	case IsMethod(req.Method):
		c.serve(req)
		return nil
	case req.Method == methodListen && c.refusedListen(req):
		return nil
	}
	return msg
}

// view records a request whose answer this transport edits.
func (c *conn) view(req *jsonrpc.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.views[req.ID] = req.Method
	if req.Method == methodInitialize && !c.initialized {
		c.initializing = true
	}
}

func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return c.inner.Write(ctx, msg)
	}
	c.mu.Lock()
	rq, view := c.calls[resp.ID], c.views[resp.ID]
	delete(c.calls, resp.ID)
	delete(c.views, resp.ID)
	c.mu.Unlock()
	switch {
	case rq != nil:
		c.t.Requests.forget(rq)
		if task := rq.Assigned(); task != nil && resp.Error == nil {
			return c.writeHandle(ctx, resp.ID, task)
		}
	case view == methodInitialize:
		resp = c.initializedBy(resp)
	case view == methodToolsList:
		if c.marksList() {
			ctx = context.WithValue(ctx, marksToolsKey{}, true)
		}
		resp = c.listed(resp)
	}
	return c.inner.Write(ctx, resp)
}

// writeHandle answers a call with its task's handle; progress and status
// notifications about the task may follow once it is written.
//
// The task is marked sent before its handle is read and written, under
// writeMu: a run that ends while the handle is on its way is then told by
// a status notification written after the handle (or by the handle itself,
// read after the end). Marked after the write, as it was, a run that ended
// in between — the requester already holding a "working" handle — was
// never told at all.
func (c *conn) writeHandle(ctx context.Context, id jsonrpc.ID, task *Task) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	task.Sent()
	handle, err := task.Handle()
	if err != nil {
		return c.inner.Write(ctx, &jsonrpc.Response{ID: id, Error: internal(err)})
	}
	return c.inner.Write(ctx, &jsonrpc.Response{ID: id, Result: handle})
}

// initializedBy records what initialize negotiated — the generation of
// the version it answered — and gives a 2025-11-25 session's answer the
// tasks capability.
func (c *conn) initializedBy(resp *jsonrpc.Response) *jsonrpc.Response {
	c.mu.Lock()
	c.initializing = false
	if resp.Error == nil && !c.initialized {
		c.initialized = true
		c.gen = GenerationOf(protocolVersionOf(resp.Result))
	}
	gen := c.gen
	c.mu.Unlock()
	if resp.Error != nil || c.t.Table == nil || !gen.spec().advertised {
		return resp
	}
	out, err := withCapability(resp.Result)
	if err != nil {
		return resp
	}
	return &jsonrpc.Response{ID: resp.ID, Result: out}
}

// listed gives a 2025-11-25 session's tools/list answer each task tool's
// execution.taskSupport.
func (c *conn) listed(resp *jsonrpc.Response) *jsonrpc.Response {
	if resp.Error != nil || !c.marksList() {
		return resp
	}
	out, err := withTaskSupport(resp.Result, c.t.Tools)
	if err != nil {
		return resp
	}
	return &jsonrpc.Response{ID: resp.ID, Result: out}
}

// marksList reports whether this session's tools/list answers mark the
// task tools: tasks are served, and its generation advertises them.
func (c *conn) marksList() bool {
	return c.t.Table != nil && c.generation().spec().advertised
}

// marksToolsKey is the context key of [MarksTools].
type marksToolsKey struct{}

// MarksTools reports whether the tools/list answer written with ctx — by
// this transport, to its inner connection — is one whose task tools it
// marks (execution.taskSupport, a 2025-11-25 session's). A connection under
// it that writes tools of its own into the answer (the server's tools/list
// made once) marks them with [MarkLast] when this says so, as this
// transport would have.
func MarksTools(ctx context.Context) bool { return ctx.Value(marksToolsKey{}) != nil }

// MarkLast marks the tool object b ends with — one tool as the SDK
// encodes it into a tools/list answer: compact, with no execution member —
// as one that may run as a task: what withTaskSupport makes of it, without
// reading it.
func MarkLast(b []byte) []byte {
	b = append(b[:len(b)-1], `,"execution":`...)
	b = append(b, v1Execution...)
	return append(b, '}')
}

func (c *conn) Close() error {
	c.once.Do(func() {
		close(c.done)
		c.mu.Lock()
		for _, stop := range c.served {
			stop()
		}
		for _, rq := range c.calls {
			c.t.Requests.forget(rq)
		}
		c.mu.Unlock()
	})
	return c.inner.Close()
}

// notify pushes a notification to the requester (a task's status); after
// Close it is dropped.
func (c *conn) notify(method string, params any) {
	select {
	case <-c.done:
		return
	default:
	}
	raw, err := json.Marshal(params)
	if err != nil {
		c.logger.Warn("a notification could not be encoded", "method", method, "error", err)
		return
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_ = c.inner.Write(context.Background(), &jsonrpc.Request{Method: method, Params: raw})
}

// reply writes the answer to a request the SDK never sees.
func (c *conn) reply(id jsonrpc.ID, result json.RawMessage, rerr *jsonrpc.Error) {
	resp := &jsonrpc.Response{ID: id, Result: result}
	if rerr != nil {
		c.logger.Debug("task request refused", "code", rerr.Code, "reason", rerr.Message)
		resp = &jsonrpc.Response{ID: id, Error: rerr}
	}
	_ = c.inner.Write(context.Background(), resp)
}

// serve answers a tasks/* request from the table, on a goroutine of its
// own: tasks/result blocks until its task ends. A notifications/cancelled
// for it, or the connection's end, stops the wait; the inner transport
// then sends nothing for a cancelled request.
func (c *conn) serve(req *jsonrpc.Request) {
	ctx, stop := context.WithCancel(context.Background())
	c.mu.Lock()
	c.served[req.ID] = stop
	c.mu.Unlock()
	gen := c.generation()
	go func() {
		defer stop()
		result, rerr := c.t.Table.Serve(ctx, gen, req.Method, req.Params)
		c.mu.Lock()
		delete(c.served, req.ID)
		c.mu.Unlock()
		c.reply(req.ID, result, rerr)
	}()
}

// stopServed stops the wait of a served request that a
// notifications/cancelled names, and reports whether it was one.
func (c *conn) stopServed(params json.RawMessage) bool {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID == nil {
		return false
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil {
		return false
	}
	c.mu.Lock()
	stop, ok := c.served[id]
	c.mu.Unlock()
	if ok {
		stop()
	}
	return ok
}

// refusedListen answers -32021 to a 2026-07-28 subscriptions/listen that
// asks for task status notifications without declaring the extension, as
// that spec says. One that declares it goes on to the SDK, whose
// acknowledgement lists no task ids: the server agrees to push none, and
// the host polls tasks/get.
func (c *conn) refusedListen(req *jsonrpc.Request) bool {
	if !ListensForTasks(req.Params) || Declared(req.Params) {
		return false
	}
	c.reply(req.ID, nil, MissingCapability("subscriptions/listen with notifications.taskIds"))
	return true
}

// call passes a tools/call on with its ticket, or answers it with the
// JSON-RPC error its params call for.
func (c *conn) call(req *jsonrpc.Request) jsonrpc.Message {
	rq, params, rerr := c.mark(req.Params)
	switch {
	case rerr != nil:
		c.reply(req.ID, nil, rerr)
		return nil
	case rq == nil:
		return req // not an object: the SDK refuses it
	}
	c.mu.Lock()
	c.calls[req.ID] = rq
	c.mu.Unlock()
	return &jsonrpc.Request{ID: req.ID, Method: req.Method, Params: params}
}

// mark reads a tools/call's params on their way to the SDK: the request
// its handler will find (by the ticket added to _meta), and the params
// rewritten from their members as read here (membersOf) — one of each key,
// the last where a key is written twice, as Go's decoder keeps; keys
// without escapes; "task" dropped; the _meta re-encoded with the ticket —
// and every other value passed on byte for byte, in one copy. A ticket a
// client wrote is dropped.
func (c *conn) mark(params json.RawMessage) (*Request, json.RawMessage, *jsonrpc.Error) {
	members, ok := membersOf(params)
	if !ok {
		return nil, params, nil
	}
	p := make(map[string]json.RawMessage, len(members))
	for _, m := range members {
		p[m.key] = m.value
	}
	meta := map[string]json.RawMessage{}
	if raw := p["_meta"]; len(raw) > 0 && string(raw) != "null" {
		if json.Unmarshal(raw, &meta) != nil || meta == nil {
			return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `invalid params: "_meta" must be an object`}
		}
	}
	rq := &Request{Gen: c.generation(), notify: c.notify}
	if rerr := c.wants(rq, p, meta); rerr != nil {
		return nil, nil, rerr
	}
	meta[ticketKey], _ = json.Marshal(c.t.Requests.issue(rq))
	var err error
	if p["_meta"], err = json.Marshal(meta); err != nil {
		c.t.Requests.forget(rq)
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: " + err.Error()}
	}
	return rq, encodeMembers(p), nil
}

// encodeMembers writes the object of members p, keys in order, in one
// buffer of its exact size.
func encodeMembers(p map[string]json.RawMessage) json.RawMessage {
	keys := make([]string, 0, len(p))
	quoted := make(map[string][]byte, len(p))
	size := len("{}")
	for k, v := range p {
		q, _ := json.Marshal(k) // a string always encodes
		keys = append(keys, k)
		quoted[k] = q
		size += len(q) + len(":,") + len(v)
	}
	slices.Sort(keys)
	out := make([]byte, 0, size)
	out = append(out, '{')
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(append(append(out, quoted[k]...), ':'), p[k]...)
	}
	return append(out, '}')
}

// wants decides whether the requester of a tools/call (params p, _meta
// meta) may be answered with a task, the way its session's generation asks
// for one: 2025-11-25 with a "task" param (which the SDK would drop),
// refused -32601 for a tool that cannot run as a task, as that spec says;
// 2026-07-28 by declaring the extension in the request's own
// capabilities. A "task" param is dropped in every case.
func (c *conn) wants(rq *Request, p, meta map[string]json.RawMessage) *jsonrpc.Error {
	task, asked := p["task"]
	delete(p, "task")
	if c.t.Table == nil {
		return nil
	}
	switch rq.Gen.spec().requested {
	case byParam:
		if !asked {
			return nil
		}
		ttl, valid := taskTTL(task)
		if !valid {
			return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `invalid params: "task" must be an object ({"ttl": milliseconds})`}
		}
		var name string
		_ = json.Unmarshal(p["name"], &name)
		if c.t.Tools == nil || !c.t.Tools(name) {
			return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
				Message: fmt.Sprintf("tool %q cannot run as a task (its execution.taskSupport is forbidden): call it without \"task\"", name)}
		}
		rq.wants, rq.ttl = true, ttl
	case byDeclaring:
		rq.wants = DeclaredIn(meta[ClientCapabilitiesKey])
	}
	return nil
}

// taskTTL reads a 2025-11-25 "task" param: an object, whose "ttl" (if any)
// is a number of milliseconds; a ttl that is not positive asks for none.
func taskTTL(raw json.RawMessage) (ttl time.Duration, ok bool) {
	var t map[string]json.RawMessage
	if json.Unmarshal(raw, &t) != nil || t == nil {
		return 0, false
	}
	var ms *float64
	if v, has := t["ttl"]; has && json.Unmarshal(v, &ms) != nil {
		return 0, false
	}
	if ms != nil && *ms > 0 {
		return time.Duration(min(*ms, float64(math.MaxInt64/2)/float64(time.Millisecond))) * time.Millisecond, true
	}
	return 0, true
}

// v1Capability is the 2025-11-25 server capability: tasks/list,
// tasks/cancel, and task-augmented tools/call.
var v1Capability = json.RawMessage(`{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}`)

// v1Execution is what a 2025-11-25 tools/list says of a tool that may run
// as a task.
var v1Execution = json.RawMessage(`{"taskSupport":"optional"}`)

// withCapability adds capabilities.tasks to an initialize result. The
// result is read where it lies (membersOf) and written again with the
// capability set, everything else byte for byte, as withTaskSupport does: a
// decoding into maps and an encoding again (the instructions text
// validated, decoded and re-escaped twice over) was 80 µs of every
// 2025-11-25 start before its answer to initialize could go out.
func withCapability(result json.RawMessage) (json.RawMessage, error) {
	members, ok := membersOf(result)
	if !ok {
		return nil, errors.New("initialize: the result is not a JSON object")
	}
	// A key written twice means its last value (encoding/json, JSON.parse;
	// protocolVersionOf reads so too): the capability goes in that one.
	last := -1
	for i, m := range members {
		if m.key == "capabilities" {
			last = i
		}
	}
	out := make([]byte, 0, len(result)+len(v1Capability)+32)
	out = append(out, '{')
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendKey(out, m.key)
		if i != last {
			out = append(out, m.value...)
			continue
		}
		if out, ok = appendCapability(out, m.value); !ok {
			return nil, errors.New("initialize: capabilities is not a JSON object")
		}
	}
	if last < 0 {
		if len(members) > 0 {
			out = append(out, ',')
		}
		out = appendKey(out, "capabilities")
		out, _ = appendCapability(out, []byte(`{}`))
	}
	return append(out, '}'), nil
}

// appendCapability appends caps, a capabilities object, with its tasks
// member set to v1Capability.
func appendCapability(out, caps []byte) ([]byte, bool) {
	members, ok := membersOf(caps)
	if !ok {
		return nil, false
	}
	return appendSet(out, members, "tasks", v1Capability), true
}

// appendSet appends the object of members with its member key set to
// value: written last, in place of any it had.
func appendSet(out []byte, members []objectMember, key string, value json.RawMessage) []byte {
	out = append(out, '{')
	for _, m := range members {
		if m.key == key {
			continue // replaced below
		}
		out = appendKey(out, m.key)
		out = append(out, m.value...)
		out = append(out, ',')
	}
	out = appendKey(out, key)
	out = append(out, value...)
	return append(out, '}')
}

// withTaskSupport marks the tools of a tools/list result that may run as
// tasks. The result is read where it lies (membersOf, elementsOf) and
// written again with each such tool's execution member set, everything
// else byte for byte: a whole CLI lists hundreds of tools (420 KB for the
// whole aeat), which a decoding into maps and an encoding again made a
// third of a session's start-up.
func withTaskSupport(result json.RawMessage, supports func(string) bool) (json.RawMessage, error) {
	members, ok := membersOf(result)
	if !ok {
		return nil, errors.New("tools/list: the result is not a JSON object")
	}
	out := make([]byte, 0, len(result)+len(result)/8)
	out = append(out, '{')
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendKey(out, m.key)
		if m.key != "tools" {
			out = append(out, m.value...)
			continue
		}
		tools, ok := elementsOf(m.value)
		if !ok {
			return nil, errors.New("tools/list: tools is not a JSON array")
		}
		out = append(out, '[')
		for k, tool := range tools {
			if k > 0 {
				out = append(out, ',')
			}
			if out, ok = appendTool(out, tool, supports); !ok {
				return nil, errors.New("tools/list: a tool is not a JSON object")
			}
		}
		out = append(out, ']')
	}
	return append(out, '}'), nil
}

// appendTool appends tool, with its execution member set when supports
// says it may run as a task.
func appendTool(out, tool []byte, supports func(string) bool) ([]byte, bool) {
	members, ok := membersOf(tool)
	if !ok {
		return nil, false
	}
	var name string
	for _, m := range members {
		if m.key == "name" && len(m.value) >= 2 && m.value[0] == '"' {
			name, _ = decodeKey(m.value)
		}
	}
	if name == "" || supports == nil || !supports(name) {
		return append(out, tool...), true
	}
	return appendSet(out, members, "execution", v1Execution), true
}

// appendKey appends key, quoted as json.Marshal quotes it, and the colon
// after it. A key of plain ASCII — every key the SDK writes — is appended
// as it is, with no encoding's allocation.
func appendKey(out []byte, key string) []byte {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(key) // a string always encodes
			return append(append(out, q...), ':')
		}
	}
	out = append(out, '"')
	out = append(out, key...)
	return append(out, '"', ':')
}

// protocolVersionOf reads an initialize result's protocol version: the
// member read where it lies, not the whole answer decoded (its
// instructions text is most of it); "" when there is none. A key written
// twice counts as encoding/json counts it: the last.
func protocolVersionOf(result json.RawMessage) string {
	members, _ := membersOf(result)
	v := ""
	for _, m := range members {
		if m.key == "protocolVersion" {
			v = ""
			if len(m.value) >= 2 && m.value[0] == '"' {
				v, _ = decodeKey(m.value)
			}
		}
	}
	return v
}
