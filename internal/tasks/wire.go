package tasks

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Names on the wire.
const (
	// ExtensionID names the 2026-07-28 extension, in capabilities.
	ExtensionID = "io.modelcontextprotocol/tasks"
	// ClientCapabilitiesKey is the request _meta key of a 2026-07-28
	// client's per-request capabilities.
	ClientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
	// RelatedTaskKey ties a V1 message to its task in _meta.
	RelatedTaskKey = "io.modelcontextprotocol/related-task"

	MethodGet      = "tasks/get"
	MethodResult   = "tasks/result" // V1 only
	MethodList     = "tasks/list"   // V1 only
	MethodCancel   = "tasks/cancel"
	MethodUpdate   = "tasks/update" // V2 only
	MethodStatusV1 = "notifications/tasks/status"

	// CodeMissingCapability is 2026-07-28's "Missing Required Client
	// Capability".
	CodeMissingCapability = -32021
)

// IsMethod reports whether method belongs to tasks (the "tasks/" prefix is
// reserved for them).
func IsMethod(method string) bool { return strings.HasPrefix(method, "tasks/") }

// timestamp is ISO 8601 in UTC, to the millisecond.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// v1Task is a Task of 2025-11-25.
type v1Task struct {
	TaskID        string `json:"taskId"`
	Status        Status `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt"`
	LastUpdatedAt string `json:"lastUpdatedAt"`
	TTL           int64  `json:"ttl"`
	PollInterval  int64  `json:"pollInterval"`
}

func (t *Task) v1Task(s snapshot) v1Task {
	return v1Task{TaskID: t.ID, Status: s.status, StatusMessage: s.message, CreatedAt: timestamp(t.Created),
		LastUpdatedAt: timestamp(s.updated), TTL: s.ttl.Milliseconds(), PollInterval: t.tb.opts.PollInterval.Milliseconds()}
}

// v2Task is a Task of 2026-07-28 with its status's payload inlined (a
// DetailedTask), and the result discriminator of the message it is in.
type v2Task struct {
	ResultType     string          `json:"resultType,omitempty"`
	TaskID         string          `json:"taskId"`
	Status         Status          `json:"status"`
	StatusMessage  string          `json:"statusMessage,omitempty"`
	CreatedAt      string          `json:"createdAt"`
	LastUpdatedAt  string          `json:"lastUpdatedAt"`
	TTLMs          int64           `json:"ttlMs"`
	PollIntervalMs int64           `json:"pollIntervalMs"`
	InputRequests  map[string]any  `json:"inputRequests,omitempty"`
	Result         json.RawMessage `json:"result,omitempty"`
	Error          json.RawMessage `json:"error,omitempty"`
}

func (t *Task) v2Task(s snapshot, resultType string, detailed bool) (v2Task, error) {
	w := v2Task{ResultType: resultType, TaskID: t.ID, Status: s.status, StatusMessage: s.message,
		CreatedAt: timestamp(t.Created), LastUpdatedAt: timestamp(s.updated), TTLMs: s.ttl.Milliseconds(),
		PollIntervalMs: t.tb.opts.PollInterval.Milliseconds()}
	if !detailed {
		return w, nil
	}
	switch s.status {
	case InputRequired:
		w.InputRequests = s.inputs
	case Completed:
		raw, err := EncodeResult(s.result, t.Gen, t.ID)
		if err != nil {
			return w, err
		}
		w.Result = raw
	}
	return w, nil
}

// Handle is what a task-augmented tools/call answers: 2025-11-25's
// CreateTaskResult {"task": …}, or 2026-07-28's {"resultType": "task", …}.
func (t *Task) Handle() (json.RawMessage, error) {
	s := t.snap()
	if t.Gen == V1 {
		return json.Marshal(map[string]any{"task": t.v1Task(s)})
	}
	w, err := t.v2Task(s, "task", false)
	if err != nil {
		return nil, err
	}
	return json.Marshal(w)
}

// EncodeResult is a final CallToolResult as a task hands it out: exactly
// what the ordinary call returns, tied to its task (2025-11-25's
// related-task key) or with the result discriminator 2026-07-28 requires.
func EncodeResult(res *mcp.CallToolResult, gen Generation, taskID string) (json.RawMessage, error) {
	raw, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	switch gen {
	case V1:
		var meta map[string]any
		if m := fields["_meta"]; m != nil {
			if err := json.Unmarshal(m, &meta); err != nil {
				return nil, err
			}
		}
		if meta == nil {
			meta = map[string]any{}
		}
		meta[RelatedTaskKey] = map[string]string{"taskId": taskID}
		if fields["_meta"], err = json.Marshal(meta); err != nil {
			return nil, err
		}
	case V2:
		fields["resultType"] = json.RawMessage(`"complete"`)
	}
	return json.Marshal(fields)
}

