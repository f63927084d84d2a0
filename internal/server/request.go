package server

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/aeat-mcp/aeat-mcp/internal/tasks"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call of a manifest tool takes one path, whoever makes it — a host's
// tools/call, aeat-mcp call's, doctor's probe, or a built-in that calls a
// tool for the model: [Server.newRequest], then [request.answer]. The
// request validates, gathers the secrets, takes its place in its tier and
// passes the gate; the work of its run (work.go) goes on without it; the
// answer step (answer.go) waits for the run, detaches from it, or makes it
// a task.

// request is one call of a tool, from its tools/call to its answer.
type request struct {
	ending
	req *mcp.CallToolRequest
	// args are the call's arguments: the request's own, or those a
	// built-in calls the tool with.
	args json.RawMessage
	// sess is what the request's session agreed to (negotiated).
	sess session
	// task is what the tasks transport learned of the request (whether it
	// may be answered with a task); nil when it came through none.
	task *tasks.Request
}

// newRequest is a call of t that req makes.
func (s *Server) newRequest(t *annotations.Tool, req *mcp.CallToolRequest) *request {
	rq := &request{ending: s.newEnding(t), req: req}
	if req.Params != nil {
		rq.args = req.Params.Arguments
		rq.task = s.requests.Of(req.Params.Meta)
	}
	rq.sess = negotiated(req, rq.task)
	return rq
}

// call takes a call of a verb through its stages, from its validated
// arguments (answer, registry.go): a CLI there → join → secrets → a place
// in the tier → gate → the run → its answer. Nothing is spawned
// before the gate said yes. The work is a run of its own: it outlives
// this request when the request detaches or becomes a task, and an
// identical MUTATE or LIVE call joins it rather than starting it twice.
func (rq *request) call(ctx context.Context, args annotations.Args) *mcp.CallToolResult {
	if refusal := rq.available(); refusal != nil {
		return refusal
	}
	// This request waits for its run as obs from the moment it finds or
	// starts it: a run is stopped only when nobody waits for it any more.
	obs := &observer{req: rq.req, sess: rq.sess}
	key, join := rq.joinKey(args)
	if r, ok := rq.join(key, join, obs); ok {
		return rq.follow(ctx, r, obs, true)
	}
	// The secrets first: a call that would refuse for a missing one must
	// not ask a person to confirm it. Reading them changes nothing.
	inv, err := rq.t.Render(args, false)
	if err != nil {
		return rq.invalid(err)
	}
	in, refusal := rq.gather(ctx, inv)
	if refusal != nil {
		return refusal
	}
	pl, refusal := rq.admit()
	if refusal != nil {
		return refusal
	}
	defer pl.leave()
	pass := rq.gate(ctx, args)
	if pass.stop != nil {
		return pass.stop
	}
	if pass.confirmed {
		if inv, err = rq.t.Render(args, true); err != nil {
			return rq.invalid(err)
		}
	}
	r, joined := rq.start(key, join, pl, obs, inv.Argv, in)
	return rq.follow(ctx, r, obs, joined)
}

// available refuses a call whose CLI is not there or lacks a variable it
// needs.
func (rq *request) available() *mcp.CallToolResult {
	s, t := rq.s, rq.t
	switch {
	case s.cfg.CLIPath == "":
		return rq.unavailable(cliError(s.cfg.CLIError))
	case len(s.missingEnv[t.Name]) > 0:
		return rq.missingEnv(s.missingEnv[t.Name])
	}
	return nil
}

// joinKey is what an identical call is: this tool with these exact
// arguments; join says whether the call joins one in progress (MUTATE and
// LIVE, unless --no-dedupe).
func (rq *request) joinKey(args annotations.Args) (key string, join bool) {
	if rq.s.cfg.NoDedupe || rq.t.Tier() == annotations.Read {
		return "", false
	}
	return rq.binding(args), true
}

// join finds an identical run in progress and attaches obs to it. A run
// already under way was confirmed when it started.
func (rq *request) join(key string, join bool, obs *observer) (*run, bool) {
	if !join {
		return nil, false
	}
	r, ok := rq.s.runs.Join(key, obs)
	if ok {
		rq.s.cfg.Logger.Debug("call joined a run", "tool", rq.t.Name, "run_id", r.ID)
	}
	return r, ok
}

// place is a call's place among its tier's runs, running or queued: it is
// taken before a person is asked — who must not say yes to a call then
// refused — and beyond the tier's slots and --max-queued the call is
// refused, not queued without bound. The run holds it once started; any
// other way out gives it back.
type place struct {
	ch chan struct{}
	// run: a run holds the place now, and gives it back when it ends.
	run bool
}

// admit takes the call's place in its tier, or refuses the call (busy):
// admission to the tier. (A JSON-RPC request's own id is
// stdioConn.registerInbound's.)
func (rq *request) admit() (*place, *mcp.CallToolResult) {
	ch := rq.s.admitted[rq.t.Tier()]
	select {
	case ch <- struct{}{}:
		return &place{ch: ch}, nil
	default:
		return nil, rq.busy(cap(ch))
	}
}

func (p *place) release() { <-p.ch }

// leave gives the place back unless a run holds it.
func (p *place) leave() {
	if !p.run {
		p.release()
	}
}

// start starts the call's run, or joins an identical one that started
// meanwhile (then its place is given back: that run holds one already).
func (rq *request) start(key string, join bool, pl *place, obs *observer, argv []string, in inputs) (r *run, joined bool) {
	s, t := rq.s, rq.t
	spec := runs.Spec{Tool: t.Name, Key: key, Join: join, Tier: string(t.Tier()), Ceiling: t.Ceiling(s.cfg.Ceilings), Observer: obs}
	r, joined = s.runs.Start(s.lifetime, spec, func(ctx context.Context, r *run) (*mcp.CallToolResult, runs.Phase) {
		defer pl.release()
		return rq.newWork(r, argv, in).runGuarded(ctx)
	})
	pl.run = !joined
	if joined {
		s.cfg.Logger.Debug("call joined a run", "tool", t.Name, "run_id", r.ID)
	}
	return r, joined
}

func errString(err error) string {
	return cliError(err).Error()
}

// cliError is Config.CLIError, or why there is no path when it is nil.
func cliError(err error) error {
	if err == nil {
		return errors.New("no CLI configured")
	}
	return err
}
