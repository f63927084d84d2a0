package tasks

import (
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/nonce"
)

// Request is what a [Transport] learned of one tools/call, for the call's
// handler: the generation of the session it came in on, and whether — and
// how long — its requester may be answered with a task. The handler
// assigns the call a task by [Request.Assign]; the transport then sends the
// task's handle in place of the handler's result.
//
// The SDK hands a handler no request id, so the two ends are joined by a
// ticket: an opaque value the transport writes into the call's _meta under
// a key of its own (any such key a client wrote is dropped first), and
// which the handler redeems with [Requests.Of]. Nothing else of the mark
// travels through the SDK; what the transport learned stays here, in Go
// values.
type Request struct {
	// Gen is the generation of the session the call came in on.
	Gen Generation

	ticket string
	wants  bool
	ttl    time.Duration
	// notify writes a notification to the session the call came in on:
	// a task's status goes to the session whose request it answered.
	notify func(method string, params any)

	mu   sync.Mutex
	task *Task
}

// WantsTask reports whether the requester may be answered with a task:
// it asked for one (2025-11-25's "task" param, for a tool that may run as
// one), or declared the extension in its capabilities (2026-07-28).
func (r *Request) WantsTask() bool { return r != nil && r.wants }

// TTL is the time to live the requester asked for its task (0: none).
func (r *Request) TTL() time.Duration {
	if r == nil {
		return 0
	}
	return r.ttl
}

// Owed reports whether the requester must be answered with a task,
// whatever the call became: a 2025-11-25 requester that asked for one gets
// a task also when no run started (a task born finished); a 2026-07-28
// one gets what the server decides.
func (r *Request) Owed() bool { return r.WantsTask() && r.Gen.spec().owed }

// Assign makes task t the call's answer: its transport sends t's handle in
// place of the call's result, and t's status notifications go to the
// call's session. A call assigned twice keeps the first task.
func (r *Request) Assign(t *Task) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.task == nil {
		r.task = t
		if r.notify != nil {
			t.heardBy(r.notify)
		}
	}
}

// Assigned is the task the call was assigned (its answer), or nil.
func (r *Request) Assigned() *Task {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.task
}

// ticketKey is the _meta key of a tools/call's ticket. It never reaches
// the requester (it is in no result) and is dropped from what a client
// sends.
const ticketKey = "aeat-mcp/ticket"

// Requests hold the [Request] of every tools/call a [Transport] passed on
// and its handler has not answered yet. A server makes one and hands it to
// each transport it serves over ([Transport.Requests]) and to its handlers.
type Requests struct {
	mu sync.Mutex
	m  map[string]*Request
}

// Of is the request whose ticket the call's _meta carries; nil when it
// carries none — the call did not come through a [Transport] — or one that
// is not (or no longer) issued.
func (rs *Requests) Of(meta map[string]any) *Request {
	ticket, _ := meta[ticketKey].(string)
	if rs == nil || ticket == "" {
		return nil
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.m[ticket]
}

// issue gives r a ticket and keeps it until forget.
func (rs *Requests) issue(r *Request) string {
	r.ticket = nonce.New("c-", 16)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.m == nil {
		rs.m = map[string]*Request{}
	}
	rs.m[r.ticket] = r
	return r.ticket
}

// forget drops r's ticket: its call was answered.
func (rs *Requests) forget(r *Request) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	delete(rs.m, r.ticket)
}
