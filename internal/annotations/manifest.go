package annotations

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
	"github.com/google/jsonschema-go/jsonschema"
)

// Version is the manifest format this package reads.
const Version = 1

// NameBudget is the tool-name length past which Load warns: hosts prefix
// names ("mcp__<server>__") and model APIs cap them at 64 characters.
const NameBudget = 40

// Manifest is a loaded, validated manifest v1.
type Manifest struct {
	Version int
	CLI     CLI
	Tools   []*Tool
	// Surface is what a host sees of a manifest with many tools.
	Surface Surface
	// Source is the file the manifest came from ("" when embedded); relative
	// paths in it are relative to its directory.
	Source string
	// Warnings are problems that do not stop the manifest from loading.
	Warnings []string

	// late is what its tools' sections and details share, when it was
	// read from the manifest cache (LateDecoded).
	late *lateFile
}

// Surface is the manifest's surface key (docs/catalog.md): Core names the
// tools a small surface lists (--surface catalog), each a tool of the
// manifest, in the manifest's words; nil when the manifest gives none.
type Surface struct {
	Core []string
}

// CLI is how to start the wrapped program, and what every verb of it
// shares.
type CLI struct {
	// Command is the program as the manifest gives it: an absolute path, a
	// path relative to the manifest, or a bare name (see
	// [Manifest.ResolveCommand]).
	Command string
	// Args come before every tool's own command (e.g. "--format json").
	Args []string
	// Pass names variables of the server's environment the CLI may see; a
	// name ending in "*" passes every variable with that prefix.
	Pass []string
	// Require names variables the CLI cannot work without: a call refuses,
	// naming them, while one is missing from the CLI's environment.
	Require []string
	// Set are variables the CLI always gets.
	Set map[string]string
	// Keychain are variables loaded at call time from the OS keychain
	// (cli.env.keychain), unless the server's environment has them.
	Keychain []KeychainVar
	// Cwd is "" (the server's working directory), a directory (relative to
	// the manifest), or [ScratchDir].
	Cwd string
	// Params are shared by every tool (cli.params): in every input schema,
	// rendered as global flags before the verb.
	Params []Param
	// ExitCodes say what the CLI's non-zero exits mean.
	ExitCodes map[int]ExitCode
	// ErrorCodes say what the CLI's error codes mean (they win over the
	// exit code's entry).
	ErrorCodes map[string][]ErrorCode
	// ErrorOutput is how the CLI reports a failure on stderr.
	ErrorOutput ErrorOutput
	// Health, if set, is how doctor asks the CLI about itself.
	Health *Health
	// Warm, if set, starts the calls of a Python CLI from a warm template
	// (cli.warm); nil starts every call cold.
	Warm *Warm
}

// ExitCode is what one exit code of the CLI means (cli.exit_codes).
type ExitCode struct {
	// Meaning is a short language-free word ("auth", "locked") that goes to
	// the outcome's exit_meaning.
	Meaning string
	// Retryable says whether the same call may succeed if tried again.
	Retryable bool
	// Hint tells the model (or a person) what to do about it.
	Hint string
	// OK says when the exit is a success after all (a check that exits 2
	// on findings): never, always, or when stdout holds the result.
	OK OKWhen
}

// ReservedPrefix starts the names of aeat-mcp's built-in tools; no manifest
// tool may use it.
const ReservedPrefix = "aeat_mcp_"

// ScratchDir as cli.cwd asks for a fresh private directory per call, removed
// afterwards.
const ScratchDir = "@scratch"

// Tool is one verb of the CLI, advertised as one MCP tool.
type Tool struct {
	Name        string
	Title       string
	Description string
	// Command is the verb's path in the CLI ("modelo", "303", "pull"),
	// possibly followed by fixed options of the verb ("--secrets-stdin").
	Command []string
	Hints   Hints
	// Output is "text" or "json".
	Output string
	// Timeout, if non-zero, replaces the tier's ceiling.
	Timeout time.Duration
	// Stdin, if set, is what the CLI reads on stdin instead of the null
	// device.
	Stdin *StdinSource
	// ExitCodes are the CLI's, with the tool's own entries on top.
	ExitCodes map[int]ExitCode
	// ErrorCodes are the CLI's, with the tool's own codes on top.
	ErrorCodes map[string][]ErrorCode
	// ErrorOutput is the tool's, else the cli's.
	ErrorOutput ErrorOutput
	// Confirm refines the confirmation of a destructive tool.
	Confirm Confirm
	// Progress is the stream whose lines become progress messages:
	// [StreamStdout], [StreamStderr] or [StreamNone].
	Progress string
	// HintsGuessed names the hints nobody took from the CLI (hints_guessed,
	// written by aeat-mcp generate): Load warns, naming every such tool.
	HintsGuessed []string

	cli        *CLI
	schemaJSON json.RawMessage
	// listedHead and listedTail are the tool as a server lists it, around
	// its schema, kept by the manifest cache (Cache.Listed); nil when it
	// was not.
	listedHead, listedTail []byte
	// listing is where a tool read from the manifest cache still has its
	// schema and listing (schemaJSON, listedHead, listedTail): a section
	// of the file read at their first use (cache_listing.go).
	listing  *lateListing
	listOnce sync.Once
	schemaMu sync.Mutex // guards schema, built on first use
	schema   *jsonschema.Schema
	// detail is what only a call, aeat_mcp_find or doctor reads of the
	// tool (details): a tool read from the manifest cache has it in the
	// file (late) until its first use.
	detail   toolDetail
	late     *lateDetail
	lateOnce sync.Once
	// builtin marks aeat-mcp's own tools (Builtin).
	builtin bool
}

