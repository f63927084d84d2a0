package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/aeat-mcp/aeat-mcp/internal/tasks"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MCP Tasks on the wire (DESIGN.md §9). The SDK speaks neither generation,
// so the transport does what only it can: it serves tasks/* from the task
// table, tells the call handler which tools/call may become a task, sends
// the handle in place of the handler's result, and adds to initialize and
// tools/list what a 2025-11-25 requester looks for. Deciding is left to the
// handler; the wire, to this file.

// v1Capability is the 2025-11-25 server capability: tasks/list,
// tasks/cancel, and task-augmented tools/call.
var v1Capability = json.RawMessage(`{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}`)

// v1Execution is what a 2025-11-25 tools/list says of a tool that may run
// as a task.
var v1Execution = json.RawMessage(`{"taskSupport":"optional"}`)

// generation is the tasks generation of the session: the initialized
// protocol's; none while an initialize is being answered; 2026-07-28's when
// no initialize was done (that protocol has none: every request carries its
// own version and capabilities).
func (c *stdioConn) generation() tasks.Generation {
	c.cmu.Lock()
	defer c.cmu.Unlock()
	switch {
	case c.initDone:
		return c.gen
	case c.initBusy:
		return tasks.None
	}
	return tasks.V2
}

// serveTask answers a tasks/* request from the table, in a goroutine of its
// own: tasks/result blocks until its task ends. The request counts as in
// flight like any other (the drain waits for it), and a notifications/
// cancelled for it stops the wait and silences the answer.
func (c *stdioConn) serveTask(id json.RawMessage, method string, params json.RawMessage) {
	ctx, stop := context.WithCancel(context.Background())
	own, refusal := c.admit(id, &inbound{method: method, stop: stop})
	if refusal != nil {
		stop()
		c.refuse(id, refusal)
		return
	}
	gen := c.generation()
	go func() {
		defer stop()
		go func() {
			select {
			case <-c.done: // the connection is closing
				stop()
			case <-ctx.Done():
			}
		}()
		result, rerr := c.tasks.Serve(ctx, gen, method, params)
		c.cmu.Lock()
		in := c.pending[own]
		delete(c.pending, own)
		if in != nil {
			delete(c.byRaw, string(in.raw))
		}
		c.cmu.Unlock()
		if in == nil || in.cancelled {
			return
		}
		if rerr != nil {
			c.logger.Debug("task request refused", "method", method, "code", rerr.Code, "reason", rerr.Message)
			_ = c.writeLine(encodeResponse(in.raw, nil, rerr))
			return
		}
		_ = c.writeLine(encodeResponse(in.raw, result, nil))
	}()
}

// markTask looks at a tools/call's params on their way to the SDK: a call
// that may be answered with a task gets the transport's mark in _meta, and
// the rest lose any mark a client wrote itself. A 2025-11-25 call asks with
// a "task" param (which the SDK would drop), refused with -32601 for a tool
// that cannot run as a task, as that spec says; a 2026-07-28 call by
// declaring the extension in its own capabilities.
//
// Every decision is taken on the decoded params, never on their bytes: a key
// may be written with escapes ("aeat-mcp\/task", "t\u0061sk") and mean the
// same. And the SDK gets the params re-encoded from that decoding — one
// "_meta", one of each key, no escapes in the keys — so that it reads
// exactly what was decided here: with a key written twice, Go's decoder
// keeps the last, while the SDK's merges two "_meta" objects and would
// find a mark in the first.
func (c *stdioConn) markTask(params json.RawMessage) (json.RawMessage, bool, *jsonrpc.Error) {
	gen := c.generation()
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil || p == nil {
		return params, false, nil // not an object: the SDK refuses it
	}
	meta := map[string]json.RawMessage{}
	if raw := p["_meta"]; len(raw) > 0 && string(raw) != "null" {
		if json.Unmarshal(raw, &meta) != nil || meta == nil {
			return nil, false, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `invalid params: "_meta" must be an object`}
		}
	}
	_, forged := meta[tasks.MarkKey]
	delete(meta, tasks.MarkKey)
	var mark *tasks.Mark
	switch task, ok := p["task"]; {
	case ok && gen == tasks.V1:
		ttl, valid := taskTTL(task)
		if !valid {
			return nil, false, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `invalid params: "task" must be an object ({"ttl": milliseconds})`}
		}
		var name string
		_ = json.Unmarshal(p["name"], &name)
		if c.taskTools == nil || !c.taskTools(name) {
			return nil, false, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
				Message: fmt.Sprintf("tool %q cannot run as a task (its execution.taskSupport is forbidden): call it without \"task\"", name)}
		}
		mark = &tasks.Mark{Gen: tasks.V1, TTLMs: ttl}
		delete(p, "task")
	case ok:
		// Not a 2025-11-25 session: "task" means nothing here, and is
		// dropped as the SDK would.
		delete(p, "task")
	case gen == tasks.V2 && tasks.DeclaredIn(meta[tasks.ClientCapabilitiesKey]):
		mark = &tasks.Mark{Gen: tasks.V2}
	}
	if mark != nil {
		meta[tasks.MarkKey], _ = json.Marshal(mark)
	}
	switch {
	case len(meta) == 0:
		delete(p, "_meta")
	case forged || mark != nil:
		p["_meta"], _ = json.Marshal(meta)
	}
	out, err := json.Marshal(p)
	if err != nil {
		return nil, false, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: " + err.Error()}
	}
	return out, mark != nil, nil
}

