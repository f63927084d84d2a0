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

	methodGet      = "tasks/get"
	methodResult   = "tasks/result" // V1 only
	methodList     = "tasks/list"   // V1 only
	methodCancel   = "tasks/cancel"
	methodUpdate   = "tasks/update" // V2 only
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
	TaskID        string     `json:"taskId"`
	Status        taskStatus `json:"status"`
	StatusMessage string     `json:"statusMessage,omitempty"`
	CreatedAt     string     `json:"createdAt"`
	LastUpdatedAt string     `json:"lastUpdatedAt"`
	TTL           int64      `json:"ttl"`
	PollInterval  int64      `json:"pollInterval"`
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
	Status         taskStatus      `json:"status"`
	StatusMessage  string          `json:"statusMessage,omitempty"`
	CreatedAt      string          `json:"createdAt"`
	LastUpdatedAt  string          `json:"lastUpdatedAt"`
	TTLMs          int64           `json:"ttlMs"`
	PollIntervalMs int64           `json:"pollIntervalMs"`
	InputRequests  map[string]any  `json:"inputRequests,omitempty"`
	Result         json.RawMessage `json:"result,omitempty"`
	Error          json.RawMessage `json:"error,omitempty"`
}

func (t *Task) v2Task(s snapshot, resultType string) v2Task {
	return v2Task{ResultType: resultType, TaskID: t.ID, Status: s.status, StatusMessage: s.message,
		CreatedAt: timestamp(t.Created), LastUpdatedAt: timestamp(s.updated), TTLMs: s.ttl.Milliseconds(),
		PollIntervalMs: t.tb.opts.PollInterval.Milliseconds()}
}

// v2Detailed is 2026-07-28's DetailedTask: the task with its status's
// payload inlined — the open input requests, or the final result.
func (t *Task) v2Detailed(s snapshot) (v2Task, error) {
	w := t.v2Task(s, "complete")
	switch s.status {
	case statusInputRequired:
		w.InputRequests = s.inputs
	case statusCompleted:
		raw, err := encodeFinal(s.result, t.ID, resultComplete)
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
	return json.Marshal(t.Gen.spec().handle(t, t.snap()))
}

// encodeResult is a final CallToolResult as a task hands it out: exactly
// what the ordinary call returns, tied to its task (2025-11-25's
// related-task key) or with the result discriminator 2026-07-28 requires.
func encodeResult(res *mcp.CallToolResult, gen Generation, taskID string) (json.RawMessage, error) {
	return encodeFinal(res, taskID, gen.spec().final)
}

// encodeFinal encodes res and ties it to its task with final (nil: as it
// is).
func encodeFinal(res *mcp.CallToolResult, taskID string, final func(map[string]json.RawMessage, string) error) (json.RawMessage, error) {
	raw, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	if final != nil {
		if err := final(fields, taskID); err != nil {
			return nil, err
		}
	}
	return json.Marshal(fields)
}

// relatedTask ties a 2025-11-25 result to its task in _meta.
func relatedTask(fields map[string]json.RawMessage, taskID string) error {
	var meta map[string]any
	if m := fields["_meta"]; m != nil {
		if err := json.Unmarshal(m, &meta); err != nil {
			return err
		}
	}
	if meta == nil {
		meta = map[string]any{}
	}
	meta[RelatedTaskKey] = map[string]string{"taskId": taskID}
	var err error
	fields["_meta"], err = json.Marshal(meta)
	return err
}

// resultComplete gives a 2026-07-28 result its discriminator.
func resultComplete(fields map[string]json.RawMessage, _ string) error {
	fields["resultType"] = json.RawMessage(`"complete"`)
	return nil
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
