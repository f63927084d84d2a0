package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listPage bounds the tasks of one tasks/list answer.
const listPage = 50

var complete = json.RawMessage(`{"resultType":"complete"}`)

// Serve answers one tasks/* request from a session of generation gen: the
// result to send, or the JSON-RPC error. It blocks only for tasks/result
// (until the task ends) and tasks/cancel (until the tree is dead); ctx ends
// the wait when the requester cancels the request or the server stops.
func (tb *Table) Serve(ctx context.Context, gen Generation, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
	spec := gen.spec()
	if !spec.serves(method) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method not found: %s is not served to a %s session", method, spec.session)}
	}
	if spec.declared && !Declared(params) {
		return nil, MissingCapability(method)
	}
	if method == methodList {
		return tb.serveList(gen, params)
	}
	var p struct {
		TaskID         string                     `json:"taskId"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.TaskID == "" {
		return nil, invalid("invalid params: %s needs a taskId (a string)", method)
	}
	t, expired := tb.lookup(p.TaskID, gen)
	if t == nil {
		why := "Task not found"
		if expired {
			why = "Task has expired"
		}
		return nil, invalid("statusFailed to retrieve task: %s", why)
	}
	switch method {
	case methodGet:
		return t.serveGet()
	case methodResult:
		return t.serveResult(ctx)
	case methodCancel:
		return t.serveCancel(ctx)
	default: // methodUpdate
		return t.serveUpdate(p.InputResponses)
	}
}

// ListensForTasks reports whether a subscriptions/listen request asks for
// task status notifications (notifications.taskIds). Keys are matched
// exactly, as the SDK matches them, after decoding (escapes resolved).
func ListensForTasks(params json.RawMessage) bool {
	notifications := member(params, "notifications")
	return len(member(notifications, "taskIds")) > 0
}

// Declared reports whether a 2026-07-28 request's params declare the tasks
// extension in its per-request capabilities (an object, as the schema
// says; anything else does not count).
func Declared(params json.RawMessage) bool {
	return DeclaredIn(member(member(params, "_meta"), ClientCapabilitiesKey))
}

// DeclaredIn reports whether a request's per-request capabilities (the
// value of its _meta[ClientCapabilitiesKey]) declare the tasks extension.
// Keys are matched exactly after decoding: "extensions" (not
// "Extensions"), the extension's id with or without escapes.
func DeclaredIn(capabilities json.RawMessage) bool {
	ext := member(member(capabilities, "extensions"), ExtensionID)
	var settings map[string]any
	return len(ext) > 0 && json.Unmarshal(ext, &settings) == nil && settings != nil
}

// member is the value of key in a JSON object, matched exactly after
// decoding (the last one where a key is written twice); nil when raw is no
// object or has no such key.
func member(raw json.RawMessage, key string) json.RawMessage {
	var obj map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &obj) != nil {
		return nil
	}
	return obj[key]
}

// MissingCapability is 2026-07-28's error for a request that needs the
// extension declared and does not declare it.
func MissingCapability(method string) *jsonrpc.Error {
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{ExtensionID: map[string]any{}}}})
	return &jsonrpc.Error{Code: CodeMissingCapability,
		Message: "Missing required client capability: " + method + " needs the " + ExtensionID + " extension declared in the request's capabilities",
		Data:    data}
}

func invalid(format string, args ...any) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

func internal(err error) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}

func encode(v any) (json.RawMessage, *jsonrpc.Error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, internal(err)
	}
	return raw, nil
}

func (t *Task) serveGet() (json.RawMessage, *jsonrpc.Error) {
	w, err := t.Gen.spec().get(t, t.snap())
	if err != nil {
		return nil, internal(err)
	}
	return encode(w)
}

// serveResult is 2025-11-25's tasks/result: it blocks until the task ends,
// then returns exactly what the ordinary call would have, with the
// related-task key.
func (t *Task) serveResult(ctx context.Context) (json.RawMessage, *jsonrpc.Error) {
	select {
	case <-t.Done():
	case <-ctx.Done():
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tasks/result: stopped waiting: " + context.Cause(ctx).Error()}
	}
	res, _ := t.Result()
	raw, err := encodeResult(res, t.Gen, t.ID)
	if err != nil {
		return nil, internal(err)
	}
	return raw, nil
}

// serveCancel kills the task's tree and answers once it is dead: 2025-11-25
// with the task (cancelled), and refuses a task that already ended;
// 2026-07-28 with an empty acknowledgement, also for a task that ended
// (cancellation there is cooperative).
func (t *Task) serveCancel(ctx context.Context) (json.RawMessage, *jsonrpc.Error) {
	spec := t.Gen.spec()
	if s := t.snap(); s.status.terminal() {
		if spec.refusesEndedCancel {
			return nil, invalid("Cannot cancel task: it has already ended (%s)", s.status)
		}
		return complete, nil
	}
	t.cancel()
	select {
	case <-t.Done():
	case <-ctx.Done():
	}
	return encode(spec.cancelled(t, t.snap()))
}

// serveUpdate is 2026-07-28's tasks/update: each answer goes to the open
// question with its key. An answer to a question this task did not ask —
// never issued, already answered, or withdrawn — is ignored, never applied
// (docs/ARCHITECTURE.md, "Invariants"); a request none of whose answers was applied is refused,
// so a forger learns nothing was done.
func (t *Task) serveUpdate(responses map[string]json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
	if len(responses) == 0 {
		return nil, invalid("invalid params: tasks/update needs inputResponses")
	}
	keys := make([]string, 0, len(responses))
	for k := range responses {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var ignored []string
	applied := 0
	for _, k := range keys {
		var a mcp.ElicitResult
		if json.Unmarshal(responses[k], &a) != nil || !slices.Contains([]string{"accept", "decline", "cancel"}, a.Action) {
			ignored = append(ignored, k)
			continue
		}
		if !t.respond(k, &a) {
			ignored = append(ignored, k)
			continue
		}
		applied++
	}
	if applied == 0 {
		return nil, invalid("tasks/update: no open input request of task %s has the key %s; an answer to a question this task did not ask (or already answered) is not applied",
			t.ID, strings.Join(ignored, ", "))
	}
	return complete, nil
}

// serveList is 2025-11-25's tasks/list: the session's tasks, oldest first,
// in pages; the cursor is the id of the last task of the previous page.
func (tb *Table) serveList(gen Generation, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
	var p struct {
		Cursor *string `json:"cursor"`
	}
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, invalid("invalid params: %v", err)
		}
	}
	all := tb.list(gen)
	start := 0
	if p.Cursor != nil {
		i := slices.IndexFunc(all, func(t *Task) bool { return t.ID == *p.Cursor })
		if i < 0 {
			return nil, invalid("invalid cursor %q", *p.Cursor)
		}
		start = i + 1
	}
	end := min(start+listPage, len(all))
	page := make([]v1Task, 0, end-start)
	for _, t := range all[start:end] {
		page = append(page, t.v1Task(t.snap()))
	}
	out := map[string]any{"tasks": page}
	if end < len(all) {
		out["nextCursor"] = all[end-1].ID
	}
	return encode(out)
}