// taskTTL reads a 2025-11-25 "task" param: an object, whose "ttl" (if any)
// is a number of milliseconds; a ttl that is not positive asks for none.
func taskTTL(raw json.RawMessage) (ttlMs int64, ok bool) {
	var t map[string]json.RawMessage
	if json.Unmarshal(raw, &t) != nil || t == nil {
		return 0, false
	}
	var ttl *float64
	if v, has := t["ttl"]; has && json.Unmarshal(v, &ttl) != nil {
		return 0, false
	}
	if ttl != nil && *ttl > 0 {
		return int64(min(*ttl, float64(math.MaxInt64/2))), true
	}
	return 0, true
}

// refusedListen answers -32021 to a 2026-07-28 subscriptions/listen that
// asks for task status notifications without declaring the extension, as
// that spec says. One that declares it goes on to the SDK, whose
// acknowledgement lists no task ids: the server agrees to push none, and
// the host polls tasks/get.
func (c *stdioConn) refusedListen(id json.RawMessage, params json.RawMessage) bool {
	if !tasks.ListensForTasks(params) || tasks.Declared(params) {
		return false
	}
	rerr := tasks.MissingCapability("subscriptions/listen with notifications.taskIds")
	c.logger.Debug("task request refused", "method", "subscriptions/listen", "code", rerr.Code)
	_ = c.writeLine(encodeResponse(id, nil, rerr))
	return true
}

// taskView is a result as a tasks-speaking session sees it: a marked call's
// result that carries a handle becomes the handle (and sent names its task,
// whose notifications may begin once it is written); a 2025-11-25
// initialize gains the tasks capability and its tools/list the tools'
// taskSupport.
func (c *stdioConn) taskView(in *inbound, result json.RawMessage) (view json.RawMessage, sent string) {
	switch {
	case in.task:
		if handle, id := tasks.HandleOf(result); handle != nil {
			return handle, id
		}
	case in.method == "initialize" && c.generation() == tasks.V1:
		if out, err := withCapability(result); err == nil {
			return out, ""
		}
	case in.method == "tools/list" && c.generation() == tasks.V1:
		if out, err := withTaskSupport(result, c.taskTools); err == nil {
			return out, ""
		}
	}
	return result, ""
}

// withCapability adds capabilities.tasks to an initialize result.
func withCapability(result json.RawMessage) (json.RawMessage, error) {
	var r map[string]json.RawMessage
	if err := json.Unmarshal(result, &r); err != nil {
		return nil, err
	}
	caps := map[string]json.RawMessage{}
	if raw := r["capabilities"]; len(raw) > 0 {
		if err := json.Unmarshal(raw, &caps); err != nil {
			return nil, err
		}
	}
	caps["tasks"] = v1Capability
	var err error
	if r["capabilities"], err = json.Marshal(caps); err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// withTaskSupport marks the tools of a tools/list result that may run as
// tasks.
func withTaskSupport(result json.RawMessage, supports func(string) bool) (json.RawMessage, error) {
	var r map[string]json.RawMessage
	if err := json.Unmarshal(result, &r); err != nil {
		return nil, err
	}
	var tools []map[string]json.RawMessage
	if err := json.Unmarshal(r["tools"], &tools); err != nil {
		return nil, err
	}
	for _, t := range tools {
		var name string
		if json.Unmarshal(t["name"], &name) == nil && supports != nil && supports(name) {
			t["execution"] = v1Execution
		}
	}
	var err error
	if r["tools"], err = json.Marshal(tools); err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// protocolVersionOf reads an initialize result's protocol version.
func protocolVersionOf(result json.RawMessage) string {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(result, &r)
	return r.ProtocolVersion
}

// Notify writes a notification to the host (the task table's status
// notifications); before Connect, or after Close, it is dropped.
func (t *StdioTransport) Notify(method string, params any) {
	t.mu.Lock()
	c := t.conn
	t.mu.Unlock()
	if c == nil {
		return
	}
	select {
	case <-c.done:
		return
	default:
	}
	data, err := json.Marshal(struct {
		Version string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
	if err != nil {
		c.logger.Warn("a notification could not be encoded", "method", method, "error", err)
		return
	}
	_ = c.writeLine(data)
}
