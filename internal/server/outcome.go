package server

import (
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/cleantext"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// OutcomeKey is the _meta key of every result's outcome.
const OutcomeKey = "aeat-mcp/outcome"

// Code is an outcome's code: what became of a call, in one word
// (docs/ARCHITECTURE.md, "Outcomes"). Adding one touches this table alone:
// its error flag and the state a run ends in are its methods.
type Code string

// Outcome codes.
const (
	CodeOK               Code = "ok"
	CodeExit             Code = "exit"
	CodeTimeout          Code = "timeout"
	CodeCancelled        Code = "cancelled"
	CodeInvalidArguments Code = "invalid_arguments"
	CodeCLIUnavailable   Code = "cli_unavailable"
	CodeResourceExceeded Code = "resource_exceeded"
	CodeRefused          Code = "refused"
	CodeInternal         Code = "internal"
	// CodeRunning: the request stopped waiting and the run goes on; see
	// Outcome.RunID. Not an error.
	CodeRunning Code = "running"
)

// IsError reports whether a result with the code is an error (isError):
// every code but ok and running.
func (c Code) IsError() bool { return c != CodeOK && c != CodeRunning }

// RunPhase is the phase a run whose result has the code ends in.
func (c Code) RunPhase() runs.Phase {
	switch c {
	case CodeOK:
		return runs.Completed
	case CodeCancelled:
		return runs.Cancelled
	}
	return runs.Failed
}

// Outcome is the stable, language-free account of a call that programs and
// tests read; people read the localized text next to it.
type Outcome struct {
	Code           Code    `json:"code"`
	Tool           string  `json:"tool"`
	Tier           string  `json:"tier"`
	TimeoutSeconds float64 `json:"timeout_seconds"`
	TimedOut       bool    `json:"timed_out"`
	Retryable      bool    `json:"retryable"`
	DurationMS     int64   `json:"duration_ms"`
	ExitCode       *int    `json:"exit_code,omitempty"`
	Signal         string  `json:"signal,omitempty"`
	// ExitMeaning is what the manifest's exit_codes say the exit code
	// means ("auth", "locked").
	ExitMeaning string `json:"exit_meaning,omitempty"`
	// CLIErrorCode is the CLI's own error code, from its error document
	// (error_output's code pointer).
	CLIErrorCode string `json:"cli_error_code,omitempty"`
	// Field is set for invalid_arguments: the parameter as declared or the
	// unknown property; "" when the arguments were not an object.
	Field *string `json:"field,omitempty"`
	// Reason is set for refused (read_only, not_selected, cannot_confirm,
	// declined, unverified_answer, busy) and for cli_unavailable when
	// variables are missing (missing_env).
	Reason string `json:"reason,omitempty"`
	// MissingEnv names the missing variables (reason missing_env).
	MissingEnv []string `json:"missing_env,omitempty"`
	// RunID is set for running: the run that goes on, to collect with
	// aeat_mcp_wait.
	RunID string `json:"run_id,omitempty"`
	// TreeDead is present only when a process was started: true when the
	// supervisor confirmed that nothing the call started is still running.
	TreeDead *bool `json:"tree_dead,omitempty"`
}

// ending is how one call of a tool ends: its outcome so far, what its text
// must be kept clean of, and the one constructor of its result (finish).
// A request has one, and the run it starts another: the run's goroutine
// never writes the outcome of the request that started it.
type ending struct {
	s     *Server
	t     *annotations.Tool
	begin time.Time
	o     Outcome
	// cliError is the CLI's own error report (error_output "json").
	cliError map[string]any
	// secrets redacts what the CLI was given as a secret (secrets.go); nil
	// when it was given none.
	secrets *callruntime.SecretRedactor
	// kept is what the run spilled of its output (resources.go): a stream
	// the text cuts is linked as a resource. Nil but for a run's work.
	kept *keptRun
}

// newEnding is the ending of a call of t that begins now: a manifest
// tool's outcome carries its tier and ceiling, a built-in's only its name.
func (s *Server) newEnding(t *annotations.Tool) ending {
	o := Outcome{Tool: t.Name}
	if !t.Builtin() {
		o.Tier, o.TimeoutSeconds = string(t.Tier()), roundSeconds(t.Ceiling(s.cfg.Ceilings))
	}
	return ending{s: s, t: t, begin: time.Now(), o: o}
}

// finish is where every answer to a call is made (but the two that carry
// no outcome: docs/ARCHITECTURE.md, "Outcomes"), and the one
// place its outcome gets its code: the outcome stamped in _meta, isError
// from the code, the text cleaned of control sequences and secrets and
// kept within --max-result-bytes, structuredContent only on success. It
// logs the call without its payload (arguments and output hold tax ids).
func (e *ending) finish(code Code, text string, structured any) *mcp.CallToolResult {
	e.o.Code = code
	e.o.DurationMS = time.Since(e.begin).Milliseconds()
	p := e.s.cfg.Printer
	// Cleaning can join a secret the stream kept apart with an escape.
	note, links := e.kept.links(p, e.s.cfg.MaxResultBytes, e.secrets)
	text = fit(e.secrets.RedactString(cleantext.Text(text))+note, e.s.cfg.MaxResultBytes, func(n int) string { return p.Sprintf(i18n.Truncated, n) })
	attrs := []any{"tool", e.o.Tool, "tier", e.o.Tier, "code", e.o.Code, "duration_ms", e.o.DurationMS}
	if e.o.ExitCode != nil {
		attrs = append(attrs, "exit_code", *e.o.ExitCode)
	}
	e.s.cfg.Logger.Info("call", attrs...)
	res := &mcp.CallToolResult{
		Content: append([]mcp.Content{&mcp.TextContent{Text: text}}, links...),
		IsError: code.IsError(),
		Meta:    mcp.Meta{OutcomeKey: e.o},
	}
	if !res.IsError && structured != nil {
		res.StructuredContent = structured
	}
	if e.cliError != nil {
		res.Meta[CLIErrorKey] = e.cliError
	}
	return res
}

// panicked is the result of a call whose code panicked: a bug of ours,
// logged with its stack, and an "internal" result — never a server that
// goes down with it.
func (e *ending) panicked(p any) *mcp.CallToolResult {
	e.s.cfg.Logger.Error("panic in a tool call", "tool", e.t.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	return e.finish(CodeInternal, e.s.cfg.Printer.Sprintf(i18n.Internal, e.t.Name, fmt.Sprint(p)), nil)
}

// unreadable is the result of a call of a tool whose params could not be
// read from the manifest cache (annotations.Tool.DetailErr), and nothing
// ran: a refusal that says to restart when the manifest changed since the
// start (not a fault, nothing to report), else an "internal" result — the
// arguments are not at fault.
func (e *ending) unreadable(err error) *mcp.CallToolResult {
	if errors.Is(err, annotations.ErrManifestChanged) {
		e.s.cfg.Logger.Warn("a tool's params could not be read: the manifest changed since the start", "tool", e.t.Name, "error", err)
		return e.refuse(ReasonManifestChanged, i18n.RefusedManifestChanged)
	}
	e.s.cfg.Logger.Error("a tool's params could not be read", "tool", e.t.Name, "error", err)
	return e.finish(CodeInternal, e.s.cfg.Printer.Sprintf(i18n.Internal, e.t.Name, err.Error()), nil)
}

// invalid is the result of a call whose arguments are at fault.
func (e *ending) invalid(err error) *mcp.CallToolResult {
	var ve *annotations.ValidationError
	if !errors.As(err, &ve) {
		ve = &annotations.ValidationError{Msg: err.Error()}
	}
	field := ve.Field
	e.o.Field = &field
	p := e.s.cfg.Printer
	if field == "" {
		return e.finish(CodeInvalidArguments, p.Sprintf(i18n.InvalidArgsNoField, e.t.Name, ve.Msg), nil)
	}
	return e.finish(CodeInvalidArguments, p.Sprintf(i18n.InvalidArguments, e.t.Name, field, ve.Msg), nil)
}

// unavailable is the result of a call whose CLI cannot be started; why
// says what is wrong, for a person to fix. A CLI given with --cli that is
// not there is a path to check, not a CLI to install.
func (e *ending) unavailable(why error) *mcp.CallToolResult {
	key := i18n.CLIUnavailable
	if annotations.CLIGiven(why) {
		key = i18n.CLIUnavailableGiven
	}
	return e.finish(CodeCLIUnavailable, e.s.cfg.Printer.Sprintf(key, e.t.Name, why.Error()), nil)
}

// missingEnv is the result of a call whose CLI would run without
// variables it cannot work without (cli.env.require, a stdin env).
func (e *ending) missingEnv(names []string) *mcp.CallToolResult {
	return e.lacking(names, e.s.cfg.Printer.Sprintf(i18n.MissingEnv, e.t.Name, strings.Join(names, ", ")))
}

// lacking is the result of a call refused for what the CLI would lack —
// variables, secrets (names) — text saying which, and how to set them.
func (e *ending) lacking(names []string, text string) *mcp.CallToolResult {
	e.o.Reason = ReasonMissingEnv
	e.o.MissingEnv = names
	return e.finish(CodeCLIUnavailable, text, nil)
}

// refuse is the result of a gate that said no.
func (e *ending) refuse(reason string, key i18n.Key) *mcp.CallToolResult {
	e.o.Reason = reason
	return e.finish(CodeRefused, e.s.cfg.Printer.Sprintf(key, e.t.Name), nil)
}

// busy is the result of a call refused because n runs of its tier are
// running or waiting for a slot already.
func (e *ending) busy(n int) *mcp.CallToolResult {
	e.o.Reason = ReasonBusy
	e.o.Retryable = true
	p := e.s.cfg.Printer
	return e.finish(CodeRefused, p.Sprintf(i18n.RefusedBusy, e.t.Name, n, p.Tier(string(e.t.Tier()))), nil)
}

// cancelled is the result of a call stopped before its end by a client
// or the server's going away.
func (e *ending) cancelled() *mcp.CallToolResult {
	return e.finish(CodeCancelled, e.s.cfg.Printer.Sprintf(i18n.Cancelled, e.t.Name), nil)
}

func roundSeconds(d time.Duration) float64 { return math.Round(d.Seconds()*1000) / 1000 }

// fitOutput is o as text within budget bytes. When the capture left bytes
// out, or o is longer than budget, the start and the end are kept with one
// marker between them that says exactly how many bytes of the stream are
// not shown.
//
// The text is built in one allocation (callruntime.JoinValid): at
// --max-result-bytes of tens of megabytes, every copy counts.
func fitOutput(o callruntime.Output, budget int, marker func(int64) string) string {
	if o.Omitted() == 0 && len(o.Head)+len(o.Tail) <= budget {
		return o.Text(nil)
	}
	room := max(budget-len(marker(o.Total)), 0)
	var pre, suf []byte
	if o.Omitted() == 0 {
		// Whole, but too long: cut its middle (which may fall in the
		// head, the tail, or between them).
		whole := joinBytes(o.Head, o.Tail)
		pre = whole[:cutBefore(whole, room/2)]
		suf = whole[cutAfter(whole, len(whole)-(room-len(pre))):]
	} else {
		head, tail := o.Head, o.Tail
		tk := min(len(tail), room-min(len(head), room/2))
		pre = head[:cutBefore(head, min(len(head), room-tk))]
		suf = tail[cutAfter(tail, len(tail)-min(len(tail), room-len(pre))):]
	}
	omitted := o.Total - int64(len(pre)) - int64(len(suf))
	return callruntime.JoinValid(pre, marker(omitted), suf)
}

// joinBytes is a followed by b; a itself when b is empty.
func joinBytes(a, b []byte) []byte {
	if len(b) == 0 {
		return a
	}
	return append(append(make([]byte, 0, len(a)+len(b)), a...), b...)
}

// fit cuts text to at most max bytes, keeping its start and its end (where
// errors are) with marker between them, on rune boundaries.
func fit(text string, max int, marker func(int) string) string {
	if len(text) <= max {
		return text
	}
	m := marker(len(text))
	room := max - len(m) - 2
	if room <= 0 {
		return text[:cutBefore(text, max)]
	}
	head := cutBefore(text, room/2)
	tailStart := cutAfter(text, len(text)-(room-head))
	m = marker(tailStart - head)
	return text[:head] + "\n" + m + "\n" + text[tailStart:]
}

// cutBefore returns the largest rune boundary ≤ i.
func cutBefore[S string | []byte](s S, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// cutAfter returns the smallest rune boundary ≥ i.
func cutAfter[S string | []byte](s S, i int) int {
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}
