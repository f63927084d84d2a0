package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/google/jsonschema-go/jsonschema"
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

var runIDPattern = regexp.MustCompile(`^r-[0-9a-f]{16}$`)

func ptr[T any](v T) *T { return &v }

// addBuiltins registers the built-in tools.
func (s *Server) addBuiltins() {
	for _, b := range s.builtinTools() {
		s.mcp.AddTool(b.tool, s.builtin(b.tool.Name, b.handle))
	}
}

// builtinTool is a built-in tool as hosts see it, and its handler.
type builtinTool struct {
	tool   *mcp.Tool
	handle func(context.Context, *request, builtinArgs) *mcp.CallToolResult
}

// builtinTools are the built-in tools, snapshotted like the manifest's
// (testdata/toolsnaps/builtin).
func (s *Server) builtinTools() []builtinTool {
	runID := &jsonschema.Schema{Type: "string", Pattern: runIDPattern.String(),
		Description: "The run's id, from the result that said the call goes on (r- and 16 hex digits)."}
	waitSeconds := &jsonschema.Schema{Type: "number", Minimum: ptr(0.0), Maximum: ptr(s.maxWait().Seconds()),
		Description: fmt.Sprintf("How long to wait at most, in seconds (default: until the run ends; at most %g).", s.maxWait().Seconds())}
	if d := s.cfg.DetachAfter; d > 0 {
		waitSeconds.Description = fmt.Sprintf("How long to wait at most, in seconds (default and most: %g).", d.Seconds())
	}
	return []builtinTool{
		{tool: &mcp.Tool{
			Name:  ToolWait,
			Title: "Wait for a run's result",
			Description: "Waits for a run that outlived its call (a result said it goes on as run r-…) and returns its final result — " +
				"exactly what the original call would have returned — or, if it is still running when the wait ends, says so again: " +
				"then call this tool again. Sends progress while it waits.",
			InputSchema: &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
				Required: []string{"run_id"},
				Properties: map[string]*jsonschema.Schema{
					"run_id":       runID,
					"wait_seconds": waitSeconds,
				}},
			Annotations: &mcp.ToolAnnotations{Title: "Wait for a run's result", ReadOnlyHint: true,
				DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)},
		}, handle: s.wait},
		{tool: &mcp.Tool{
			Name:  ToolCancel,
			Title: "Cancel a run",
			Description: "Stops a run that outlived its call: its whole process tree (the CLI, a browser) is killed. " +
				"A run that already ended is left as it is. A change the run was making may be partly applied. " +
				"Every conversation of this host shares this server's runs: cancel only a run you started.",
			InputSchema: &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
				Required: []string{"run_id"}, Properties: map[string]*jsonschema.Schema{"run_id": runID}},
			Annotations: &mcp.ToolAnnotations{Title: "Cancel a run", ReadOnlyHint: false,
				DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)},
		}, handle: s.cancelRun},
		{tool: &mcp.Tool{
			Name:  ToolRuns,
			Title: "List runs",
			Description: "Lists the runs this server keeps — in progress, and ended within the last minutes — with their tool, tier, state, elapsed time and ceiling. " +
				"They include the runs of every conversation of this host, not only yours.",
			InputSchema: &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}},
			Annotations: &mcp.ToolAnnotations{Title: "List runs", ReadOnlyHint: true,
				DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)},
		}, handle: s.listRuns},
	}
}

// builtinArgs are the arguments of the built-in tools.
type builtinArgs struct {
	RunID       string
	WaitSeconds *float64
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

// parseBuiltinArgs reads a built-in tool's arguments strictly, saying in
// the model's terms what is wrong — the field, the JSON type expected and
// given, the bounds — never a Go decoder's message ("cannot unmarshal
// number into Go struct field builtinArgs.run_id").
func (s *Server) parseBuiltinArgs(tool string, raw json.RawMessage) (builtinArgs, *annotations.ValidationError) {
	var a builtinArgs
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return a, nil
	}
	var fields map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &fields) != nil {
		return a, &annotations.ValidationError{Msg: "the arguments must be a JSON object, not " + jsonKind(raw)}
	}
	takes := map[string]bool{"run_id": tool != ToolRuns, "wait_seconds": tool == ToolWait}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !takes[k] {
			return a, &annotations.ValidationError{Field: k, Msg: "unknown argument; " + tool + " takes " + takesList(takes)}
		}
	}
	if v, ok := fields["run_id"]; ok {
		if json.Unmarshal(v, &a.RunID) != nil {
			return a, &annotations.ValidationError{Field: "run_id", Msg: "must be a string (r- and 16 hex digits), not " + jsonKind(v)}
		}
	}
	if v, ok := fields["wait_seconds"]; ok && string(v) != "null" {
		f, err := s.waitSeconds(v)
		if err != nil {
			return a, err
		}
		a.WaitSeconds = &f
	}
	return a, nil
}

