package server

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/cleantext"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/nonce"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// confirmID is the id of the confirmation input request.
const confirmID = "confirm"

// defaultConfirmWait bounds how long a destructive call waits for the
// user's answer: on hosts that are asked directly, no answer within it is a
// "no"; on hosts that answer in a second request, the question expires.
const defaultConfirmWait = 5 * time.Minute

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
	// ReasonManifestChanged: the tool's params could not be read back from
	// the manifest cache, and the manifest is no longer the one the server
	// started with (annotations.ErrManifestChanged): only a restart serves it.
	ReasonManifestChanged = "manifest_changed"
)

// passage is the gate's verdict: go on (stop nil) — with a person's yes
// behind the call (confirmed) or none needed — or stop the call here with
// stop as its answer: a question (2026-07-28), or a refusal.
type passage struct {
	stop      *mcp.CallToolResult
	confirmed bool
}

// gate decides whether a destructive tool may run. Only a person's yes
// lets the tool's confirm flag ("--yes") onto the command line. It fails
// closed: a host that cannot ask, a decline, a cancel, an error, no
// answer, or an answer to a question this server did not ask are all a
// refusal. Nothing before it has side effects, because on 2026-07-28 the
// SDK re-invokes the handler with the answer.
func (rq *request) gate(ctx context.Context, args annotations.Args) passage {
	switch {
	case !rq.t.Hints.Destructive, rq.t.SkipsConfirmation(args):
		return passage{}
	case rq.s.cfg.Confirm == ConfirmNever:
		// Whoever started the server said yes to every destructive call.
		return passage{confirmed: true}
	case !rq.sess.canAsk:
		return passage{stop: rq.refuse(ReasonCannotConfirm, i18n.RefusedCannotConfirm)}
	}
	ask := rq.askThroughSession
	if rq.sess.gen.AsksInResult() {
		ask = rq.askInResult
	}
	answer, stop := ask(ctx, args, rq.confirmation(args))
	switch {
	case stop != nil:
		return passage{stop: stop}
	case answer == nil || answer.Action != "accept" || answer.Content[confirmID] != true:
		return passage{stop: rq.refuse(ReasonDeclined, i18n.RefusedDeclined)}
	}
	return passage{confirmed: true}
}

// confirmation is the question a destructive call puts to a person.
func (rq *request) confirmation(args annotations.Args) *mcp.ElicitParams {
	return &mcp.ElicitParams{
		Mode:    "form",
		Message: rq.question(args),
		RequestedSchema: &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				confirmID: {Type: "boolean", Title: rq.s.cfg.Printer.Sprintf(i18n.ConfirmField)},
			},
			Required: []string{confirmID},
		},
	}
}

// askInResult asks the 2026-07-28 way: the first call is answered with the
// question (input requests, and an unguessable requestState), and the
// client calls again with the answer (inputResponses). Only an answer to a
// question this server asked — for this tool with these exact arguments,
// not expired, once — counts. It returns the answer, or stop: the
// question, or a refusal.
func (rq *request) askInResult(_ context.Context, args annotations.Args, params *mcp.ElicitParams) (answer *mcp.ElicitResult, stop *mcp.CallToolResult) {
	binding := rq.binding(args)
	state := rq.req.Params.RequestState
	resp, answered := rq.req.Params.InputResponses[confirmID]
	if state == "" && !answered {
		return nil, &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{confirmID: params},
			RequestState:  rq.s.questions.ask(binding),
		}
	}
	if !rq.s.questions.redeem(state, binding) {
		rq.s.cfg.Logger.Warn("confirmation answer rejected: not an answer to a question asked for this call", "tool", rq.t.Name)
		return nil, rq.refuse(ReasonUnverified, i18n.RefusedDeclined)
	}
	answer, _ = resp.(*mcp.ElicitResult)
	return answer, nil
}

// askThroughSession asks the way before 2026-07-28: a request of the
// server's own (elicitation/create) through the session, waited for up to
// confirmWait. An error is a refusal.
func (rq *request) askThroughSession(ctx context.Context, _ annotations.Args, params *mcp.ElicitParams) (answer *mcp.ElicitResult, stop *mcp.CallToolResult) {
	ctx, cancel := context.WithTimeout(ctx, rq.s.confirmWait)
	defer cancel()
	answer, err := rq.req.Session.Elicit(ctx, params)
	if err != nil {
		rq.s.cfg.Logger.Warn("confirmation failed", "tool", rq.t.Name, "error", err)
		return nil, rq.refuse(ReasonDeclined, i18n.RefusedDeclined)
	}
	return answer, nil
}

// question is what a person is asked: the tool's title and name, and the
// command line it will run once they say yes — confirm flag included,
// sensitive values masked — so the yes is to something seen.
func (rq *request) question(args annotations.Args) string {
	p := rq.s.cfg.Printer
	q := p.Sprintf(i18n.ConfirmPrompt, rq.t.Title, rq.t.Name)
	inv, err := rq.t.Render(args, true)
	if err != nil {
		return q
	}
	shown := append([]string{filepath.Base(rq.s.cfg.Manifest.CLI.Command)}, inv.Shown...)
	return q + "\n\n" + p.Sprintf(i18n.ConfirmRuns, cleantext.Line(annotations.ShellQuote(shown)))
}

// binding is what a question is asked about, and what an identical call
// is: this tool with these exact arguments (validated, so canonical;
// json.Marshal sorts the keys).
func (rq *request) binding(args annotations.Args) string {
	b, _ := json.Marshal(args)
	return rq.t.Name + "\x00" + string(b)
}

// questions remembers the confirmation questions this server asked on the
// multi round-trip protocol, by an unguessable nonce sent as requestState.
// An answer counts only with a nonce that was issued, has not expired, has
// not been used, and was issued for the same tool and arguments.
type questions struct {
	mu     sync.Mutex
	ttl    time.Duration
	issued map[string]issuedQuestion
}

// issuedQuestion is what a confirmation nonce was issued for, and until
// when it may be answered.
type issuedQuestion struct {
	binding string
	expires time.Time
}

// maxQuestions bounds the open questions; the oldest go first.
const maxQuestions = 256

func newQuestions(ttl time.Duration) *questions {
	return &questions{ttl: ttl, issued: map[string]issuedQuestion{}}
}

// ask issues a nonce for a question about binding.
func (q *questions) ask(binding string) string {
	key := nonce.New("q-", 16)
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
	q.issued[key] = issuedQuestion{binding: binding, expires: now.Add(q.ttl)}
	return key
}

// redeem reports whether nonce is a live question about binding, and uses
// it up: a nonce answers once, whatever the answer.
func (q *questions) redeem(nonce, binding string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	qq, ok := q.issued[nonce]
	if !ok {
		return false
	}
	delete(q.issued, nonce)
	return qq.binding == binding && time.Now().Before(qq.expires)
}
