package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/aeat-mcp/aeat-mcp/internal/tasks"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// run is a call's work as the run registry holds it.
type run = runs.Run[*mcp.CallToolResult]

// handler is the raw SDK handler of one tool. It never returns a Go error:
// a Go error becomes a JSON-RPC error (with code 0, in this SDK), and every
// failure of a call is a result the model can read.
func (s *Server) handler(t *annotations.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		c := &call{s: s, t: t, req: req, begin: time.Now(), p: s.cfg.Printer}
		c.o = Outcome{Tool: t.Name, Tier: string(t.Tier()), TimeoutSeconds: seconds(t, s.cfg.Ceilings)}
		if m, ok := tasks.MarkOf(req.Params.Meta); ok && s.tasks != nil {
			c.mark = &m
		}
		defer func() {
			if r := recover(); r != nil {
				s.cfg.Logger.Error("panic in a tool call", "tool", t.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				c.o.Code = CodeInternal
				res, err = c.finish(c.p.Sprintf(i18n.Internal, t.Name, fmt.Sprint(r)), nil), nil
			}
			res = c.asked(res)
		}()
		return c.run(ctx), nil
	}
}

// call is one tools/call in progress.
type call struct {
	s     *Server
	t     *annotations.Tool
	req   *mcp.CallToolRequest
	begin time.Time
	p     *i18n.Printer
	o     Outcome
	ext   *extension // what happened at the run's ceiling
	// cliError is the CLI's own error report (error_output "json").
	cliError map[string]any
	// mark is set when the host may be answered with a task (tasks.go).
	mark *tasks.Mark
	// secrets redacts what the CLI was given as a secret (secrets.go); nil
	// when it was given none.
	secrets *callruntime.SecretRedactor
}

