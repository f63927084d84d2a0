package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// confirmID is the id of the confirmation input request.
const confirmID = "confirm"

// defaultConfirmWait bounds how long a destructive call waits for the
// user's answer: on hosts that are asked directly, no answer within it is a
// "no"; on hosts that answer in a second request, the question expires.
const defaultConfirmWait = 5 * time.Minute

// multiRoundTripVersion is the first protocol version whose clients answer
// input requests themselves (CallToolResult.InputRequests).
const multiRoundTripVersion = "2026-07-28"

// Refusal reasons of the gate (Outcome.Reason).
const (
	ReasonReadOnly      = "read_only"
	ReasonCannotConfirm = "cannot_confirm"
	ReasonDeclined      = "declined"
	// ReasonUnverified: an answer that does not answer a question this
	// server asked for this tool and these exact arguments (forged,
	// replayed, or meant for another call).
	ReasonUnverified = "unverified_answer"
	// ReasonNotSelected: the tool is in the manifest but --tools left it out.
	ReasonNotSelected = "not_selected"
	// ReasonMissingEnv (with code cli_unavailable): a variable the CLI
	// needs is not set; Outcome.MissingEnv names it.
	ReasonMissingEnv = "missing_env"
	// ReasonBusy: as many runs of the tool's tier as the server queues
	// (its slots and --max-queued) are running or waiting; retryable.
	ReasonBusy = "busy"
)

// negotiated is what the session agreed on: the protocol version and
// whether the client can be asked. A session that ran initialize — or, on
// 2026-07-28, whose first request declared its capabilities — is bound by
// that: a later request's _meta may narrow it (a client that says it cannot
// ask now is not asked), never widen it (DESIGN.md §8). The SDK's own
// ProtocolVersion and ClientCapabilities prefer the request's claim, so
// they are not used here.
func negotiated(req *mcp.CallToolRequest) (version string, canAsk bool) {
	if req.Session == nil {
		return "", false
	}
	p := req.Session.InitializeParams()
	if p == nil {
		return "", false
	}
	canAsk = p.Capabilities != nil && p.Capabilities.Elicitation != nil
	if p.ProtocolVersion >= multiRoundTripVersion {
		c := req.ClientCapabilities()
		canAsk = canAsk && c != nil && c.Elicitation != nil
	}
	return p.ProtocolVersion, canAsk
}

// gate decides whether a destructive tool may run. It returns a result that
// asks the host for input (ask), a refusal, or neither (go ahead); confirmed
// says whether a person's yes stands behind the call, which alone lets the
// tool's confirm flag ("--yes") onto the command line. It fails closed: a
// host that cannot ask, a decline, a cancel, an error, no answer, or an
// answer to a question this server did not ask are all a refusal. Nothing
// before it has side effects, because on the newest protocol the SDK
// re-invokes the handler with the answer.
func (c *call) gate(ctx context.Context, args annotations.Args) (confirmed bool, ask, refusal *mcp.CallToolResult) {
	switch {
	case !c.t.Hints.Destructive, c.t.SkipsConfirmation(args):
		return false, nil, nil
	case c.s.cfg.Confirm == ConfirmNever:
		// Whoever started the server said yes to every destructive call.
		return true, nil, nil
	}
	version, canAsk := negotiated(c.req)
	if !canAsk {
		return false, nil, c.refuse(ReasonCannotConfirm, i18n.RefusedCannotConfirm)
	}
	params := &mcp.ElicitParams{
		Mode:    "form",
		Message: c.question(args),
		RequestedSchema: &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				confirmID: {Type: "boolean", Title: c.p.Sprintf(i18n.ConfirmField)},
			},
			Required: []string{confirmID},
		},
	}
	var answer *mcp.ElicitResult
	if version >= multiRoundTripVersion {
		binding := c.binding(args)
		state := c.req.Params.RequestState
		resp, answered := c.req.Params.InputResponses[confirmID]
		if state == "" && !answered {
			return false, &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{confirmID: params},
				RequestState:  c.s.questions.ask(binding),
			}, nil
		}
		if !c.s.questions.answer(state, binding) {
			c.s.cfg.Logger.Warn("confirmation answer rejected: not an answer to a question asked for this call", "tool", c.t.Name)
			return false, nil, c.refuse(ReasonUnverified, i18n.RefusedDeclined)
		}
		answer, _ = resp.(*mcp.ElicitResult)
	} else {
		ectx, cancel := context.WithTimeout(ctx, c.s.confirmWait)
		defer cancel()
		res, err := c.req.Session.Elicit(ectx, params)
		if err != nil {
			c.s.cfg.Logger.Warn("confirmation failed", "tool", c.t.Name, "error", err)
			return false, nil, c.refuse(ReasonDeclined, i18n.RefusedDeclined)
		}
		answer = res
	}
	if answer == nil || answer.Action != "accept" || answer.Content[confirmID] != true {
		return false, nil, c.refuse(ReasonDeclined, i18n.RefusedDeclined)
	}
	return true, nil, nil
}

// question is what a person is asked: the tool's title and name, and the
// command line it will run once they say yes — confirm flag included,
// sensitive values masked — so the yes is to something seen.
func (c *call) question(args annotations.Args) string {
	q := c.p.Sprintf(i18n.ConfirmPrompt, c.t.Title, c.t.Name)
	inv, err := c.t.Render(args, true)
	if err != nil {
		return q
	}
	shown := append([]string{filepath.Base(c.s.cfg.Manifest.CLI.Command)}, inv.Shown...)
	return q + "\n\n" + c.p.Sprintf(i18n.ConfirmRuns, cleanLine(annotations.ShellQuote(shown)))
}

// binding is what a question is asked about: this tool with these exact
// arguments (validated, so canonical; json.Marshal sorts the keys).
func (c *call) binding(args annotations.Args) string {
	b, _ := json.Marshal(args)
	return c.t.Name + "\x00" + string(b)
}

// questions remembers the confirmation questions this server asked on the
// multi round-trip protocol, by an unguessable nonce sent as requestState.
// An answer counts only with a nonce that was issued, has not expired, has
// not been used, and was issued for the same tool and arguments.
type questions struct {
	mu     sync.Mutex
	ttl    time.Duration
	issued map[string]question
}

type question struct {
	binding string
	expires time.Time
}

// maxQuestions bounds the open questions; the oldest go first.
const maxQuestions = 256

func newQuestions(ttl time.Duration) *questions {
	return &questions{ttl: ttl, issued: map[string]question{}}
}

// ask issues a nonce for a question about binding.
func (q *questions) ask(binding string) string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	nonce := "q-" + hex.EncodeToString(b[:])
	now := time.Now()
	q.mu.Lock()
	defer q.mu.Unlock()
	var oldest string
	for n, qq := range q.issued {
		if now.After(qq.expires) {
			delete(q.issued, n)
		} else if oldest == "" || qq.expires.Before(q.issued[oldest].expires) {
			oldest = n
		}
	}
	if len(q.issued) >= maxQuestions {
		delete(q.issued, oldest)
	}
	q.issued[nonce] = question{binding: binding, expires: now.Add(q.ttl)}
	return nonce
}

// answer reports whether nonce is a live question about binding, and uses
// it up: a nonce answers once, whatever the answer.
func (q *questions) answer(nonce, binding string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	qq, ok := q.issued[nonce]
	if !ok {
		return false
	}
	delete(q.issued, nonce)
	return qq.binding == binding && time.Now().Before(qq.expires)
}
