package e2e

// The wire's words, as a host reads them (docs/outcomes.md, DESIGN.md):
// spelled out here rather than imported from internal/server, so that a
// code or key renamed there fails these tests as it would fail a host.

// OutcomeKey is the _meta key of every tool result's outcome;
// CLIErrorKey of the CLI's own error document; OutputPageMetaKey of a
// page of cut output.
const (
	OutcomeKey        = "aeat-mcp/outcome"
	CLIErrorKey       = "aeat-mcp/cli_error"
	OutputPageMetaKey = "aeat-mcp/page"
)

// Code is an outcome's code.
type Code string

const (
	CodeOK               Code = "ok"
	CodeTimeout          Code = "timeout"
	CodeCancelled        Code = "cancelled"
	CodeInvalidArguments Code = "invalid_arguments"
	CodeCLIUnavailable   Code = "cli_unavailable"
	CodeResourceExceeded Code = "resource_exceeded"
	CodeRefused          Code = "refused"
	CodeInternal         Code = "internal"
	CodeRunning          Code = "running"
)

// CodeBusy is the JSON-RPC error code of a request refused because the
// session has too many in flight.
const CodeBusy = -32000

// An outcome's reason for a refusal.
const (
	ReasonCannotConfirm = "cannot_confirm"
	ReasonDeclined      = "declined"
	ReasonUnverified    = "unverified_answer"
	ReasonBusy          = "busy"
)

// The built-in tools.
const (
	ToolRuns   = "aeat_mcp_runs"
	ToolWait   = "aeat_mcp_wait"
	ToolCancel = "aeat_mcp_cancel"
	ToolFind   = "aeat_mcp_find"
	ToolCall   = "aeat_mcp_call"
)

// confirmID is the id of the confirmation's input request (2026-07-28).
const confirmID = "confirm"

// The server's documented defaults and bounds: a result's size
// (--max-result-bytes), the requests one session may have in flight, a
// JSON-RPC line's size and its nesting.
const (
	DefaultMaxResultBytes = 64 << 10
	DefaultMaxInFlight    = 1024
	DefaultMaxLine        = 16 << 20
	maxNesting            = 10000
)

// Outcome is a result's _meta["aeat-mcp/outcome"].
type Outcome struct {
	Code           Code     `json:"code"`
	Tool           string   `json:"tool"`
	Tier           string   `json:"tier"`
	TimeoutSeconds float64  `json:"timeout_seconds"`
	TimedOut       bool     `json:"timed_out"`
	Retryable      bool     `json:"retryable"`
	DurationMS     int64    `json:"duration_ms"`
	ExitCode       *int     `json:"exit_code,omitempty"`
	Signal         string   `json:"signal,omitempty"`
	ExitMeaning    string   `json:"exit_meaning,omitempty"`
	CLIErrorCode   string   `json:"cli_error_code,omitempty"`
	Field          *string  `json:"field,omitempty"`
	Reason         string   `json:"reason,omitempty"`
	MissingEnv     []string `json:"missing_env,omitempty"`
	RunID          string   `json:"run_id,omitempty"`
	TreeDead       *bool    `json:"tree_dead,omitempty"`
}

// redactedSecret is what stands in a result, a log line or progress for a
// secret the CLI printed.
const redactedSecret = "[redacted secret]"
