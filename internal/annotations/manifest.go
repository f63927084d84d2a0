package annotations

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

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
	// Source is the file the manifest came from ("" when embedded); relative
	// paths in it are relative to its directory.
	Source string
	// Warnings are problems that do not stop the manifest from loading.
	Warnings []string
}

// CLI is how to start the wrapped program.
type CLI struct {
	// Command is the program as the manifest gives it: an absolute path, a
	// path relative to the manifest, or a bare name (see [Manifest.Resolve]).
	Command string
	// Args come before every tool's own command (e.g. "--format json").
	Args []string
	// Pass names variables of the server's environment the CLI may see.
	Pass []string
	// Set are variables the CLI always gets.
	Set map[string]string
	// Cwd is "" (the server's working directory), a directory (relative to
	// the manifest), or [ScratchDir].
	Cwd string
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
	// Command is the verb's path in the CLI ("modelo", "303", "pull").
	Command []string
	Hints   Hints
	Params  []Param
	// Output is "text" or "json".
	Output string
	// Timeout, if non-zero, replaces the tier's ceiling.
	Timeout time.Duration

	cli      *CLI
	schema   *jsonschema.Schema
	resolved *jsonschema.Resolved
	props    map[string]*jsonschema.Resolved
}

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
	// Flag and Positional is set.
	Flag       string
	Positional bool
	// Negate is, for a boolean, the flag that means false ("--no-dry-run").
	Negate string
}

// Output kinds.
const (
	OutputText = "text"
	OutputJSON = "json"
)

var (
	nameRE = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)
	flagRE = regexp.MustCompile(`^--?[A-Za-z0-9][A-Za-z0-9_.-]*$`)
)

// Load reads and validates the manifest at path.
func Load(path string) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{Source: path, Problems: []Problem{{Msg: err.Error()}}}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
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
	m.Warnings = p.warnings
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

type parser struct {
	source   string
	problems []Problem
	warnings []string
	tool     string
}

func (p *parser) fail(field, format string, a ...any) {
	p.problems = append(p.problems, Problem{Tool: p.tool, Field: field, Msg: fmt.Sprintf(format, a...)})
}

// object decodes raw as a JSON object, reporting keys outside known: typos
// must not be silently ignored.
func (p *parser) object(raw json.RawMessage, field string, known ...string) map[string]json.RawMessage {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		p.fail(field, "must be an object")
		return nil
	}
	var unknown []string
	for k := range obj {
		if !contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		p.fail(join(field, k), "unknown key (known: %s)", strings.Join(known, ", "))
	}
	return obj
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

