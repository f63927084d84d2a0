package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// run is a call's work as the run registry holds it.
type run = runs.Run[*mcp.CallToolResult]

// work is a run's work: a slot of the tool's tier, the working directory,
// the process tree under the ceiling, and the result. It has an ending of
// its own — the run's result is the run's, whoever waits for it — timed
// from the request that started it.
type work struct {
	ending
	r    *run
	argv []string
	in   inputs
	// ext records what happened at the run's ceiling (extend.go).
	ext extension
	// owner is the session of the request that started the run, the one
	// that may read its output kept (resources.go); nil for a call that
	// came through no session (aeat-mcp call, doctor's probe).
	owner *mcp.ServerSession
}

// newWork is the work of run r that rq started, with the command line and
// the inputs the request prepared.
func (rq *request) newWork(r *run, argv []string, in inputs) *work {
	e := rq.s.newEnding(rq.t)
	e.begin = rq.begin
	w := &work{ending: e, r: r, argv: argv, in: in}
	if rq.req != nil {
		w.owner = rq.req.Session
	}
	return w
}

// runGuarded is the run's work as the registry runs it (runs.Work):
// runTree under ctx, which ends when the run is cancelled or the server
// goes away, and the phase the run ends in. A panic becomes an "internal"
// result: the run has its own goroutine, which no handler's recover
// covers, and a panic here would take the server down.
func (w *work) runGuarded(ctx context.Context) (res *mcp.CallToolResult, ph runs.Phase) {
	defer func() {
		if p := recover(); p != nil {
			res, ph = w.panicked(p), CodeInternal.RunPhase()
		}
	}()
	res = w.runTree(ctx)
	return res, w.o.Code.RunPhase()
}

// runTree is the work itself: a slot of the tier, the working directory,
// the process tree under the ceiling, and its end made a result. The
// ceiling starts now, and time spent waiting for a slot counts.
func (w *work) runTree(ctx context.Context) *mcp.CallToolResult {
	s, t, r := w.s, w.t, w.r
	runCtx, stopRun := context.WithCancelCause(ctx)
	defer stopRun(nil)
	defer w.enforceCeiling(runCtx, stopRun)()
	release, ok := w.slot(runCtx)
	if !ok {
		return w.stopped(context.Cause(runCtx), nil)
	}
	defer release()

	dir, env, cleanup, err := s.workDir()
	if err != nil {
		return w.unavailable(err)
	}
	defer cleanup()
	secrets := w.in.redacted()
	w.secrets = callruntime.RedactSecrets(secrets)
	spec := callruntime.Spec{
		Path:        s.cfg.CLIPath,
		Args:        w.argv,
		Env:         withVars(s.goos, env, w.in.env),
		Dir:         dir,
		Stdin:       w.in.stdin,
		KillGrace:   s.cfg.KillGrace,
		MaxStdout:   s.cfg.MaxResultBytes,
		MaxStderr:   s.cfg.MaxResultBytes / 4,
		Filter:      callruntime.RedactPrivateKeys,
		Secrets:     secrets,
		OnLine:      lineObserver(r, t.Progress, w.secrets),
		MemoryLimit: s.cfg.MemoryLimit,
	}
	if w.owner != nil {
		w.kept = s.outputs.begin(r.ID, t, w.owner, min(spec.MaxStdout, spillInMemory), min(spec.MaxStderr, spillInMemory))
		spec.Spill = w.kept.writer
		defer w.kept.settle()
	}
	if s.beforeRun != nil {
		s.beforeRun(t.Name)
	}
	res, err := s.start(runCtx, t, spec)
	w.o.TimeoutSeconds = roundSeconds(r.Ceiling()) // extended, perhaps
	return w.ended(runCtx, res, err)
}

// slot waits for a concurrency slot of the tool's tier, telling the host it
// waits. It fails when ctx ends first.
func (w *work) slot(ctx context.Context) (release func(), ok bool) {
	slot := w.s.slots[w.t.Tier()]
	select {
	case slot <- struct{}{}:
	default:
		w.r.SetWaiting(true)
		select {
		case slot <- struct{}{}:
		case <-ctx.Done():
			return nil, false
		}
		w.r.SetWaiting(false)
	}
	return func() { <-slot }, true
}

