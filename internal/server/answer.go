package server

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/tasks"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The answer step: once a request has found or started its run, it either
// waits for it (observe) — and, past --detach-after, answers that the run
// goes on (running) — or, when its host speaks MCP Tasks and the tool is
// not a quick READ, makes it a task and answers with the handle at once
// (asTask). The run is the same run either way, so its result is the same,
// its tree dies the same way, and aeat_mcp_wait and aeat_mcp_runs see it.

// observer is a request waiting for a run, or following it as a task: a
// person may be asked through its session or its task.
type observer struct {
	req  *mcp.CallToolRequest
	sess session
	task *tasks.Task // set when the request made the run a task
}

// follow answers for the run r the request found or started (joined: one
// already under way): as a task when the requester may take one and the
// tool is not a quick READ, else by waiting for it.
func (rq *request) follow(ctx context.Context, r *run, obs *observer, joined bool) *mcp.CallToolResult {
	if rq.s.tasks != nil && rq.task.WantsTask() && rq.t.Tier() != annotations.Read {
		return rq.asTask(r, obs)
	}
	return rq.observe(ctx, r, obs, joined)
}

// observe waits for r on behalf of this request, attached to it as obs:
// its result when it ends; a "running" result when the request has waited
// --detach-after (the run goes on, held for aeat_mcp_wait to collect) —
// unless the server is stopping (await); and,
// when the client cancels the request, the run's end too if nobody else
// waits for it (runs.Run.Abandon): its tree is killed. A run that another
// request, a join or a task still waits for goes on. Progress goes to this
// request meanwhile.
func (rq *request) observe(ctx context.Context, r *run, obs *observer, joined bool) *mcp.CallToolResult {
	defer r.Detach(obs)
	prog := newProgress(rq.s, rq.req, r)
	defer prog.close()
	var detach <-chan time.Time
	if d := rq.s.cfg.DetachAfter; d > 0 {
		timer := time.NewTimer(d)
		defer timer.Stop()
		detach = timer.C
	}
	if rq.s.detachNow != nil {
		detach = rq.s.detachNow
	}
	switch rq.s.await(ctx, r, detach) {
	case waitTimedOut:
		prog.close()
		r.Hold()
		return rq.s.running(r)
	case waitGaveUp:
		if !r.Abandon(obs) {
			prog.close()
			return rq.cancelled()
		}
		<-r.Done()
	}
	prog.close()
	res := resultOf(r)
	if joined {
		res.Content = append(res.Content, &mcp.TextContent{Text: rq.s.cfg.Printer.Sprintf(i18n.RunJoined, r.ID, r.Tool, int(time.Since(r.Started).Seconds()))})
	}
	return res
}

// How a request's wait for its run ended (Server.await).
type waitEnd int

const (
	waitEnded    waitEnd = iota // the run ended
	waitTimedOut                // the wait's time passed: the run goes on
	waitGaveUp                  // the request's ctx ended: the client went away
)

// await waits for r on behalf of a request: until it ends, timeout fires
// (--detach-after; aeat_mcp_wait's wait_seconds) or ctx ends. Once the
// server is stopping, timeout no longer counts: the server stops every
// run, so a "running — collect it with aeat_mcp_wait" answer would name a
// run nobody can collect; the run's end — cancelled, its tree dead, within
// the stop's grace — is the answer.
func (s *Server) await(ctx context.Context, r *run, timeout <-chan time.Time) waitEnd {
	stopping := s.lifetime.Done()
	for {
		select {
		case <-r.Done():
			return waitEnded
		case <-timeout:
			if s.lifetime.Err() == nil {
				return waitTimedOut
			}
			timeout = nil
		case <-stopping:
			stopping, timeout = nil, nil
		case <-ctx.Done():
			return waitGaveUp
		}
	}
}

// resultOf is a copy of a finished run's result for one request: the SDK
// writes into a result's _meta on its way out, and several requests (the
// call, calls that joined, waits) may return the same run's result at once.
func resultOf(r *run) *mcp.CallToolResult {
	res, _ := r.Result()
	cp := *res
	cp.Content = slices.Clone(res.Content)
	cp.Meta = maps.Clone(res.Meta)
	return &cp
}

// running is the result of a request that stops waiting for its run: not
// an error, the run's id, and what to do to collect it. Its outcome is the
// run's, timed from the run's start.
func (s *Server) running(r *run) *mcp.CallToolResult {
	e := ending{s: s, t: &annotations.Tool{Name: r.Tool}, begin: r.Started,
		o: Outcome{Tool: r.Tool, Tier: r.Tier, TimeoutSeconds: roundSeconds(r.Ceiling()), Retryable: true, RunID: r.ID}}
	elapsed := time.Since(r.Started)
	text := s.cfg.Printer.Sprintf(i18n.RunDetached, r.Tool, int(elapsed.Seconds()), int(r.Ceiling().Seconds()),
		r.ID, int(s.cfg.DetachAfter.Seconds()))
	s.cfg.Logger.Info("call detached", "tool", r.Tool, "tier", r.Tier, "run_id", r.ID, "elapsed_ms", elapsed.Milliseconds())
	return e.finish(CodeRunning, text, nil)
}

// asTask answers with r's task (the same task for every call that joined
// r): the transport sends its handle in place of this result. The run goes
// on after this request ends, held (its id is the task's) and followed by
// the task, which takes over from the request's obs before it lets go.
func (rq *request) asTask(r *run, obs *observer) *mcp.CallToolResult {
	task := rq.s.tasks.Create(rq.task.Gen, r, rq.task.TTL())
	rq.s.cfg.Logger.Info("call runs as a task", "tool", r.Tool, "tier", r.Tier, "task_id", task.ID, "tasks", task.Gen.String())
	r.Hold()
	detach := r.Attach(&observer{req: rq.req, sess: rq.sess, task: task})
	r.Detach(obs)
	go rq.followTask(task, r, detach)
	rq.task.Assign(task)
	return &mcp.CallToolResult{Content: []mcp.Content{}}
}

// followTask stays with a task's run until it ends: a person may be asked
// through the task (ask before the kill), and where the generation says so
// (2025-11-25) a host that sent a progress token gets progress for the
// task's life — from the moment the handle is on the wire.
func (rq *request) followTask(task *tasks.Task, r *run, detach func()) {
	defer detach()
	if !task.Gen.ProgressAfterHandle() {
		<-r.Done()
		return
	}
	select {
	case <-task.Delivered():
	case <-r.Done():
		return
	}
	prog := newProgress(rq.s, rq.req, r)
	<-r.Done()
	prog.close()
}

// owed answers a requester that is owed a task (2025-11-25: it asked for
// one) and got none — the call ended before any run started: invalid
// arguments, a refusal, a decline — with a task born finished with res.
// Any other answer is left as it is.
func (rq *request) owed(res *mcp.CallToolResult) *mcp.CallToolResult {
	if rq.s.tasks == nil || !rq.task.Owed() || res == nil || rq.task.Assigned() != nil {
		return res
	}
	rq.task.Assign(rq.s.tasks.Finished(rq.task.Gen, res, rq.task.TTL()))
	return res
}

// elicit asks the observer's host a question: as its task asks one
// (tasks.Task.Ask), or through its session.
func (o *observer) elicit(ctx context.Context, params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if o.task != nil {
		return o.task.Ask(ctx, o.req.Session.Elicit, params)
	}
	return o.req.Session.Elicit(ctx, params)
}