// decode decodes obj[key] into v when present, reporting a wrong type with
// want ("a string", "a list of strings").
func (p *parser) decode(obj map[string]json.RawMessage, field, key string, v any, want string) bool {
	raw, ok := obj[key]
	if !ok {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil || string(raw) == "null" {
		p.fail(join(field, key), "must be %s", want)
		return false
	}
	return true
}

func (p *parser) manifest(data []byte) *Manifest {
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line, col := position(data, syn.Offset)
			p.fail("", "invalid JSON at line %d, column %d: %v", line, col, syn)
		} else {
			p.fail("", "invalid JSON: %v", err)
		}
		return nil
	}
	top := p.object(raw, "", "$schema", "version", "cli", "tools")
	if top == nil {
		return nil
	}
	m := &Manifest{}
	if !p.decode(top, "", "version", &m.Version, "the number 1") {
		if _, ok := top["version"]; !ok {
			p.fail("version", "missing (this loader reads version %d)", Version)
		}
	} else if m.Version != Version {
		p.fail("version", "is %d; this loader reads version %d", m.Version, Version)
	}
	if rawCLI, ok := top["cli"]; ok {
		m.CLI = p.cli(rawCLI)
	} else {
		p.fail("cli", "missing")
	}
	var rawTools []json.RawMessage
	if p.decode(top, "", "tools", &rawTools, "a list of tools") {
		if len(rawTools) == 0 {
			p.fail("tools", "is empty: a manifest advertises at least one tool")
		}
	} else if _, ok := top["tools"]; !ok {
		p.fail("tools", "missing")
	}
	seen := map[string]int{}
	for i, rt := range rawTools {
		t := p.toolAt(rt, i)
		if t == nil {
			continue
		}
		if j, dup := seen[t.Name]; dup {
			p.tool = t.Name
			p.fail("name", "duplicate: tools[%d] has the same name", j)
			p.tool = ""
			continue
		}
		seen[t.Name] = i
		t.cli = &m.CLI
		m.Tools = append(m.Tools, t)
	}
	return m
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func (p *parser) cli(raw json.RawMessage) CLI {
	var c CLI
	obj := p.object(raw, "cli", "command", "args", "env", "cwd")
	if obj == nil {
		return c
	}
	if p.decode(obj, "cli", "command", &c.Command, "a string") {
		if strings.TrimSpace(c.Command) == "" {
			p.fail("cli.command", "is empty")
		}
	} else if _, ok := obj["command"]; !ok {
		p.fail("cli.command", "missing")
	}
	p.decode(obj, "cli", "args", &c.Args, "a list of strings")
	for i, a := range c.Args {
		if strings.IndexByte(a, 0) >= 0 {
			p.fail(fmt.Sprintf("cli.args[%d]", i), "contains a NUL byte")
		}
	}
	if rawEnv, ok := obj["env"]; ok {
		env := p.object(rawEnv, "cli.env", "pass", "set")
		if env != nil {
			p.decode(env, "cli.env", "pass", &c.Pass, "a list of variable names")
			p.decode(env, "cli.env", "set", &c.Set, "an object of strings")
			for i, name := range c.Pass {
				if !envNameRE.MatchString(name) {
					p.fail(fmt.Sprintf("cli.env.pass[%d]", i), "%q is not a variable name", name)
				}
			}
			for name := range c.Set {
				if !envNameRE.MatchString(name) {
					p.fail("cli.env.set", "%q is not a variable name", name)
				}
			}
		}
	}
	p.decode(obj, "cli", "cwd", &c.Cwd, "a string")
	if strings.HasPrefix(c.Cwd, "@") && c.Cwd != ScratchDir {
		// "@scratch2", "@tmp": a keyword mistyped, not a directory named so.
		p.fail("cli.cwd", "%q: the only keyword is %q (a fresh directory per call); a directory path does not start with @", c.Cwd, ScratchDir)
	}
	return c
}

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (p *parser) toolAt(raw json.RawMessage, i int) *Tool {
	field := fmt.Sprintf("tools[%d]", i)
	p.tool = ""
	obj := p.object(raw, field, "name", "title", "description", "command", "annotations", "params", "output", "timeout")
	if obj == nil {
		return nil
	}
	t := &Tool{}
	if !p.decode(obj, field, "name", &t.Name, "a string") {
		if _, ok := obj["name"]; !ok {
			p.fail(field+".name", "missing")
		}
		return nil
	}
	if !nameRE.MatchString(t.Name) {
		p.fail(field+".name", "%q must match ^[a-z0-9_]{1,64}$ (lower-case letters, digits, underscores)", t.Name)
		return nil
	}
	if strings.HasPrefix(t.Name, ReservedPrefix) {
		p.fail(field+".name", "%q: names starting with %s are reserved for aeat-mcp's own tools (aeat_mcp_wait, aeat_mcp_cancel, aeat_mcp_runs)", t.Name, ReservedPrefix)
		return nil
	}
	p.tool = t.Name
	defer func() { p.tool = "" }()
	if len(t.Name) > NameBudget {
		p.warnings = append(p.warnings, fmt.Sprintf("tool %q: name has %d characters; hosts prefix it (mcp__<server>__) and model APIs cap names at 64: keep it within %d",
			t.Name, len(t.Name), NameBudget))
	}
	if !p.decode(obj, "", "title", &t.Title, "a string") || strings.TrimSpace(t.Title) == "" {
		p.fail("title", "missing or empty: hosts show it to people")
	}
	if !p.decode(obj, "", "description", &t.Description, "a string") || strings.TrimSpace(t.Description) == "" {
		p.fail("description", "missing or empty: the model reads it to choose the tool")
	}
	if p.decode(obj, "", "command", &t.Command, "a list of strings") {
		for j, c := range t.Command {
			if c == "" || strings.IndexByte(c, 0) >= 0 {
				p.fail(fmt.Sprintf("command[%d]", j), "must be a non-empty string without NUL bytes")
			}
		}
	} else if _, ok := obj["command"]; !ok {
		p.fail("command", "missing (the verb's words, e.g. [\"modelo\", \"303\", \"pull\"])")
	}
	if rawA, ok := obj["annotations"]; ok {
		t.Hints = p.hints(rawA)
	} else {
		p.fail("annotations", "missing: readOnlyHint, destructiveHint, idempotentHint and openWorldHint must all be given")
	}
	t.Output = OutputText
	if p.decode(obj, "", "output", &t.Output, "a string") && t.Output != OutputText && t.Output != OutputJSON {
		p.fail("output", "is %q; must be %q or %q", t.Output, OutputText, OutputJSON)
	}
	var timeout string
	if p.decode(obj, "", "timeout", &timeout, "a Go duration string such as \"90s\"") {
		d, err := time.ParseDuration(timeout)
		switch {
		case err != nil:
			p.fail("timeout", "%q is not a duration (e.g. \"90s\", \"5m\")", timeout)
		case d <= 0:
			p.fail("timeout", "%q must be positive", timeout)
		default:
			t.Timeout = d
		}
	}
	var rawParams []json.RawMessage
	p.decode(obj, "", "params", &rawParams, "a list of parameters")
	names := map[string]bool{}
	for j, rp := range rawParams {
		prm, ok := p.param(rp, fmt.Sprintf("params[%d]", j))
		if !ok {
			continue
		}
		if names[prm.Name] {
			p.fail(fmt.Sprintf("params[%d].name", j), "duplicate parameter %q", prm.Name)
			continue
		}
		names[prm.Name] = true
		t.Params = append(t.Params, prm)
	}
	for j, prm := range t.Params {
		if prm.Positional && prm.Type == "array" && j != lastPositional(t.Params) {
			p.fail(fmt.Sprintf("params[%d]", j), "a positional array must be the last positional parameter")
		}
	}
	if len(p.problemsFor(t.Name)) == 0 {
		if err := t.buildSchema(); err != nil {
			p.fail("params", "%v", err)
		}
	}
	return t
}

