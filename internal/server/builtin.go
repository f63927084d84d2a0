package server

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The built-in tools collect and manage runs that outlived their request
// (docs/long-calls.md). They are always advertised, --read-only included, and
// their names are reserved: a manifest tool may not start with aeat_mcp_.
const (
	ToolWait   = annotations.ReservedPrefix + "wait"
	ToolCancel = annotations.ReservedPrefix + "cancel"
	ToolRuns   = annotations.ReservedPrefix + "runs"
)

// runIDPattern is what a run id looks like (runs.Registry makes them).
const runIDPattern = `^r-[0-9a-f]{16}$`

func ptr[T any](v T) *T { return &v }

// runTools are the entries of the run tools (registry.go): aeat_mcp_wait,
// aeat_mcp_cancel and aeat_mcp_runs.
func (s *Server) runTools() []serverTool {
	runID := annotations.Param{Name: "run_id", Type: "string", Required: true, Pattern: runIDPattern,
		Description: "The run's id, from the result that said the call goes on (r- and 16 hex digits)."}
	waitSeconds := annotations.Param{Name: "wait_seconds", Type: "number", Minimum: ptr(0.0), Maximum: ptr(s.maxWait().Seconds()),
		Description: fmt.Sprintf("How long to wait at most, in seconds (default: until the run ends; at most %g).", s.maxWait().Seconds())}
	if d := s.cfg.DetachAfter; d > 0 {
		waitSeconds.Description = fmt.Sprintf("How long to wait at most, in seconds (default and most: %g).", d.Seconds())
	}
	readOnly := annotations.Hints{ReadOnly: true, Idempotent: true}
	return []serverTool{
		{tool: annotations.NewBuiltin(ToolWait, "Wait for a run's result",
			"Waits for a run that outlived its call (a result said it goes on as run r-…) and returns its final result — "+
				"exactly what the original call would have returned — or, if it is still running when the wait ends, says so again: "+
				"then call this tool again. Sends progress while it waits.",
			readOnly, runID, waitSeconds), handle: s.wait, listed: true},
		{tool: annotations.NewBuiltin(ToolCancel, "Cancel a run",
			"Stops a run that outlived its call: its whole process tree (the CLI, a browser) is killed. "+
				"A run that already ended is left as it is. A change the run was making may be partly applied. "+
				"Every conversation of this host shares this server's runs: cancel only a run you started.",
			annotations.Hints{Idempotent: true}, runID), handle: s.cancelRun, listed: true},
		{tool: annotations.NewBuiltin(ToolRuns, "List runs",
			"Lists the runs this server keeps — in progress, and ended within the last minutes — with their tool, tier, state, elapsed time and ceiling. "+
				"They include the runs of every conversation of this host, not only yours.",
			readOnly), handle: s.listRuns, listed: true},
	}
}

// maxWaitWithoutDetach bounds wait_seconds when requests never detach
// (--detach-after 0): longer than any ceiling a run may have, and a value
// that is no mistake.
const maxWaitWithoutDetach = 24 * time.Hour

// maxWait is the longest wait_seconds aeat_mcp_wait takes: --detach-after,
// or maxWaitWithoutDetach when requests never detach.
func (s *Server) maxWait() time.Duration {
	if d := s.cfg.DetachAfter; d > 0 {
		return d
	}
	return maxWaitWithoutDetach
}

// findRun finds a run, or ends the call with a result that says it is not
// kept.
func (s *Server) findRun(rq *request, args annotations.Args) (*run, *mcp.CallToolResult) {
	id, _ := args.Text("run_id") // required: Validate saw it
	r, ok := s.runs.Get(id)
	if !ok {
		keep := s.cfg.KeepResults
		if keep <= 0 {
			keep = runs.DefaultKeep
		}
		field := "run_id"
		rq.o.Field = &field
		return nil, rq.finish(CodeInvalidArguments, s.cfg.Printer.Sprintf(i18n.RunUnknown, id, int(keep.Minutes())), nil)
	}
	return r, nil
}

// wait is aeat_mcp_wait: the run's own result if it ends within the wait,
// else "still running" again.
func (s *Server) wait(ctx context.Context, rq *request, args annotations.Args) *mcp.CallToolResult {
	r, notFound := s.findRun(rq, args)
	if notFound != nil {
		return notFound
	}
	d := s.cfg.DetachAfter
	seconds, given := args.Number("wait_seconds")
	if given {
		d = time.Duration(seconds * float64(time.Second)) // within maxWait (Validate): no overflow
	}
	if _, done := r.Result(); done {
		return resultOf(r)
	}
	r.Hold() // whoever has its id may collect it: no request's end stops it now
	defer r.Attach(&observer{req: rq.req, sess: rq.sess})()
	prog := newProgress(s, rq.req, r)
	defer prog.close()
	var timeout <-chan time.Time
	if d > 0 || given {
		timer := time.NewTimer(d)
		defer timer.Stop()
		timeout = timer.C
	}
	if s.await(ctx, r, timeout) == waitEnded {
		return resultOf(r)
	}
	return s.running(r) // the wait's time passed, or the client gave up waiting: the run goes on
}

// cancelRun is aeat_mcp_cancel: the run's tree is killed and its result
// becomes "cancelled"; a run that ended is left alone.
func (s *Server) cancelRun(_ context.Context, rq *request, args annotations.Args) *mcp.CallToolResult {
	r, notFound := s.findRun(rq, args)
	if notFound != nil {
		return notFound
	}
	p := s.cfg.Printer
	if st := r.Phase(); st.Terminal() {
		return rq.finish(CodeOK, p.Sprintf(i18n.RunAlreadyOver, r.ID, r.Tool, string(st)), nil)
	}
	r.Cancel()
	<-r.Done()
	return rq.finish(CodeOK, p.Sprintf(i18n.RunCancelled, r.ID, r.Tool), nil)
}

// runInfo is one run as aeat_mcp_runs reports it to programs.
type runInfo struct {
	RunID          string  `json:"run_id"`
	Tool           string  `json:"tool"`
	Tier           string  `json:"tier"`
	State          string  `json:"state"`
	ElapsedSeconds float64 `json:"elapsed_seconds"`
	CeilingSeconds float64 `json:"ceiling_seconds"`
}

// listRuns is aeat_mcp_runs.
func (s *Server) listRuns(_ context.Context, rq *request, _ annotations.Args) *mcp.CallToolResult {
	p := s.cfg.Printer
	list := s.runs.List()
	infos := make([]runInfo, 0, len(list))
	var b strings.Builder
	if len(list) == 0 {
		b.WriteString(p.Sprintf(i18n.RunsNone))
	} else {
		b.WriteString(p.Sprintf(i18n.RunsHeader))
	}
	for _, r := range list {
		info := runInfo{RunID: r.ID, Tool: r.Tool, Tier: r.Tier, State: string(r.Phase),
			ElapsedSeconds: roundSeconds(r.Elapsed), CeilingSeconds: roundSeconds(r.Ceiling)}
		infos = append(infos, info)
		fmt.Fprintf(&b, "\n%s  %s  %s  %s  %s s / %s s", r.ID, r.Tool, p.Tier(r.Tier), r.Phase,
			formatSeconds(info.ElapsedSeconds), formatSeconds(info.CeilingSeconds))
	}
	return rq.finish(CodeOK, b.String(), map[string]any{"runs": infos})
}
