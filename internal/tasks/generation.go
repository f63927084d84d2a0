package tasks

import (
	"encoding/json"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Generation is a generation of the MCP protocol, as far as this server
// tells them apart: whether a session gets tasks, and of which kind, and
// how a question is put to its client. A session has one, chosen once from
// what it negotiated ([GenerationOf]); everything that differs between
// generations is a value of its entry in one table, never a branch on the
// generation.
type Generation int

const (
	// None: a protocol before 2025-11-25: no tasks; questions go through
	// the session (elicitation/create).
	None Generation = iota
	// V1: 2025-11-25, with its experimental core tasks.
	V1
	// V2: 2026-07-28, with the extension io.modelcontextprotocol/tasks
	// (SEP-2663).
	V2
)

// GenerationOf is the generation of a negotiated protocol version: what
// initialize answered, or, for a 2026-07-28 client that never initializes,
// the version its requests carry.
func GenerationOf(protocolVersion string) Generation {
	for g := len(generations) - 1; g > 0; g-- {
		if protocolVersion >= generations[g].version {
			return Generation(g)
		}
	}
	return None
}

func (g Generation) String() string { return g.spec().version }

// ResourceNotFound is the JSON-RPC error code a resources/read of a
// resource that is not there answers with (SEP-2164 moved it).
func (g Generation) ResourceNotFound() int64 { return g.spec().resourceNotFound }

// codeResourceNotFoundV1 is "resource not found" before 2026-07-28.
const codeResourceNotFoundV1 = -32002

// AsksInResult reports whether a question is put to the client inside a
// result — a call's result that carries input requests (2026-07-28's
// multi round-trip), a task that shows its input requests — rather than as
// a request of the server's own through the session (elicitation/create):
// the 2026-07-28 protocol has no server-to-client requests. A call that is
// no task can then ask only before it runs.
func (g Generation) AsksInResult() bool { return g.spec().asksInResult }

// ProgressAfterHandle reports whether a task's requester keeps getting
// progress for the progress token of the call that made it, after the
// handle (2025-11-25 says so).
func (g Generation) ProgressAfterHandle() bool { return g.spec().progressAfterHandle }

// requestWay is how a tools/call asks to be answered with a task.
type requestWay int

const (
	// notRequested (the zero value): tasks are not spoken.
	_ requestWay = iota
	// byParam: a "task" param ({"ttl": ms}); a tool that cannot run as a
	// task is refused -32601 (2025-11-25).
	byParam
	// byDeclaring: the request declares the extension in its own
	// capabilities, and the server decides (2026-07-28).
	byDeclaring
)

// generation is what a protocol generation is, for tasks and questions.
type generation struct {
	// version is the first protocol version of the generation; "none"
	// for None.
	version string
	// session names a session of it in messages.
	session string
	// methods are the tasks/* methods served; the others are "method not
	// found".
	methods []string
	// declared: every tasks/* request must declare the extension in its
	// own capabilities, or is refused -32021.
	declared bool
	// requested is how a tools/call asks for a task.
	requested requestWay
	// advertised: initialize gains capabilities.tasks, and tools/list
	// each task tool's execution.taskSupport.
	advertised bool
	// owed: a requester that asked for a task gets one, also when no run
	// started (invalid arguments, a refusal): a task born finished.
	owed bool
	// errorStatus is the terminal status of a result with isError:
	// 2025-11-25 calls it "failed"; 2026-07-28 keeps "failed" for
	// JSON-RPC errors and calls it "completed", the error being in the
	// result.
	errorStatus taskStatus
	// staysCancelled: a task the requester cancelled is "cancelled"
	// whatever its run ends with (2025-11-25: it MUST stay cancelled).
	staysCancelled bool
	// refusesEndedCancel: tasks/cancel of a task that ended is refused
	// (2025-11-25); 2026-07-28 acknowledges it (cancellation there is
	// cooperative).
	refusesEndedCancel bool
	// status, if set, is the notification a status change is pushed to
	// the requester as (notifications/tasks/status); nil pushes none.
	status func(t *Task, s snapshot) any
	// progressAfterHandle: see [Generation.ProgressAfterHandle].
	progressAfterHandle bool
	// asksInResult: see [Generation.AsksInResult].
	asksInResult bool
	// handle is what a task-augmented tools/call answers.
	handle func(t *Task, s snapshot) any
	// get is tasks/get's answer.
	get func(t *Task, s snapshot) (any, error)
	// cancelled is tasks/cancel's answer once the task's tree is dead.
	cancelled func(t *Task, s snapshot) any
	// final ties a final result, as JSON fields, to its task.
	final func(fields map[string]json.RawMessage, taskID string) error
	// resourceNotFound is the JSON-RPC code of a resources/read of a
	// resource that is not there: -32002 up to 2025-11-25 ("Resources",
	// "Error Handling"); -32602, Invalid Params, from 2026-07-28
	// (SEP-2164).
	resourceNotFound int64
}

// generations is the table: one entry per generation.
var generations = [...]generation{
	None: {
		version:          "none",
		session:          "task-less",
		resourceNotFound: codeResourceNotFoundV1,
	},
	V1: {
		version:             "2025-11-25",
		session:             "2025-11-25",
		methods:             []string{methodGet, methodResult, methodList, methodCancel},
		requested:           byParam,
		advertised:          true,
		owed:                true,
		errorStatus:         statusFailed,
		staysCancelled:      true,
		refusesEndedCancel:  true,
		status:              func(t *Task, s snapshot) any { return t.v1Task(s) },
		progressAfterHandle: true,
		// 2025-11-25's CreateTaskResult.
		handle:    func(t *Task, s snapshot) any { return map[string]any{"task": t.v1Task(s)} },
		get:       func(t *Task, s snapshot) (any, error) { return t.v1Task(s), nil },
		cancelled: func(t *Task, s snapshot) any { return t.v1Task(s) },
		final:     relatedTask,

		resourceNotFound: codeResourceNotFoundV1,
	},
	V2: {
		version:      "2026-07-28",
		session:      "2026-07-28",
		methods:      []string{methodGet, methodUpdate, methodCancel},
		declared:     true,
		requested:    byDeclaring,
		errorStatus:  statusCompleted,
		asksInResult: true,
		handle:       func(t *Task, s snapshot) any { return t.v2Task(s, "task") },
		get:          func(t *Task, s snapshot) (any, error) { return t.v2Detailed(s) },
		cancelled:    func(*Task, snapshot) any { return complete },
		final:        resultComplete,

		resourceNotFound: jsonrpc.CodeInvalidParams,
	},
}

func (g Generation) spec() *generation {
	if g < 0 || int(g) >= len(generations) {
		return &generations[None]
	}
	return &generations[g]
}

// serves reports whether the generation serves the tasks/* method.
func (g *generation) serves(method string) bool { return slices.Contains(g.methods, method) }
