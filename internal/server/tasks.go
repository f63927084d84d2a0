package server

import (
	"context"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/tasks"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call as an MCP task (DESIGN.md §9). The transport marks a tools/call
// whose host can take a task (transport_tasks.go); the call goes through
// the same stages as any other — validation, the gate, the run — and only
// its answer differs: a MUTATE or LIVE run becomes a task, answered with its
// handle at once, and the host polls the task for the run's result. The run
// is the same run an ordinary call would have started, so its result is the
// same, its tree dies the same way, and aeat_mcp_wait and aeat_mcp_runs see
// it too.

// follow waits for r on behalf of this request, attached to it as obs
// (observe), or, when the host takes tasks and the tool is not a quick
// READ, makes r a task and answers with its handle.
func (c *call) follow(ctx context.Context, r *run, obs *observer, joined bool) *mcp.CallToolResult {
	if c.mark != nil && c.t.Tier() != annotations.Read {
		return c.asTask(r, obs)
	}
	return c.observe(ctx, r, obs, joined)
}

// asTask answers with r's task (the same task for every call that joined
// r). The run goes on after this request ends, held (its id is the task's)
// and followed by the task, which takes over from the request's obs before
// it lets go.
func (c *call) asTask(r *run, obs *observer) *mcp.CallToolResult {
	s := c.s
	task := s.tasks.Create(c.mark.Gen, r, time.Duration(c.mark.TTLMs)*time.Millisecond)
	s.cfg.Logger.Info("call runs as a task", "tool", r.Tool, "tier", r.Tier, "task_id", task.ID, "tasks", task.Gen.String())
	r.Hold()
	detach := r.Attach(&observer{req: c.req, task: task})
	r.Detach(obs)
	go c.followTask(task, r, detach)
	return c.handle(task)
}

// handle is the result that carries task's handle for the transport.
func (c *call) handle(task *tasks.Task) *mcp.CallToolResult {
	res, err := tasks.HandleResult(task)
	if err != nil {
		c.o.Code = CodeInternal
		return c.finish(c.p.Sprintf(i18n.Internal, c.t.Name, err.Error()), nil)
	}
	return res
}

// followTask stays with a task's run until it ends: a person may be asked
// through the task (ask before the kill), and a 2025-11-25 host that sent a
// progress token gets progress for the task's life, as that spec says —
// from the moment the handle is on the wire.
func (c *call) followTask(task *tasks.Task, r *run, detach func()) {
	defer detach()
	if task.Gen != tasks.V1 {
		<-r.Done()
		return
	}
	select {
	case <-task.Delivered():
	case <-r.Done():
		return
	}
	prog := newProgress(c.s, c.req, r)
	<-r.Done()
	prog.close()
}

// asked is the answer to a request that asked for a 2025-11-25 task: that
// spec wants a task in answer, so a call that ended before any run started
// (invalid arguments, a refusal, a decline) is answered with a task born
// finished with that result. Any other answer is left as it is.
func (c *call) asked(res *mcp.CallToolResult) *mcp.CallToolResult {
	if c.mark == nil || c.mark.Gen != tasks.V1 || res == nil {
		return res
	}
	if _, isHandle := res.Meta[tasks.HandleKey]; isHandle {
		return res
	}
	task := c.s.tasks.Finished(tasks.V1, res, time.Duration(c.mark.TTLMs)*time.Millisecond)
	return c.handle(task)
}

// elicit asks the observer's host a question: through its session, or,
// for a 2026-07-28 task, as the task's input request (tasks/get shows it,
// tasks/update answers it). A 2025-11-25 task is input_required while the
// session's question is open, and the question names its task.
func (o *observer) elicit(ctx context.Context, params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	switch {
	case o.task == nil:
	case o.task.Gen == tasks.V2:
		return o.task.Ask(ctx, params)
	default:
		params.Meta = mcp.Meta{tasks.RelatedTaskKey: map[string]string{"taskId": o.task.ID}}
		defer o.task.Asking()()
	}
	return o.req.Session.Elicit(ctx, params)
}