// run takes a call through its stages: validate → secrets → gate → run
// (slot → working directory → process → result) → observe. Nothing is spawned
// before the gate said yes. The work is a run of its own (DESIGN.md §9):
// it outlives this request when the request detaches, and an identical
// MUTATE or LIVE call joins it rather than starting it twice.
func (c *call) run(ctx context.Context) *mcp.CallToolResult {
	s, t := c.s, c.t
	args, err := t.Validate(c.req.Params.Arguments)
	if err != nil {
		return c.invalid(err)
	}
	if s.cfg.CLIPath == "" {
		return c.unavailable(errString(s.cfg.CLIError))
	}
	if missing := s.missingEnv[t.Name]; len(missing) > 0 {
		return c.missingEnv(missing)
	}
	// This request waits for its run as obs from the moment it finds or
	// starts it: a run is stopped only when nobody waits for it any more.
	obs := &observer{req: c.req}
	var key string
	join := !s.cfg.NoDedupe && t.Tier() != annotations.Read
	if join {
		key = c.binding(args)
		// A run already under way was confirmed when it started.
		if r, ok := s.runs.Join(key, obs); ok {
			s.cfg.Logger.Debug("call joined a run", "tool", t.Name, "run_id", r.ID)
			return c.follow(ctx, r, obs, true)
		}
	}
	// The secrets first: a call that would refuse for a missing one must
	// not ask a person to confirm it. Reading them changes nothing.
	inv, err := t.Render(args, false)
	if err != nil {
		return c.invalid(err)
	}
	in, refusal := c.gather(ctx, inv)
	if refusal != nil {
		return refusal
	}
	// A place among the tier's runs, running or queued — taken before a
	// person is asked, who must not say yes to a call then refused: beyond
	// them the call is refused, not queued without bound. It is the run's
	// from Start on; any other way out gives it back.
	admitted := s.admitted[t.Tier()]
	select {
	case admitted <- struct{}{}:
	default:
		return c.busy(cap(admitted))
	}
	started := false
	defer func() {
		if !started {
			<-admitted
		}
	}()
	confirmed, ask, refusal := c.gate(ctx, args)
	if ask != nil {
		return ask
	} else if refusal != nil {
		return refusal
	}
	if confirmed {
		if inv, err = t.Render(args, true); err != nil {
			return c.invalid(err)
		}
	}
	spec := runs.Spec{Tool: t.Name, Key: key, Join: join, Tier: string(t.Tier()), Ceiling: t.Ceiling(s.cfg.Ceilings), Observer: obs}
	r, joined := s.runs.Start(s.lifetime, spec, func(rctx context.Context, r *run) (res *mcp.CallToolResult, st runs.State) {
		defer func() { <-admitted }()
		defer func() {
			// The run has its own goroutine: the handler's recover does
			// not cover it, and a panic here would take the server down.
			if p := recover(); p != nil {
				s.cfg.Logger.Error("panic in a tool call", "tool", t.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				c.o.Code = CodeInternal
				res, st = c.finish(c.p.Sprintf(i18n.Internal, t.Name, fmt.Sprint(p)), nil), runs.Failed
			}
		}()
		res = c.execute(rctx, r, inv.Argv, in)
		return res, stateOf(res)
	})
	started = true
	if joined {
		<-admitted // the run it joined holds a place already
		s.cfg.Logger.Debug("call joined a run", "tool", t.Name, "run_id", r.ID)
	}
	return c.follow(ctx, r, obs, joined)
}

// execute is a run's work: a slot of the tool's tier, the working
// directory, the process tree, and the result. ctx ends when the run is
// cancelled or the server goes away; the ceiling starts now, and time spent
// waiting for a slot counts.
func (c *call) execute(ctx context.Context, r *run, argv []string, in inputs) *mcp.CallToolResult {
	s, t := c.s, c.t
	runCtx, stopRun := context.WithCancelCause(ctx)
	defer stopRun(nil)
	ext := &extension{}
	defer c.enforceCeiling(runCtx, r, stopRun, ext)()
	c.ext = ext
	release, ok := c.slot(runCtx, r)
	if !ok {
		return c.stopped(context.Cause(runCtx), nil)
	}
	defer release()

	dir, env, cleanup, err := s.workDir()
	if err != nil {
		return c.unavailable(err.Error())
	}
	defer cleanup()
	secrets := in.redacted()
	c.secrets = callruntime.RedactSecrets(secrets)
	spec := callruntime.Spec{
		Path:        s.cfg.CLIPath,
		Args:        argv,
		Env:         withVars(s.goos, env, in.env),
		Dir:         dir,
		Stdin:       in.stdin,
		KillGrace:   s.cfg.KillGrace,
		MaxStdout:   s.cfg.MaxResultBytes,
		MaxStderr:   s.cfg.MaxResultBytes / 4,
		Filter:      callruntime.RedactPrivateKeys,
		Secrets:     secrets,
		OnLine:      lineObserver(r, t.Progress, c.secrets),
		MemoryLimit: s.cfg.MemoryLimit,
	}
	if s.beforeRun != nil {
		s.beforeRun(t.Name)
	}
	res, err := s.start(runCtx, t, spec)
	c.o.TimeoutSeconds = roundSeconds(r.Ceiling()) // extended, perhaps
	return c.ended(runCtx, res, err)
}

// observe waits for r on behalf of this request, attached to it as obs:
// its result when it ends; a "running" result when the request has waited
// --detach-after (the run goes on, held for aeat_mcp_wait to collect); and,
// when the client cancels the request, the run's end too if nobody else
// waits for it (runs.Run.Abandon): its tree is killed. A run that another
// request, a join or a task still waits for goes on. Progress goes to this
// request meanwhile.
func (c *call) observe(ctx context.Context, r *run, obs *observer, joined bool) *mcp.CallToolResult {
	defer r.Detach(obs)
	prog := newProgress(c.s, c.req, r)
	var detach <-chan time.Time
	if d := c.s.cfg.DetachAfter; d > 0 {
		timer := time.NewTimer(d)
		defer timer.Stop()
		detach = timer.C
	}
	select {
	case <-r.Done():
	case <-detach:
		prog.close()
		r.Hold()
		return c.running(r)
	case <-ctx.Done():
		if r.Abandon(obs) {
			<-r.Done()
		} else {
			prog.close()
			c.o.Code = CodeCancelled
			return c.finish(c.p.Sprintf(i18n.Cancelled, c.t.Name), nil)
		}
	}
	prog.close()
	res := resultOf(r)
	if joined {
		res.Content = append(res.Content, &mcp.TextContent{Text: c.p.Sprintf(i18n.RunJoined, r.ID, r.Tool, int(time.Since(r.Started).Seconds()))})
	}
	return res
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
// an error, the run's id, and what to do to collect it.
func (c *call) running(r *run) *mcp.CallToolResult {
	o := Outcome{Code: CodeRunning, Tool: r.Tool, Tier: r.Tier, TimeoutSeconds: roundSeconds(r.Ceiling()),
		Retryable: true, RunID: r.ID, DurationMS: time.Since(r.Started).Milliseconds()}
	text := c.p.Sprintf(i18n.RunDetached, r.Tool, int(time.Since(r.Started).Seconds()), int(r.Ceiling().Seconds()),
		r.ID, int(c.s.cfg.DetachAfter.Seconds()))
	c.s.cfg.Logger.Info("call detached", "tool", r.Tool, "tier", r.Tier, "run_id", r.ID, "elapsed_ms", o.DurationMS)
	return result(o, text, nil)
}

// stateOf is the run state a result ends in.
func stateOf(res *mcp.CallToolResult) runs.State {
	o, _ := res.Meta[OutcomeKey].(Outcome)
	switch o.Code {
	case CodeOK:
		return runs.Completed
	case CodeCancelled:
		return runs.Cancelled
	}
	return runs.Failed
}

// slot waits for a concurrency slot of the tool's tier, telling the host it
// waits. It fails when ctx ends first.
func (c *call) slot(ctx context.Context, r *run) (release func(), ok bool) {
	slot := c.s.slots[c.t.Tier()]
	select {
	case slot <- struct{}{}:
	default:
		r.SetWaiting(true)
		select {
		case slot <- struct{}{}:
		case <-ctx.Done():
			return nil, false
		}
		r.SetWaiting(false)
	}
	return func() { <-slot }, true
}

// ended is the one place that turns the end of a run into a result.
func (c *call) ended(runCtx context.Context, r callruntime.Result, err error) *mcp.CallToolResult {
	var se *callruntime.StartError
	switch {
	case errors.Is(err, syscall.E2BIG):
		// The kernel bounds one argument (128 KiB on Linux) and the whole
		// argv: the arguments are at fault, and nothing started.
		return c.invalid(&annotations.ValidationError{Msg: "the arguments are too long to pass on a command line"})
	case errors.As(err, &se):
		// Whatever kept the program from starting — missing, not
		// executable, not a program at all (ENOEXEC), a working directory
		// that is not there — is the CLI's set-up, not our bug.
		return c.unavailable(se.Error())
	case errors.Is(err, callruntime.ErrRunnerClosed):
		return c.stopped(ErrShuttingDown, nil)
	case err != nil:
		c.o.Code = CodeInternal
		return c.finish(c.p.Sprintf(i18n.Internal, c.t.Name, err.Error()), nil)
	}
	dead := r.TreeDead
	c.o.TreeDead = &dead
	switch r.Outcome {
	case callruntime.Exited:
		return c.exited(r)
	case callruntime.Signaled:
		c.o.Code = CodeExit
		c.o.Signal = r.Signal
		return c.finish(c.failure(c.p.Sprintf(i18n.ExitSignal, c.t.Name, r.Signal), r), nil)
	case callruntime.ResourceExceeded:
		c.o.Code = CodeResourceExceeded
		return c.finish(c.failure(c.p.Sprintf(i18n.ResourceExceeded, c.t.Name, c.s.cfg.MemoryLimit>>20), r), nil)
	default: // TimedOut, Cancelled
		cause := context.Cause(runCtx)
		if r.Outcome == callruntime.TimedOut {
			cause = callruntime.ErrTimeout
		}
		return c.stopped(cause, &r)
	}
}

// stopped is the result of a call the server stopped: its time ran out, the
// client cancelled it, or the server is going away. r is nil when no
// process had started yet.
func (c *call) stopped(cause error, r *callruntime.Result) *mcp.CallToolResult {
	if r != nil {
		dead := r.TreeDead
		c.o.TreeDead = &dead
	}
	c.o.Retryable = true
	if !errors.Is(cause, callruntime.ErrTimeout) {
		c.o.Code = CodeCancelled
		return c.finish(c.p.Sprintf(i18n.Cancelled, c.t.Name), nil)
	}
	c.o.Code = CodeTimeout
	c.o.TimedOut = true
	tier := string(c.t.Tier())
	key := i18n.Timeout
	if c.t.Timeout > 0 {
		key = i18n.TimeoutOwnCeiling // the manifest's timeout, not the tier flag, set the ceiling
	}
	text := c.p.Sprintf(key, c.t.Name, c.p.Tier(tier), formatSeconds(c.o.TimeoutSeconds), tier)
	if c.ext != nil {
		if answer, extended := c.ext.get(); extended > 0 {
			text += c.p.Sprintf(i18n.TimeoutExtended, int(extended.Seconds()))
		} else if answer == noAnswer {
			text += c.p.Sprintf(refusalKeys[answer], int(c.s.askWait.Seconds()))
		} else if key, ok := refusalKeys[answer]; ok {
			text += c.p.Sprintf(key)
		}
	}
	if !c.t.Hints.ReadOnly {
		text += c.p.Sprintf(i18n.TimeoutMayBeHalf)
	}
	if r != nil && r.Stderr.Total > 0 {
		room := c.s.cfg.MaxResultBytes - len(text) - 64
		text += "\n\n" + c.p.Sprintf(i18n.Stderr) + "\n" + c.output(r.Stderr, room)
	}
	return c.finish(text, nil)
}

func formatSeconds(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", f), "0"), ".")
}

func (c *call) invalid(err error) *mcp.CallToolResult {
	c.o.Code = CodeInvalidArguments
	var ve *annotations.ValidationError
	if !errors.As(err, &ve) {
		ve = &annotations.ValidationError{Msg: err.Error()}
	}
	field := ve.Field
	c.o.Field = &field
	if field == "" {
		return c.finish(c.p.Sprintf(i18n.InvalidArgsNoField, c.t.Name, ve.Msg), nil)
	}
	return c.finish(c.p.Sprintf(i18n.InvalidArguments, c.t.Name, field, ve.Msg), nil)
}

// unavailable is the result of a call whose CLI cannot be started; why
// says what is wrong, for a person to fix.
func (c *call) unavailable(why string) *mcp.CallToolResult {
	c.o.Code = CodeCLIUnavailable
	return c.finish(c.p.Sprintf(i18n.CLIUnavailable, c.t.Name, why), nil)
}

// missingEnv is the result of a call whose CLI would run without
// variables it cannot work without (cli.env.require, a stdin env).
func (c *call) missingEnv(names []string) *mcp.CallToolResult {
	c.o.Code = CodeCLIUnavailable
	c.o.Reason = ReasonMissingEnv
	c.o.MissingEnv = names
	return c.finish(c.p.Sprintf(i18n.MissingEnv, c.t.Name, strings.Join(names, ", ")), nil)
}

// busy is the result of a call refused because n runs of its tier are
// running or waiting for a slot already.
func (c *call) busy(n int) *mcp.CallToolResult {
	c.o.Code = CodeRefused
	c.o.Reason = ReasonBusy
	c.o.Retryable = true
	return c.finish(c.p.Sprintf(i18n.RefusedBusy, c.t.Name, n, c.p.Tier(string(c.t.Tier()))), nil)
}

// refuse is the result of a gate that said no.
func (c *call) refuse(reason string, key i18n.Key) *mcp.CallToolResult {
	c.o.Code = CodeRefused
	c.o.Reason = reason
	return c.finish(c.p.Sprintf(key, c.t.Name), nil)
}

func (c *call) okText(r callruntime.Result) string {
	if r.Stdout.Total == 0 {
		return c.p.Sprintf(i18n.NoOutput)
	}
	return c.output(r.Stdout, c.s.cfg.MaxResultBytes)
}

// output is a stream's text within budget bytes. Where bytes are left out —
// by the capture, by the budget, or both — one marker says exactly how many.
func (c *call) output(o callruntime.Output, budget int) string {
	return fitOutput(o, budget, func(n int64) string { return "\n" + c.p.Sprintf(i18n.Truncated, n) + "\n" })
}

// structured is stdout as structuredContent: only for output "json", only
// when stdout is whole and a valid JSON object. It is the bytes of stdout
// themselves — the capture, not a decoded copy: a map of a large document
// holds several times its size — unless they must be decoded: invalid
// UTF-8 (which decoding replaces), or secrets to look for (see secrets.go)
// — decoding may reveal one the stream held in a form not redacted
// ("\u0068unter2"): it is redacted from the value, and found says so.
func (c *call) structured(r callruntime.Result) (v json.RawMessage, found bool) {
	if c.t.Output != annotations.OutputJSON || r.Stdout.Omitted() > 0 {
		return nil, false
	}
	whole := joinBytes(r.Stdout.Head, r.Stdout.Tail)
	if trimmed := bytes.TrimSpace(whole); len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, false
	} else if c.secrets == nil && utf8.Valid(trimmed) {
		return trimmed, false
	}
	var m map[string]any
	if json.Unmarshal(whole, &m) != nil || m == nil {
		return nil, false
	}
	_, found = redactValue(c.secrets, m)
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, false
	}
	return raw, found
}

// finish stamps the outcome, cleans the text of control sequences, keeps it
// within --max-result-bytes and logs the call without its payload
// (arguments and output hold tax ids).
func (c *call) finish(text string, structured any) *mcp.CallToolResult {
	c.o.DurationMS = time.Since(c.begin).Milliseconds()
	// Cleaning can join a secret the stream kept apart with an escape.
	text = fit(c.secrets.RedactString(cleanText(text)), c.s.cfg.MaxResultBytes, func(n int) string { return c.p.Sprintf(i18n.Truncated, n) })
	attrs := []any{"tool", c.o.Tool, "tier", c.o.Tier, "code", c.o.Code, "duration_ms", c.o.DurationMS}
	if c.o.ExitCode != nil {
		attrs = append(attrs, "exit_code", *c.o.ExitCode)
	}
	c.s.cfg.Logger.Info("call", attrs...)
	res := result(c.o, text, structured)
	if c.cliError != nil {
		res.Meta[CLIErrorKey] = c.cliError
	}
	return res
}

func errString(err error) string {
	if err == nil {
		return "no CLI configured"
	}
	return err.Error()
}