// waitSeconds reads wait_seconds: a number of seconds within maxWait.
func (s *Server) waitSeconds(v json.RawMessage) (float64, *annotations.ValidationError) {
	if kind := jsonKind(v); kind != "a number" {
		return 0, &annotations.ValidationError{Field: "wait_seconds", Msg: "must be a number of seconds, not " + kind}
	}
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(v)), 64) // out of range: ±Inf and an error
	if max := s.maxWait().Seconds(); err != nil || f < 0 || f > max {
		return 0, &annotations.ValidationError{Field: "wait_seconds", Msg: fmt.Sprintf("must be between 0 and %g seconds, not %s", max, bytes.TrimSpace(v))}
	}
	return f, nil
}

// takesList names the arguments a built-in tool takes.
func takesList(takes map[string]bool) string {
	var out []string
	for _, k := range []string{"run_id", "wait_seconds"} {
		if takes[k] {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return "no arguments"
	}
	return strings.Join(out, " and ")
}

// jsonKind names the JSON type of a value, for a message.
func jsonKind(v json.RawMessage) string {
	switch v = bytes.TrimSpace(v); {
	case len(v) == 0:
		return "nothing"
	case v[0] == '"':
		return "a string"
	case v[0] == '{':
		return "an object"
	case v[0] == '[':
		return "an array"
	case v[0] == 't' || v[0] == 'f':
		return "a boolean"
	case v[0] == 'n':
		return "null"
	}
	return "a number"
}

// builtin wraps a built-in tool's handler: strict arguments (a problem is
// an invalid_arguments result naming the field), and no panic escapes.
func (s *Server) builtin(name string, h func(context.Context, *request, builtinArgs) *mcp.CallToolResult) mcp.ToolHandler {
	tool := &annotations.Tool{Name: name}
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		rq := s.newRequest(tool, req)
		defer func() {
			if p := recover(); p != nil {
				res = rq.panicked(p)
			}
		}()
		a, verr := s.parseBuiltinArgs(name, rq.args)
		if verr != nil {
			return rq.invalid(verr), nil
		}
		if name != ToolRuns && !runIDPattern.MatchString(a.RunID) {
			return rq.invalid(&annotations.ValidationError{Field: "run_id", Msg: fmt.Sprintf("%q is not a run id (r- and 16 hex digits)", a.RunID)}), nil
		}
		return h(ctx, rq, a), nil
	}
}

// findRun finds a run, or ends the call with a result that says it is not
// kept.
func (s *Server) findRun(rq *request, id string) (*run, *mcp.CallToolResult) {
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
func (s *Server) wait(ctx context.Context, rq *request, a builtinArgs) *mcp.CallToolResult {
	r, notFound := s.findRun(rq, a.RunID)
	if notFound != nil {
		return notFound
	}
	d := s.cfg.DetachAfter
	if a.WaitSeconds != nil {
		d = time.Duration(*a.WaitSeconds * float64(time.Second)) // within maxWait: no overflow
	}
	if _, done := r.Result(); done {
		return resultOf(r)
	}
	r.Hold() // whoever has its id may collect it: no request's end stops it now
	defer r.Attach(&observer{req: rq.req, sess: rq.sess})()
	prog := newProgress(s, rq.req, r)
	defer prog.close()
	var timeout <-chan time.Time
	if d > 0 || a.WaitSeconds != nil {
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
func (s *Server) cancelRun(_ context.Context, rq *request, a builtinArgs) *mcp.CallToolResult {
	r, notFound := s.findRun(rq, a.RunID)
	if notFound != nil {
		return notFound
	}
	p := s.cfg.Printer
	if st := r.State(); st.Terminal() {
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
func (s *Server) listRuns(_ context.Context, rq *request, _ builtinArgs) *mcp.CallToolResult {
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
		info := runInfo{RunID: r.ID, Tool: r.Tool, Tier: r.Tier, State: string(r.State),
			ElapsedSeconds: roundSeconds(r.Elapsed), CeilingSeconds: roundSeconds(r.Ceiling)}
		infos = append(infos, info)
		fmt.Fprintf(&b, "\n%s  %s  %s  %s  %s s / %s s", r.ID, r.Tool, p.Tier(r.Tier), r.State,
			formatSeconds(info.ElapsedSeconds), formatSeconds(info.CeilingSeconds))
	}
	return rq.finish(CodeOK, b.String(), map[string]any{"runs": infos})
}
