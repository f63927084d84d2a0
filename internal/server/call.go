package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// handler is the raw SDK handler of one tool. It never returns a Go error:
// a Go error becomes a JSON-RPC error (with code 0, in this SDK), and every
// failure of a call is a result the model can read.
func (s *Server) handler(t *annotations.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		c := &call{s: s, t: t, req: req, begin: time.Now(), p: s.cfg.Printer}
		c.o = Outcome{Tool: t.Name, Tier: string(t.Tier()), TimeoutSeconds: seconds(t, s.cfg.Ceilings)}
		defer func() {
			if r := recover(); r != nil {
				s.cfg.Logger.Error("panic in a tool call", "tool", t.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				c.o.Code = CodeInternal
				res, err = c.finish(c.p.Sprintf(i18n.Internal, t.Name, fmt.Sprint(r)), nil), nil
			}
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
}

// testHookBeforeRun, when set by a test, runs just before the CLI starts.
var testHookBeforeRun func(tool string)

func (c *call) run(ctx context.Context) *mcp.CallToolResult {
	s, t, p := c.s, c.t, c.p
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer context.AfterFunc(s.lifetime, func() { cancel(ErrShuttingDown) })()

	args, err := t.Validate(c.req.Params.Arguments)
	var argv []string
	if err == nil {
		argv, err = t.Render(args)
	}
	if err != nil {
		return c.invalid(err)
	}
	if s.cfg.CLIPath == "" {
		c.o.Code = CodeCLIUnavailable
		return c.finish(p.Sprintf(i18n.CLIUnavailable, t.Name, errString(s.cfg.CLIError)), nil)
	}
	if ask, refusal := c.gate(ctx); ask != nil {
		return ask
	} else if refusal != nil {
		return refusal
	}

	// The ceiling starts now: time spent waiting for a slot counts.
	ceiling := t.Ceiling(s.cfg.Ceilings)
	runCtx, cancelRun := context.WithTimeoutCause(ctx, ceiling, callruntime.ErrTimeout)
	defer cancelRun()
	prog := newProgress(c, ceiling)
	defer prog.close()

	slot := s.slots[t.Tier()]
	select {
	case slot <- struct{}{}:
	default:
		prog.setWaiting(true)
		select {
		case slot <- struct{}{}:
		case <-runCtx.Done():
			return c.stopped(context.Cause(runCtx), callruntime.Result{TreeDead: true})
		}
		prog.setWaiting(false)
	}
	defer func() { <-slot }()

	dir := s.cfg.Manifest.WorkDir()
	if dir == annotations.ScratchDir {
		scratch, err := os.MkdirTemp("", "aeat-mcp-call-")
		if err != nil {
			c.o.Code = CodeInternal
			return c.finish(p.Sprintf(i18n.Internal, t.Name, "creating the scratch directory: "+err.Error()), nil)
		}
		defer os.RemoveAll(scratch)
		dir = scratch
	}
	spec := callruntime.Spec{
		Path:        s.cfg.CLIPath,
		Args:        argv,
		Env:         s.env,
		Dir:         dir,
		KillGrace:   s.cfg.KillGrace,
		MaxStdout:   s.cfg.MaxResultBytes,
		MaxStderr:   s.cfg.MaxResultBytes / 4,
		Filter:      callruntime.RedactPrivateKeys,
		OnLine:      prog.observer(),
		MemoryLimit: s.cfg.MemoryLimit,
	}
	if testHookBeforeRun != nil {
		testHookBeforeRun(t.Name)
	}
	r, err := s.cfg.Runner.Run(runCtx, spec)
	var se *callruntime.StartError
	switch {
	case errors.Is(err, callruntime.ErrNotFound) || errors.Is(err, callruntime.ErrNotExecutable):
		c.o.Code = CodeCLIUnavailable
		return c.finish(p.Sprintf(i18n.CLIUnavailable, t.Name, err.Error()), nil)
	case errors.Is(err, syscall.E2BIG):
		// The kernel bounds one argument (128 KiB on Linux) and the whole
		// argv: the arguments are at fault, and nothing started.
		return c.invalid(&annotations.ValidationError{Msg: "the arguments are too long to pass on a command line"})
	case errors.As(err, &se):
		c.o.Code = CodeInternal
		return c.finish(p.Sprintf(i18n.Internal, t.Name, se.Error()), nil)
	case errors.Is(err, callruntime.ErrRunnerClosed):
		return c.stopped(ErrShuttingDown, callruntime.Result{TreeDead: true})
	case err != nil:
		c.o.Code = CodeInternal
		return c.finish(p.Sprintf(i18n.Internal, t.Name, err.Error()), nil)
	}
	c.o.TreeDead = r.TreeDead
	switch r.Outcome {
	case callruntime.Exited:
		code := r.ExitCode
		c.o.ExitCode = &code
		if code == 0 {
			c.o.Code = CodeOK
			return c.finish(c.okText(r), c.structured(r))
		}
		c.o.Code = CodeExit
		return c.finish(c.failureText(p.Sprintf(i18n.ExitCode, t.Name, code), r), nil)
	case callruntime.Signaled:
		c.o.Code = CodeExit
		c.o.Signal = r.Signal
		return c.finish(c.failureText(p.Sprintf(i18n.ExitSignal, t.Name, r.Signal), r), nil)
	case callruntime.ResourceExceeded:
		c.o.Code = CodeResourceExceeded
		return c.finish(c.failureText(p.Sprintf(i18n.ResourceExceeded, t.Name, s.cfg.MemoryLimit>>20), r), nil)
	default: // TimedOut, Cancelled
		cause := context.Cause(runCtx)
		if r.Outcome == callruntime.TimedOut {
			cause = callruntime.ErrTimeout
		}
		return c.stopped(cause, r)
	}
}

// stopped is the result of a call the server stopped: its time ran out, the
// client cancelled it, or the server is going away.
func (c *call) stopped(cause error, r callruntime.Result) *mcp.CallToolResult {
	c.o.TreeDead = r.TreeDead
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
	if !c.t.Hints.ReadOnly {
		text += c.p.Sprintf(i18n.TimeoutMayBeHalf)
	}
	if r.Stderr.Total > 0 {
		text += "\n\n" + c.p.Sprintf(i18n.Stderr) + "\n" + r.Stderr.Text(c.marker)
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
	c.o.TreeDead = true // nothing was started
	if field == "" {
		return c.finish(c.p.Sprintf(i18n.InvalidArgsNoField, c.t.Name, ve.Msg), nil)
	}
	return c.finish(c.p.Sprintf(i18n.InvalidArguments, c.t.Name, field, ve.Msg), nil)
}

func (c *call) marker(omitted int64) string {
	return "\n" + c.p.Sprintf(i18n.Truncated, omitted) + "\n"
}

func (c *call) okText(r callruntime.Result) string {
	if r.Stdout.Total == 0 {
		return c.p.Sprintf(i18n.NoOutput)
	}
	return r.Stdout.Text(c.marker)
}

// structured is stdout as structuredContent: only for output "json", only
// when stdout is a whole, valid JSON object.
func (c *call) structured(r callruntime.Result) any {
	if c.t.Output != annotations.OutputJSON || r.Stdout.Omitted() > 0 {
		return nil
	}
	var v map[string]any
	if json.Unmarshal(r.Stdout.Head, &v) != nil || v == nil {
		return nil
	}
	return v
}

// failureText puts what the CLI said under the localized headline: the end
// of stderr first (that is where the error is), then stdout.
func (c *call) failureText(headline string, r callruntime.Result) string {
	var b strings.Builder
	b.WriteString(headline)
	if r.Stderr.Total > 0 {
		b.WriteString("\n\n" + c.p.Sprintf(i18n.Stderr) + "\n" + r.Stderr.Text(c.marker))
	}
	if r.Stdout.Total > 0 {
		b.WriteString("\n\n" + c.p.Sprintf(i18n.Stdout) + "\n" + r.Stdout.Text(c.marker))
	}
	return b.String()
}

// finish stamps the outcome, keeps the text within --max-result-bytes and
// logs the call without its payload (arguments and output hold tax ids).
func (c *call) finish(text string, structured any) *mcp.CallToolResult {
	c.o.DurationMS = time.Since(c.begin).Milliseconds()
	text = fit(text, c.s.cfg.MaxResultBytes, func(n int) string { return c.p.Sprintf(i18n.Truncated, n) })
	attrs := []any{"tool", c.o.Tool, "tier", c.o.Tier, "code", c.o.Code, "duration_ms", c.o.DurationMS}
	if c.o.ExitCode != nil {
		attrs = append(attrs, "exit_code", *c.o.ExitCode)
	}
	c.s.cfg.Logger.Info("call", attrs...)
	return result(c.o, text, structured)
}

func errString(err error) string {
	if err == nil {
		return "no CLI configured"
	}
	return err.Error()
}