// StdinSource is where a tool's stdin comes from: exactly one of Env (the
// server's variable, a secret the model never sees), Keychain (the OS
// keychain's secret of that name, or the server's variable of that name)
// and Param (the value of a string param, then not on the command line).
type StdinSource struct {
	Env      string
	Keychain string
	Param    string
	// JSONKey, if set, wraps the value as the JSON object {JSONKey: value}
	// (what a CLI's --secrets-stdin reads), so the secret is stored as it
	// is and never as hand-written JSON.
	JSONKey string
}

// Bytes is what the CLI reads for value: the value itself, or the JSON
// object {JSONKey: value} (escaped as JSON, "<" and "&" kept as they are).
func (s *StdinSource) Bytes(value string) []byte {
	if s.JSONKey == "" {
		return []byte(value)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(map[string]string{s.JSONKey: value}) // a map of strings always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Secret is the name of the secret a tool's stdin carries (Env or
// Keychain); "" for a param.
func (s *StdinSource) Secret() string {
	if s.Env != "" {
		return s.Env
	}
	return s.Keychain
}

// Confirm is how a destructive tool's confirmation reaches the CLI.
type Confirm struct {
	// Flag ("--yes") is added to the command line only after a person
	// accepted the question; no param can give it.
	Flag string
	// SkipWhen: when every named param has the given value (a dry run), no
	// question is asked and Flag is not added.
	SkipWhen map[string]any
}

// Progress streams.
const (
	StreamStdout = "stdout"
	StreamStderr = "stderr"
	StreamNone   = "none"
)

// Hints are MCP's four tool annotations, all explicit in a manifest.
type Hints struct {
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

// Param is one argument of a tool.
type Param struct {
	Name string
	// Type is string, integer, number, boolean or array.
	Type string
	// Items is the element type of an array: string, integer or number.
	Items       string
	Required    bool
	Description string
	Default     any
	Enum        []any
	Pattern     string
	Minimum     *float64
	Maximum     *float64
	MinLength   *int
	MaxLength   *int
	// Flag is the option the value is given with ("--year"); exactly one of
	// Flag and Positional is set — neither for the param a tool's stdin
	// comes from.
	Flag       string
	Positional bool
	// Negate is, for a boolean, the flag that means false ("--no-dry-run").
	Negate string
	// Global renders the flag before the verb (cli.params always are).
	Global bool
	// Shared marks a param of cli.params, repeated in every tool.
	Shared bool
	// Sensitive values are masked wherever aeat-mcp shows arguments (the
	// confirmation question, call --dry-run).
	Sensitive bool
	// Requires names params that must be given whenever this one is.
	Requires []string
	// Stdin marks the param a tool's stdin comes from: never on the
	// command line.
	Stdin bool

	pattern *pattern
}

// Output kinds.
const (
	OutputText = "text"
	OutputJSON = "json"
)

var (
	flagRE = lazyre.New(`^--?[A-Za-z0-9][A-Za-z0-9_.-]*$`)
)

// ExitCode returns what the CLI's exit code means for this tool.
func (t *Tool) ExitCode(code int) (ExitCode, bool) {
	ec, ok := t.ExitCodes[code]
	return ec, ok
}

// FailedExitCode is what an exit code means for a call that failed with
// it: the tool's own entry, unless that entry makes the exit a success
// (ok) — an "ok": "with_stdout" exit without a result is the CLI refusing,
// and the cli's entry for the code says what that means.
func (t *Tool) FailedExitCode(code int) (ExitCode, bool) {
	ec, ok := t.ExitCodes[code]
	if ok && ec.OK != OKNever {
		ec, ok = t.cli.ExitCodes[code]
		if ok && ec.OK != OKNever {
			return ExitCode{}, false
		}
	}
	return ec, ok
}

// Param returns the tool's param called name.
func (t *Tool) Param(name string) (*Param, bool) {
	p, ok := t.details().byName[name]
	return p, ok
}

// Load reads and validates the manifest at path.
func Load(path string) (*Manifest, error) {
	data, abs, err := readManifest(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, abs)
}

// Parse validates a manifest held in memory; source names it in errors and
// anchors its relative paths ("" for an embedded manifest: relative to the
// working directory).
func Parse(data []byte, source string) (*Manifest, error) {
	p := &parser{source: source}
	m := p.manifest(data)
	if len(p.problems) > 0 {
		return nil, &Error{Source: source, Problems: p.problems}
	}
	m.Source = source
	m.Warnings = append(p.warnings, guessedWarnings(m.Tools)...)
	return m, nil
}

// Error lists every problem found in a manifest.
type Error struct {
	Source   string
	Problems []Problem
}

// Problem is one thing wrong with a manifest, located as precisely as
// possible.
type Problem struct {
	Tool  string // "" for the manifest's own keys
	Field string // a dotted path such as "params[2].flag"
	Msg   string
}

func (p Problem) String() string {
	var b strings.Builder
	if p.Tool != "" {
		fmt.Fprintf(&b, "tool %q: ", p.Tool)
	}
	if p.Field != "" {
		b.WriteString(p.Field + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

func (e *Error) Error() string {
	src := e.Source
	if src == "" {
		src = "manifest"
	}
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = src + ": " + p.String()
	}
	return strings.Join(lines, "\n")
}
