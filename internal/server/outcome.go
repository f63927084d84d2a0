package server

import (
	"math"
	"time"
	"unicode/utf8"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// OutcomeKey is the _meta key of every result's outcome.
const OutcomeKey = "aeat-mcp/outcome"

// Outcome codes (DESIGN.md §5).
const (
	CodeOK               = "ok"
	CodeExit             = "exit"
	CodeTimeout          = "timeout"
	CodeCancelled        = "cancelled"
	CodeInvalidArguments = "invalid_arguments"
	CodeCLIUnavailable   = "cli_unavailable"
	CodeResourceExceeded = "resource_exceeded"
	CodeRefused          = "refused"
	CodeInternal         = "internal"
	// CodeRunning: the request stopped waiting and the run goes on; see
	// Outcome.RunID. Not an error.
	CodeRunning = "running"
)

// Outcome is the stable, language-free account of a call that programs and
// tests read; people read the localized text next to it.
type Outcome struct {
	Code           string  `json:"code"`
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
	// declined, unverified_answer) and for cli_unavailable when variables
	// are missing (missing_env).
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

// result builds a tool result: text, the outcome in _meta, isError for
// anything but ok.
func result(o Outcome, text string, structured any) *mcp.CallToolResult {
	res := &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: text}},
		IsError: o.Code != CodeOK && o.Code != CodeRunning,
		Meta:    mcp.Meta{OutcomeKey: o},
	}
	if !res.IsError && structured != nil {
		res.StructuredContent = structured
	}
	return res
}

func seconds(t *annotations.Tool, c annotations.Ceilings) float64 {
	return roundSeconds(t.Ceiling(c))
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