// ended is the one place that turns the end of a process into a result.
func (w *work) ended(runCtx context.Context, r callruntime.Result, err error) *mcp.CallToolResult {
	var se *callruntime.StartError
	var lost lostCall
	switch {
	case errors.Is(err, syscall.E2BIG):
		// The kernel bounds one argument (128 KiB on Linux) and the whole
		// argv: the arguments are at fault, and nothing started.
		return w.invalid(&annotations.ValidationError{Msg: "the arguments are too long to pass on a command line"})
	case errors.As(err, &se):
		// Whatever kept the program from starting — missing, not
		// executable, not a program at all (ENOEXEC), a working directory
		// that is not there — is the CLI's set-up, not our bug.
		return w.unavailable(se)
	case errors.Is(err, callruntime.ErrRunnerClosed):
		return w.stopped(ErrShuttingDown, nil)
	case errors.As(err, &lost):
		return w.lostResult(lost)
	case err != nil:
		return w.finish(CodeInternal, w.s.cfg.Printer.Sprintf(i18n.Internal, w.t.Name, err.Error()), nil)
	}
	dead := r.TreeDead
	w.o.TreeDead = &dead
	p := w.s.cfg.Printer
	switch r.End {
	case callruntime.Exited:
		return w.exited(r)
	case callruntime.Signaled:
		w.o.Signal = r.Signal
		return w.finish(CodeExit, w.failure(p.Sprintf(i18n.ExitSignal, w.t.Name, r.Signal), r), nil)
	case callruntime.ResourceExceeded:
		return w.finish(CodeResourceExceeded, w.failure(p.Sprintf(i18n.ResourceExceeded, w.t.Name, w.s.cfg.MemoryLimit>>20), r), nil)
	default: // TimedOut, Cancelled
		cause := context.Cause(runCtx)
		if r.End == callruntime.TimedOut {
			cause = callruntime.ErrTimeout
		}
		return w.stopped(cause, &r)
	}
}

// stopped is the result of a run the server stopped: its time ran out, the
// client cancelled it, or the server is going away. r is nil when no
// process had started yet.
func (w *work) stopped(cause error, r *callruntime.Result) *mcp.CallToolResult {
	if r != nil {
		dead := r.TreeDead
		w.o.TreeDead = &dead
	}
	w.o.Retryable = true
	if !errors.Is(cause, callruntime.ErrTimeout) {
		return w.cancelled()
	}
	w.o.TimedOut = true
	return w.finish(CodeTimeout, w.timeoutText(r), nil)
}

// timeoutText says that the run's time ran out — its ceiling, where it was
// set, what a person said when asked for more — and what the CLI said.
func (w *work) timeoutText(r *callruntime.Result) string {
	p, t := w.s.cfg.Printer, w.t
	tier := string(t.Tier())
	key := i18n.Timeout
	if t.Timeout > 0 {
		key = i18n.TimeoutOwnCeiling // the manifest's timeout, not the tier flag, set the ceiling
	}
	text := p.Sprintf(key, t.Name, p.Tier(tier), formatSeconds(w.o.TimeoutSeconds), tier)
	text += w.ext.said(p, w.s.askWait)
	if !t.Hints.ReadOnly {
		text += p.Sprintf(i18n.TimeoutMayBeHalf)
	}
	if r != nil && r.Stderr.Total > 0 {
		room := w.s.cfg.MaxResultBytes - len(text) - 64
		text += "\n\n" + p.Sprintf(i18n.Stderr) + "\n" + w.output(callruntime.Stderr, r.Stderr, room)
	}
	return text
}

func formatSeconds(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", f), "0"), ".")
}

func (w *work) okText(r callruntime.Result) string {
	if r.Stdout.Total == 0 {
		return w.s.cfg.Printer.Sprintf(i18n.NoOutput)
	}
	return w.output(callruntime.Stdout, r.Stdout, w.s.cfg.MaxResultBytes)
}

// keptNoteRoom is the room a cut stream leaves in its budget for the note
// that says where the whole of it is (resources.go).
const keptNoteRoom = 1024

// output is a stream's text within budget bytes. Where bytes are left out —
// by the capture, by the budget, or both — one marker says exactly how many,
// and the whole stream is kept to be read as a resource.
func (w *work) output(s callruntime.Stream, o callruntime.Output, budget int) string {
	p := w.s.cfg.Printer
	if w.kept != nil && (o.Omitted() > 0 || len(o.Head)+len(o.Tail) > budget) {
		w.kept.markCut(s)
		budget = max(budget-keptNoteRoom, budget/2)
	}
	return fitOutput(o, budget, func(n int64) string { return "\n" + p.Sprintf(i18n.Truncated, n) + "\n" })
}

// structured is stdout as structuredContent: only for output "json", only
// when stdout is whole and a valid JSON object. It is the bytes of stdout
// themselves — the capture, not a decoded copy: a map of a large document
// holds several times its size — unless they must be decoded: invalid
// UTF-8 (which decoding replaces), or secrets to look for (see secrets.go)
// — decoding may reveal one the stream held in a form not redacted
// ("\u0068unter2"): it is redacted from the value, and found says so.
func (w *work) structured(r callruntime.Result) (v json.RawMessage, found bool) {
	if w.t.Output != annotations.OutputJSON || r.Stdout.Omitted() > 0 {
		return nil, false
	}
	whole := joinBytes(r.Stdout.Head, r.Stdout.Tail)
	if trimmed := bytes.TrimSpace(whole); len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, false
	} else if w.secrets == nil && utf8.Valid(trimmed) {
		return trimmed, false
	}
	var m map[string]any
	if json.Unmarshal(whole, &m) != nil || m == nil {
		return nil, false
	}
	_, found = redactValue(w.secrets, m)
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, false
	}
	return raw, found
}
