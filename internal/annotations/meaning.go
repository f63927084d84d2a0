package annotations

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// What the real CLI means (docs/manifest.md, "`cli`"): how its error document is read,
// what its error codes mean, which exits are successes, which secrets it
// gets from the OS keychain, and how doctor asks it about itself. Every key
// here is optional and every v1 manifest keeps loading.

// OKWhen says when a non-zero exit is a success (exit_codes[N].ok).
type OKWhen string

const (
	// OKNever: the exit is a failure (ok absent or false).
	OKNever OKWhen = ""
	// OKAlways: the exit is a success like 0 (ok: true).
	OKAlways OKWhen = "always"
	// OKWithStdout: the exit is a success only when stdout holds the CLI's
	// result — non-empty, and valid JSON for output "json" (ok:
	// "with_stdout"). An exit with an empty stdout and an error document
	// on stderr stays a failure: the CLI's refusals share the exit code of
	// its verdicts (aeat exits 2 both for "config check found problems"
	// and for "you are not logged in").
	OKWithStdout OKWhen = "with_stdout"
)

// Pointer is an RFC 6901 JSON Pointer into the CLI's error document
// ("/error/code"). The empty pointer is the whole document.
type Pointer string

// Lookup is the value at p in doc (a decoded JSON value), and whether
// there is one (a JSON null is there: nil, true).
func (p Pointer) Lookup(doc any) (any, bool) {
	if p == "" {
		return doc, true
	}
	cur := doc
	for _, tok := range strings.Split(string(p)[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[tok]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) || tok != strconv.Itoa(i) {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// validPointer reports whether s is a JSON Pointer: "" or "/"-separated
// tokens whose "~" escapes are "~0" or "~1".
func validPointer(s string) bool {
	if s == "" {
		return true
	}
	if s[0] != '/' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 >= len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return false
		}
	}
	return true
}

// ErrorOutput is how the CLI reports a failure (cli.error_output, or a
// tool's). For Format [OutputJSON], the last JSON object on stderr is the
// CLI's error document, and the pointers say where in it its code, its
// retryable flag, its message and its own remedy are.
type ErrorOutput struct {
	// Format is [OutputText] or [OutputJSON].
	Format string
	// Code, Retryable, Message and Suggestion point into the document.
	// The string form "json" means the defaults of [DefaultErrorPointers].
	Code, Retryable, Message, Suggestion Pointer
}

// IsJSON reports whether the CLI's errors are JSON documents on stderr.
func (e ErrorOutput) IsJSON() bool { return e.Format == OutputJSON }

// DefaultErrorPointers is error_output "json": the shape of aeat's error
// document ({"error": {"code", "retryable", "message", "suggestion", …}}).
var DefaultErrorPointers = ErrorOutput{Format: OutputJSON,
	Code: "/error/code", Retryable: "/error/retryable", Message: "/error/message", Suggestion: "/error/suggestion"}

// CLIError is what the manifest's pointers found in one error document.
type CLIError struct {
	Code       string
	Message    string
	Suggestion string
	// Retryable is nil when the document does not say.
	Retryable *bool
}

// Read takes the fields the pointers name out of doc. A field of the wrong
// type is absent: the document is the CLI's, not ours.
func (e ErrorOutput) Read(doc any) CLIError {
	var out CLIError
	str := func(p Pointer) string {
		if p == "" {
			return ""
		}
		v, _ := p.Lookup(doc)
		s, _ := v.(string)
		return s
	}
	out.Code, out.Message, out.Suggestion = str(e.Code), str(e.Message), str(e.Suggestion)
	if e.Retryable != "" {
		if v, ok := e.Retryable.Lookup(doc); ok {
			if b, ok := v.(bool); ok {
				out.Retryable = &b
			}
		}
	}
	return out
}

// ErrorCode is what one of the CLI's error codes means (cli.error_codes):
// it wins over the exit code's entry. A code may have several entries,
// tried in order; the first whose Match holds applies.
type ErrorCode struct {
	// Match narrows the entry: every pointer must hold one of its values
	// in the document. Empty: the code alone matches.
	Match map[Pointer][]any
	// Meaning goes to the outcome's exit_meaning.
	Meaning string
	// Hint tells the model what to do, after the CLI's own message and
	// suggestion.
	Hint string
	// Retryable is used when the document does not say; nil leaves it to
	// the exit code's entry.
	Retryable *bool
}

// Matches reports whether every pointer of e.Match holds one of its values
// in doc.
func (e ErrorCode) Matches(doc any) bool {
	for p, want := range e.Match {
		got, ok := p.Lookup(doc)
		if !ok || !slices.ContainsFunc(want, func(w any) bool { return sameScalar(w, got) }) {
			return false
		}
	}
	return true
}

// sameScalar compares two JSON scalars: same kind, same value (numbers
// exactly). A match never equates the string "true" with true.
func sameScalar(a, b any) bool {
	_, aStr := a.(string)
	_, bStr := b.(string)
	_, aBool := a.(bool)
	_, bBool := b.(bool)
	switch {
	case aStr != bStr, aBool != bBool, (a == nil) != (b == nil):
		return false
	case aStr || aBool || a == nil:
		return a == b
	}
	return sameValue(a, b)
}

// ErrorCodeFor is the entry of the tool's error_codes that applies to an
// error document with this code, and whether there is one.
func (t *Tool) ErrorCodeFor(code string, doc any) (ErrorCode, bool) {
	for _, e := range t.ErrorCodes[code] {
		if e.Matches(doc) {
			return e, true
		}
	}
	return ErrorCode{}, false
}

// KeychainVar is one variable of cli.env.keychain: loaded at call time into
// the CLI's environment from the OS keychain (aeat-mcp secret set NAME),
// unless the server's own environment already has it.
type KeychainVar struct {
	Name string
	// Optional: when neither the keychain nor the server has it, the CLI
	// runs without it. Otherwise every call refuses, naming how to set it.
	Optional bool
}

// Health is how doctor asks the CLI about itself (cli.health): a read-only
// command run through the same runner, environment and error reading as a
// call, and the arguments that make the CLI print its version.
type Health struct {
	// Command follows cli.args, like a tool's command.
	Command []string
	// Version are the arguments that print the CLI's version, after
	// cli.args like the command ("--version" is usually a root option that
	// prints text whatever the output format).
	Version []string
	// Ready, if set, is how the health command's answer says whether the
	// CLI can serve calls: a CLI may answer its health command (exit 0)
	// while every other verb refuses (aeat's `config auth status` with no
	// active profile). Nil: an answer is ready.
	Ready *HealthReady
}

// HealthReady is cli.health.ready: where in the health command's JSON
// output (stdout) its verdict is, the values there that mean the CLI can
// serve calls, and where its own next action is.
type HealthReady struct {
	// Pointer is where the verdict is ("/result/active_profile_status").
	Pointer Pointer
	// Values are the verdicts that mean ready (JSON scalars).
	Values []any
	// Fix points at the CLI's own next action, a string
	// ("/result/active_profile_next_action"); "" when it gives none.
	Fix Pointer
}

// Readiness is what one health answer says, judged by [HealthReady].
type Readiness struct {
	// Ready: the value at the pointer is one of the values.
	Ready bool
	// Value is what the answer holds at the pointer; Found is false when
	// it holds nothing there (not ready).
	Value any
	Found bool
	// Fix is the CLI's own next action, "" when the answer gives none.
	Fix string
}

// Judge reads doc, the health command's decoded JSON output.
func (r HealthReady) Judge(doc any) Readiness {
	var out Readiness
	out.Value, out.Found = r.Pointer.Lookup(doc)
	out.Ready = out.Found && slices.ContainsFunc(r.Values, func(w any) bool { return sameScalar(w, out.Value) })
	if r.Fix != "" {
		if v, ok := r.Fix.Lookup(doc); ok {
			out.Fix, _ = v.(string)
		}
	}
	return out
}

// errorOutput reads error_output: "text", "json", or an object of JSON
// Pointers into the CLI's error document (absent ones take the defaults).
func (p *parser) errorOutput(obj map[string]any, field string, dflt ErrorOutput) ErrorOutput {
	raw, ok := obj["error_output"]
	if !ok {
		return dflt
	}
	f := join(field, "error_output")
	if s, ok := raw.(string); ok || raw == nil {
		switch s {
		case OutputText:
			return ErrorOutput{Format: OutputText}
		case OutputJSON:
			return DefaultErrorPointers
		}
		p.fail(f, "is %q; must be %q, %q or an object of JSON Pointers ({\"format\": \"json\", \"code\": \"/error/code\", …})", s, OutputText, OutputJSON)
		return dflt
	}
	o := p.object(raw, f, "format", "code", "retryable", "message", "suggestion")
	if o == nil {
		return dflt
	}
	out := DefaultErrorPointers
	if p.decode(o, f, "format", &out.Format, "a string") && out.Format != OutputJSON {
		p.fail(f+".format", "is %q; pointers read a JSON document, so it must be %q", out.Format, OutputJSON)
	}
	for _, k := range []struct {
		key string
		ptr *Pointer
	}{{"code", &out.Code}, {"retryable", &out.Retryable}, {"message", &out.Message}, {"suggestion", &out.Suggestion}} {
		var s string
		if p.decode(o, f, k.key, &s, "a JSON Pointer such as \"/error/code\"") {
			if !validPointer(s) {
				p.fail(f+"."+k.key, "%q is not a JSON Pointer (RFC 6901: \"\" or \"/a/b\", with ~0 for ~ and ~1 for /)", s)
			}
			*k.ptr = Pointer(s)
		}
	}
	return out
}

// errorCodes reads an error_codes object: the CLI's error code → what it
// means, one entry or a list tried in order.
func (p *parser) errorCodes(obj map[string]any, field string) map[string][]ErrorCode {
	raw, ok := obj["error_codes"]
	if !ok {
		return nil
	}
	field = join(field, "error_codes")
	entries, ok := raw.(map[string]any)
	if !ok {
		p.fail(field, "must be an object of the CLI's error codes (\"REFUSED_CLI_BOUNDARY\": {\"meaning\": \"login_required\", \"hint\": \"…\"})")
		return nil
	}
	out := map[string][]ErrorCode{}
	for _, code := range slices.Sorted(maps.Keys(entries)) {
		f := field + "." + code
		if strings.TrimSpace(code) == "" || strings.IndexByte(code, 0) >= 0 {
			p.fail(f, "an error code must be a non-empty string")
			continue
		}
		list, isList := entries[code].([]any)
		if entries[code] == nil { // null: an empty list, as it always read
			isList = true
		}
		if !isList {
			list = []any{entries[code]}
		} else if len(list) == 0 {
			p.fail(f, "is an empty list: give one entry, or a list tried in order")
			continue
		}
		for i, e := range list {
			ef := f
			if isList {
				ef = fmt.Sprintf("%s[%d]", f, i)
			}
			if ec, ok := p.errorCode(e, ef); ok {
				out[code] = append(out[code], ec)
			}
		}
	}
	return out
}

func (p *parser) errorCode(raw any, f string) (ErrorCode, bool) {
	var ec ErrorCode
	o := p.object(raw, f, "match", "meaning", "hint", "retryable")
	if o == nil {
		return ec, false
	}
	if p.require(o, f, "meaning", &ec.Meaning, "a string", ": a short word for programs (\"login_required\")") && !validMeaning(ec.Meaning) {
		p.fail(f+".meaning", "%q must match %s (a word programs can test)", ec.Meaning, meaningPattern)
	}
	p.text(o, f, "hint", &ec.Hint)
	var r bool
	if p.decode(o, f, "retryable", &r, "true or false") {
		ec.Retryable = &r
	}
	var match map[string]any
	if p.decode(o, f, "match", &match, "an object of JSON Pointers to values ({\"/error/context/reason\": [\"absent\"]})") {
		ec.Match = map[Pointer][]any{}
		for _, ptr := range slices.Sorted(maps.Keys(match)) {
			mf := f + ".match." + ptr
			if !validPointer(ptr) {
				p.fail(mf, "%q is not a JSON Pointer (RFC 6901: \"/a/b\")", ptr)
				continue
			}
			values, ok := scalars(match[ptr])
			if !ok {
				p.fail(mf, "must be a string, number, boolean or null, or a non-empty list of them")
				continue
			}
			ec.Match[Pointer(ptr)] = values
		}
	}
	return ec, true
}

// keychain reads cli.env.keychain: names, or {"name": …, "optional": true}.
func (p *parser) keychain(env map[string]any, c *CLI) {
	var raw []any
	if !p.decode(env, "cli.env", "keychain", &raw, "a list of variable names (or {\"name\": …, \"optional\": true})") {
		return
	}
	seen := map[string]bool{}
	for i, r := range raw {
		f := fmt.Sprintf("cli.env.keychain[%d]", i)
		var kv KeychainVar
		if name, ok := r.(string); ok || r == nil {
			kv.Name = name
		} else {
			o := p.object(r, f, "name", "optional")
			if o == nil {
				continue
			}
			if !p.require(o, f, "name", &kv.Name, "a variable name", "") {
				continue
			}
			p.decode(o, f, "optional", &kv.Optional, "true or false")
		}
		switch {
		case !envNameRE.Get().MatchString(kv.Name):
			p.fail(f, "%q is not a variable name", kv.Name)
			continue
		case seen[kv.Name]:
			p.fail(f, "%q is listed twice", kv.Name)
			continue
		}
		if _, set := c.Set[kv.Name]; set {
			p.fail(f, "%q is also in cli.env.set: a fixed value and a secret from the keychain cannot both be it", kv.Name)
		}
		seen[kv.Name] = true
		c.Keychain = append(c.Keychain, kv)
	}
}

// health reads cli.health: the command doctor runs (a list of words), or
// {"command": […], "version": […], "ready": {…}}.
func (p *parser) health(obj map[string]any) *Health {
	raw, ok := obj["health"]
	if !ok {
		return nil
	}
	h := &Health{}
	if raw != nil && !assign(raw, &h.Command) {
		o := p.object(raw, "cli.health", "command", "version", "ready")
		if o == nil {
			return nil
		}
		p.require(o, "cli.health", "command", &h.Command, "a list of strings", " (the read-only command doctor runs, e.g. [\"config\", \"auth\", \"status\"])")
		p.decode(o, "cli.health", "version", &h.Version, "a list of strings (e.g. [\"--version\"])")
		if r, ok := o["ready"]; ok {
			h.Ready = p.healthReady(r)
		}
	}
	if len(h.Command) == 0 {
		p.fail("cli.health", "names no command: give the words of a read-only verb, e.g. [\"config\", \"auth\", \"status\"]")
		return nil
	}
	for _, words := range [][]string{h.Command, h.Version} {
		for _, w := range words {
			if w == "" || strings.IndexByte(w, 0) >= 0 {
				p.fail("cli.health", "every word must be a non-empty string without NUL bytes")
				return nil
			}
		}
	}
	return h
}

// healthReady reads cli.health.ready: {"pointer": "/…", "values": […],
// "fix": "/…"}.
func (p *parser) healthReady(raw any) *HealthReady {
	const f = "cli.health.ready"
	o := p.object(raw, f, "pointer", "values", "fix")
	if o == nil {
		return nil
	}
	r := &HealthReady{}
	var ptr, fix string
	if p.require(o, f, "pointer", &ptr, "a JSON Pointer", " into the health command's JSON output (e.g. \"/result/active_profile_status\")") {
		if !validPointer(ptr) {
			p.fail(f+".pointer", "%q is not a JSON Pointer (RFC 6901: \"/a/b\")", ptr)
		}
		r.Pointer = Pointer(ptr)
	}
	if p.decode(o, f, "fix", &fix, "a JSON Pointer (e.g. \"/result/active_profile_next_action\")") {
		if !validPointer(fix) || fix == "" {
			p.fail(f+".fix", "%q is not a JSON Pointer to the CLI's next action (RFC 6901: \"/a/b\")", fix)
		}
		r.Fix = Pointer(fix)
	}
	v, ok := o["values"]
	if !ok {
		p.fail(f+".values", "missing: the values at pointer that mean the CLI can serve calls (e.g. [\"ready\"])")
		return r
	}
	if r.Values, ok = scalars(v); !ok {
		p.fail(f+".values", "must be a string, number, boolean or null, or a non-empty list of them")
	}
	return r
}

// scalars reads the values a pointer may hold (a match's, ready's): one
// JSON scalar, or a non-empty list of them; false for anything else.
func scalars(v any) ([]any, bool) {
	values, isList := v.([]any)
	if !isList {
		values = []any{v}
	}
	ok := len(values) > 0 && !slices.ContainsFunc(values, func(x any) bool {
		_, obj := x.(map[string]any)
		_, arr := x.([]any)
		return obj || arr
	})
	return values, ok
}

// The names of the tools doctor runs for cli.health; they start with
// [ReservedPrefix], so no manifest tool can have them.
const (
	HealthToolName  = ReservedPrefix + "health"
	VersionToolName = ReservedPrefix + "version"
)

// HealthTools are what doctor runs to ask the CLI about itself (cli.health),
// as read-only tools with the cli's settings — its args before the words,
// its exit codes, error output and error codes — and no parameters: the
// health command (output json when the cli's errors are JSON, so its
// result is structured), then the version arguments when given. Nil when
// the manifest has no cli.health.
func (m *Manifest) HealthTools() []*Tool {
	h := m.CLI.Health
	if h == nil {
		return nil
	}
	mk := func(name, title string, words []string, output string) *Tool {
		t := &Tool{Name: name, Title: title, Description: title, Command: words,
			Hints: Hints{ReadOnly: true, Idempotent: true}, Output: output, Progress: StreamNone,
			ExitCodes: m.CLI.ExitCodes, ErrorCodes: m.CLI.ErrorCodes, ErrorOutput: m.CLI.ErrorOutput,
			cli: &m.CLI, detail: toolDetail{byName: map[string]*Param{}}, builtin: true}
		_ = t.buildSchema() // no params: cannot fail
		return t
	}
	out := OutputText
	if m.CLI.ErrorOutput.IsJSON() || h.Ready != nil {
		out = OutputJSON // a ready condition reads the answer's JSON
	}
	tools := []*Tool{mk(HealthToolName, "The CLI's own health check", h.Command, out)}
	if len(h.Version) > 0 {
		tools = append(tools, mk(VersionToolName, "The CLI's version", h.Version, OutputText))
	}
	return tools
}

// SecretNames are the secrets the manifest reads from the OS keychain:
// cli.env.keychain's variables and every tool's stdin keychain, once each.
func (m *Manifest) SecretNames() []string {
	var out []string
	for _, k := range m.CLI.Keychain {
		out = append(out, k.Name)
	}
	for _, t := range m.Tools {
		if t.Stdin != nil && t.Stdin.Keychain != "" && !slices.Contains(out, t.Stdin.Keychain) {
			out = append(out, t.Stdin.Keychain)
		}
	}
	return out
}