// ResultSize is about how many bytes of memory res holds: its text, its
// structured content and its _meta, each value counted with a little for
// its keeping. Finished results are kept by this weight (tasks, and the
// server's run registry).
func ResultSize(res *mcp.CallToolResult) int64 {
	if res == nil {
		return 0
	}
	n := int64(256)
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			n += int64(len(tc.Text)) + 64
		} else {
			n += 256
		}
	}
	n += valueSize(res.StructuredContent)
	for k, v := range res.Meta {
		n += int64(len(k)) + valueSize(v)
	}
	return n
}

// valueSize is about the memory a decoded JSON value holds.
func valueSize(v any) int64 {
	switch x := v.(type) {
	case nil:
		return 0
	case string:
		return int64(len(x)) + 16
	case json.RawMessage:
		return int64(len(x)) + 24
	case map[string]any:
		n := int64(48)
		for k, e := range x {
			n += int64(len(k)) + 16 + valueSize(e)
		}
		return n
	case []any:
		n := int64(24)
		for _, e := range x {
			n += 16 + valueSize(e)
		}
		return n
	}
	return 32 // a number, a boolean, or a value of ours (an outcome)
}

// summary is a final result's status message: the first line of its text.
func summary(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			line, _, _ := strings.Cut(strings.TrimSpace(tc.Text), "\n")
			if utf8.RuneCountInString(line) > 200 {
				line = string([]rune(line)[:199]) + "…"
			}
			return line
		}
	}
	return ""
}

// The server's own keys between its transport, which reads the wire, and
// its call handler, which makes tasks. Neither ever reaches the requester:
// the transport strips a MarkKey a client sends, and replaces a result that
// carries a HandleKey by the handle.
const (
	// MarkKey, in a tools/call's _meta, says the requester may be answered
	// with a task, and how (a [Mark]).
	MarkKey = "aeat-mcp/task"
	// HandleKey, in a tools/call result's _meta, carries the task handle
	// that is to be sent instead of the result.
	HandleKey = "aeat-mcp/task-handle"
)

// Mark is what the transport tells the call handler about a tools/call
// that may become a task.
type Mark struct {
	Gen Generation `json:"gen"`
	// TTLMs is the time to live a 2025-11-25 requester asked for (0: none).
	TTLMs int64 `json:"ttl_ms,omitempty"`
}

// MarkOf reads the transport's mark from a request's _meta.
func MarkOf(meta map[string]any) (Mark, bool) {
	v, ok := meta[MarkKey]
	if !ok {
		return Mark{}, false
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return Mark{}, false
	}
	var m Mark
	if json.Unmarshal(raw, &m) != nil || (m.Gen != V1 && m.Gen != V2) {
		return Mark{}, false
	}
	return m, true
}

// handleCarrier is a HandleKey's value.
type handleCarrier struct {
	TaskID string          `json:"taskId"`
	Handle json.RawMessage `json:"handle"`
}

// HandleResult is the call handler's answer for t: a result that carries
// the handle for the transport to send in its place.
func HandleResult(t *Task) (*mcp.CallToolResult, error) {
	h, err := t.Handle()
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{}, Meta: mcp.Meta{HandleKey: handleCarrier{TaskID: t.ID, Handle: h}}}, nil
}

// HandleOf finds the handle a result carries: the handle to send, and its
// task's id; nil when the result carries none.
func HandleOf(result json.RawMessage) (handle json.RawMessage, taskID string) {
	var r struct {
		Meta struct {
			Carrier *handleCarrier `json:"aeat-mcp/task-handle"`
		} `json:"_meta"`
	}
	if json.Unmarshal(result, &r) != nil || r.Meta.Carrier == nil || len(r.Meta.Carrier.Handle) == 0 {
		return nil, ""
	}
	return r.Meta.Carrier.Handle, r.Meta.Carrier.TaskID
}

// GenerationOf is the tasks generation of a negotiated protocol version.
func GenerationOf(protocolVersion string) Generation {
	switch {
	case protocolVersion >= "2026-07-28":
		return V2
	case protocolVersion >= "2025-11-25":
		return V1
	}
	return None
}
