package server

import (
	"github.com/aeat-mcp/aeat-mcp/internal/tasks"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// session is what the session a call came in on agreed to: its protocol
// generation — which says how a question is put to it and which tasks it
// speaks (tasks.Generation) — and whether its client can be asked at all.
// It is found once per call ([negotiated]) and handed to the gate, to the
// run's ceiling question (through the call's observers) and to the answer
// step; none of them reads a version.
type session struct {
	gen    tasks.Generation
	canAsk bool
}

// negotiated is the session of req, whose tasks transport learned task.
//
// The generation is the one the transport learned from what initialize
// answered — the version negotiated, not the one the client asked for —
// or 2026-07-28's for a client that never initializes; a call that came
// through no tasks transport (task nil, doctor's probe) has the oldest,
// whose questions go through the session.
//
// Whether the client can be asked is what it declared to the session — at
// initialize, or, on 2026-07-28, in the first request, as the SDK keeps
// them — and, on 2026-07-28, also in this request: a later request's
// _meta may narrow it (a client that says it cannot ask now is not asked),
// never widen it (docs/ARCHITECTURE.md, "Invariants"). The SDK's own
// ProtocolVersion and ClientCapabilities prefer the request's claim, so
// they are not the session's.
func negotiated(req *mcp.CallToolRequest, task *tasks.Request) session {
	var sess session
	if task != nil {
		sess.gen = task.Gen
	}
	if req == nil || req.Session == nil {
		return sess
	}
	p := req.Session.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return sess
	}
	sess.canAsk = true
	if sess.gen.AsksInResult() {
		c := req.ClientCapabilities()
		sess.canAsk = c != nil && c.Elicitation != nil
	}
	return sess
}