func lastPositional(ps []Param) int {
	last := -1
	for i, prm := range ps {
		if prm.Positional {
			last = i
		}
	}
	return last
}

func (p *parser) problemsFor(tool string) []Problem {
	var out []Problem
	for _, pr := range p.problems {
		if pr.Tool == tool {
			out = append(out, pr)
		}
	}
	return out
}

func (p *parser) hints(raw json.RawMessage) Hints {
	var h Hints
	obj := p.object(raw, "annotations", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
	if obj == nil {
		return h
	}
	for _, f := range []struct {
		key string
		v   *bool
	}{
		{"readOnlyHint", &h.ReadOnly},
		{"destructiveHint", &h.Destructive},
		{"idempotentHint", &h.Idempotent},
		{"openWorldHint", &h.OpenWorld},
	} {
		if _, ok := obj[f.key]; !ok {
			p.fail("annotations."+f.key, "missing: all four hints must be explicit (MCP's defaults are destructive and open-world)")
			continue
		}
		p.decode(obj, "annotations", f.key, f.v, "true or false")
	}
	if h.ReadOnly && h.Destructive {
		p.fail("annotations", "readOnlyHint and destructiveHint are both true: a read-only tool cannot be destructive")
	}
	return h
}

var paramTypes = []string{"string", "integer", "number", "boolean", "array"}

func (p *parser) param(raw json.RawMessage, field string) (Param, bool) {
	var prm Param
	obj := p.object(raw, field, "name", "type", "items", "required", "description", "default", "enum",
		"pattern", "minimum", "maximum", "minLength", "maxLength", "flag", "positional", "negate")
	if obj == nil {
		return prm, false
	}
	before := len(p.problems)
	if !p.decode(obj, field, "name", &prm.Name, "a string") {
		p.fail(field+".name", "missing")
	} else if !paramNameRE.MatchString(prm.Name) {
		p.fail(field+".name", "%q must match %s", prm.Name, paramNameRE)
	}
	if !p.decode(obj, field, "type", &prm.Type, "a string") {
		p.fail(field+".type", "missing (one of %s)", strings.Join(paramTypes, ", "))
	} else if !contains(paramTypes, prm.Type) {
		p.fail(field+".type", "is %q; must be one of %s", prm.Type, strings.Join(paramTypes, ", "))
	}
	if p.decode(obj, field, "items", &prm.Items, "a string") {
		if prm.Type != "array" {
			p.fail(field+".items", "only arrays have items")
		} else if !contains([]string{"string", "integer", "number"}, prm.Items) {
			p.fail(field+".items", "is %q; must be string, integer or number", prm.Items)
		}
	} else if prm.Type == "array" {
		if _, ok := obj["items"]; !ok {
			p.fail(field+".items", "missing: an array says what it holds (string, integer or number)")
		}
	}
	p.decode(obj, field, "required", &prm.Required, "true or false")
	p.decode(obj, field, "description", &prm.Description, "a string")
	p.decode(obj, field, "flag", &prm.Flag, "a string")
	p.decode(obj, field, "positional", &prm.Positional, "true or false")
	p.decode(obj, field, "negate", &prm.Negate, "a string")
	switch {
	case prm.Flag != "" && prm.Positional:
		p.fail(field, "has both flag and positional: give exactly one")
	case prm.Flag == "" && !prm.Positional:
		p.fail(field, "has neither flag nor positional: give exactly one")
	}
	if prm.Flag != "" && !flagRE.MatchString(prm.Flag) {
		p.fail(field+".flag", "%q is not an option name (e.g. \"--year\")", prm.Flag)
	}
	if prm.Negate != "" {
		if prm.Type != "boolean" || prm.Flag == "" {
			p.fail(field+".negate", "only a boolean flag can have a negate flag")
		} else if !flagRE.MatchString(prm.Negate) {
			p.fail(field+".negate", "%q is not an option name (e.g. \"--no-dry-run\")", prm.Negate)
		}
	}
	if prm.Positional && prm.Type == "boolean" {
		p.fail(field, "a boolean cannot be positional: give it a flag")
	}
	if p.decode(obj, field, "pattern", &prm.Pattern, "a string") {
		if _, err := regexp.Compile(prm.Pattern); err != nil {
			p.fail(field+".pattern", "is not a valid regular expression: %v", err)
		}
		if !p.stringish(prm) {
			p.fail(field+".pattern", "only strings (or arrays of strings) have a pattern")
		}
	}
	for _, b := range []struct {
		key string
		v   **float64
	}{{"minimum", &prm.Minimum}, {"maximum", &prm.Maximum}} {
		var f float64
		if p.decode(obj, field, b.key, &f, "a number") {
			*b.v = &f
			if !p.numeric(prm) {
				p.fail(field+"."+b.key, "only numbers have a %s", b.key)
			}
		}
	}
	for _, b := range []struct {
		key string
		v   **int
	}{{"minLength", &prm.MinLength}, {"maxLength", &prm.MaxLength}} {
		var n int
		if p.decode(obj, field, b.key, &n, "a non-negative integer") {
			if n < 0 {
				p.fail(field+"."+b.key, "must not be negative")
			}
			*b.v = &n
			if !p.stringish(prm) {
				p.fail(field+"."+b.key, "only strings have a %s", b.key)
			}
		}
	}
	if prm.Minimum != nil && prm.Maximum != nil && *prm.Minimum > *prm.Maximum {
		p.fail(field, "minimum is greater than maximum")
	}
	if prm.MinLength != nil && prm.MaxLength != nil && *prm.MinLength > *prm.MaxLength {
		p.fail(field, "minLength is greater than maxLength")
	}
	if rawEnum, ok := obj["enum"]; ok {
		if err := json.Unmarshal(rawEnum, &prm.Enum); err != nil || len(prm.Enum) == 0 {
			p.fail(field+".enum", "must be a non-empty list of values")
		}
	}
	if rawDef, ok := obj["default"]; ok {
		if err := json.Unmarshal(rawDef, &prm.Default); err != nil || prm.Default == nil {
			p.fail(field+".default", "must be a value")
		}
		if prm.Required {
			p.fail(field+".default", "a required parameter cannot have a default")
		}
	}
	if len(p.problems) == before {
		// Values in the manifest must satisfy the manifest's own rules.
		bare := prm
		bare.Enum = nil
		for i, e := range prm.Enum {
			if err := bare.checkScalar(scalarType(prm), e); err != nil {
				p.fail(fmt.Sprintf("%s.enum[%d]", field, i), "%v", err)
			}
		}
		if prm.Default != nil {
			if err := prm.check(prm.Default); err != nil {
				p.fail(field+".default", "%v", err)
			}
		}
	}
	return prm, len(p.problems) == before
}

// scalarType is the type of one value of prm: its items for an array.
func scalarType(prm Param) string {
	if prm.Type == "array" {
		return prm.Items
	}
	return prm.Type
}

var paramNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

func (p *parser) stringish(prm Param) bool {
	return prm.Type == "string" || prm.Type == "array" && prm.Items == "string"
}

func (p *parser) numeric(prm Param) bool {
	return prm.Type == "integer" || prm.Type == "number" ||
		prm.Type == "array" && (prm.Items == "integer" || prm.Items == "number")
}
