package annotations

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/cleantext"
	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
)

// parser reads a manifest and collects every problem it finds, each located
// by tool and field, rather than stopping at the first: a person fixing a
// manifest wants the whole list at once.
type parser struct {
	source   string
	problems []Problem
	warnings []string
	tool     string
	// declared are the names of the current tool's params, including
	// those that did not load: a reference to one is not reported again.
	declared map[string]bool
	// flags and patterns remember what was checked or compiled: a
	// 300-tool manifest names the same few of them hundreds of times.
	flags    map[string]bool
	patterns map[string]compiled
}

type compiled struct {
	pat *pattern
	err error
}

// flagOK is flagRE.Get().MatchString(s), remembered.
func (p *parser) flagOK(s string) bool {
	ok, seen := p.flags[s]
	if !seen {
		if p.flags == nil {
			p.flags = map[string]bool{}
		}
		ok = flagRE.Get().MatchString(s)
		p.flags[s] = ok
	}
	return ok
}

// pattern is compilePattern(s), remembered (a *regexp.Regexp is safe to
// share).
func (p *parser) pattern(s string) (*pattern, error) {
	c, seen := p.patterns[s]
	if !seen {
		if p.patterns == nil {
			p.patterns = map[string]compiled{}
		}
		var re *regexp.Regexp
		if re, c.err = compilePattern(s); c.err == nil {
			c.pat = compiledPattern(re)
		}
		p.patterns[s] = c
	}
	return c.pat, c.err
}

func (p *parser) fail(field, format string, a ...any) {
	p.problems = append(p.problems, Problem{Tool: p.tool, Field: field, Msg: fmt.Sprintf(format, a...)})
}

// object takes raw as a JSON object, reporting keys outside known: typos
// must not be silently ignored.
func (p *parser) object(raw any, field string, known ...string) map[string]any {
	obj, ok := raw.(map[string]any)
	if !ok {
		p.fail(field, "must be an object")
		return nil
	}
	var unknown []string
	for k := range obj {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		p.fail(join(field, k), "unknown key (known: %s)", strings.Join(known, ", "))
	}
	return obj
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

// decode stores obj[key] in v when present, reporting a wrong type with
// want ("a string", "a list of strings"). Numbers stay exact.
func (p *parser) decode(obj map[string]any, field, key string, v any, want string) bool {
	val, ok := obj[key]
	if !ok {
		return false
	}
	if !assign(val, v) {
		p.fail(join(field, key), "must be %s", want)
		return false
	}
	return true
}

// text is decode for a text a person or a model reads (a title, a
// description, a hint): a host may print it in a terminal and a model reads
// it, so it must hold no control sequence, control character or invisible
// character — what package cleantext removes from a CLI's output.
// aeat-mcp generate cleans the help texts it copies.
func (p *parser) text(obj map[string]any, field, key string, v *string) bool {
	if !p.decode(obj, field, key, v, "a string") {
		return false
	}
	if i := cleantext.First(*v); i >= 0 {
		p.fail(join(field, key), "holds %s at byte %d: hosts print this text and models read it; remove it", cleantext.Describe(*v, i), i)
	}
	return true
}

// require is decode for a key that must be there.
func (p *parser) require(obj map[string]any, field, key string, v any, want, why string) bool {
	if _, ok := obj[key]; !ok {
		p.fail(join(field, key), "missing%s", why)
		return false
	}
	return p.decode(obj, field, key, v, want)
}

func (p *parser) manifest(data []byte) *Manifest {
	raw, err := decodeTree(data)
	if err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line, col := position(data, syn.Offset)
			p.fail("", "invalid JSON at line %d, column %d: %v", line, col, syn)
		} else {
			p.fail("", "invalid JSON: %v", err)
		}
		return nil
	}
	top := p.object(raw, "", "$schema", "version", "cli", "surface", "tools")
	if top == nil {
		return nil
	}
	m := &Manifest{}
	if p.require(top, "", "version", &m.Version, "the number 1", fmt.Sprintf(" (this loader reads version %d)", Version)) && m.Version != Version {
		p.fail("version", "is %d; this loader reads version %d", m.Version, Version)
	}
	if rawCLI, ok := top["cli"]; ok {
		m.CLI = p.cli(rawCLI)
	} else {
		p.fail("cli", "missing")
	}
	var rawTools []any
	if p.require(top, "", "tools", &rawTools, "a list of tools", "") && len(rawTools) == 0 {
		p.fail("tools", "is empty: a manifest advertises at least one tool")
	}
	seen := map[string]int{}
	for i, rt := range rawTools {
		t := p.toolAt(rt, i, &m.CLI)
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
		m.Tools = append(m.Tools, t)
	}
	if rawSurface, ok := top["surface"]; ok {
		m.Surface = p.surface(rawSurface, seen)
	}
	p.warmPaths(m)
	return m
}

// surface reads the surface key: core names tools of the manifest (tools
// by name, as tools[i]), each once.
func (p *parser) surface(raw any, tools map[string]int) Surface {
	var s Surface
	obj := p.object(raw, "surface", "core")
	if obj == nil {
		return s
	}
	if !p.decode(obj, "surface", "core", &s.Core, "a list of tool names") {
		return s
	}
	if len(s.Core) == 0 {
		p.fail("surface.core", "is empty: name the tools a small surface lists, or leave surface out")
	}
	listed := map[string]bool{}
	for i, name := range s.Core {
		f := fmt.Sprintf("surface.core[%d]", i)
		switch _, ok := tools[name]; {
		case listed[name]:
			p.fail(f, "%q is listed twice", name)
		case !ok:
			p.fail(f, "%q is not a tool of this manifest", name)
		}
		listed[name] = true
	}
	return s
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

var (
	envNameRE = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)
	envPassRE = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*\*?$`)
)

func (p *parser) cli(raw any) CLI {
	c := CLI{ErrorOutput: ErrorOutput{Format: OutputText}}
	obj := p.object(raw, "cli", "command", "args", "env", "cwd", "params", "exit_codes", "error_codes", "error_output", "health", "warm")
	if obj == nil {
		return c
	}
	if p.require(obj, "cli", "command", &c.Command, "a string", "") && strings.TrimSpace(c.Command) == "" {
		p.fail("cli.command", "is empty")
	}
	p.decode(obj, "cli", "args", &c.Args, "a list of strings")
	for i, a := range c.Args {
		if strings.IndexByte(a, 0) >= 0 {
			p.fail(fmt.Sprintf("cli.args[%d]", i), "contains a NUL byte")
		}
	}
	if rawEnv, ok := obj["env"]; ok {
		p.env(rawEnv, &c)
	}
	p.decode(obj, "cli", "cwd", &c.Cwd, "a string")
	if strings.HasPrefix(c.Cwd, "@") && c.Cwd != ScratchDir {
		// "@scratch2", "@tmp": a keyword mistyped, not a directory named so.
		p.fail("cli.cwd", "%q: the only keyword is %q (a fresh directory per call); a directory path does not start with @", c.Cwd, ScratchDir)
	}
	var rawParams []any
	p.decode(obj, "cli", "params", &rawParams, "a list of parameters")
	c.Params = p.params(rawParams, "cli.params", paramPlace{shared: true})
	c.ExitCodes = p.exitCodes(obj, "cli")
	c.ErrorCodes = p.errorCodes(obj, "cli")
	c.ErrorOutput = p.errorOutput(obj, "cli", ErrorOutput{Format: OutputText})
	c.Health = p.health(obj)
	if rawWarm, ok := obj["warm"]; ok {
		c.Warm = p.warm(rawWarm)
	}
	return c
}

func (p *parser) env(raw any, c *CLI) {
	env := p.object(raw, "cli.env", "pass", "set", "require", "keychain")
	if env == nil {
		return
	}
	p.decode(env, "cli.env", "pass", &c.Pass, "a list of variable names")
	p.decode(env, "cli.env", "require", &c.Require, "a list of variable names")
	p.decode(env, "cli.env", "set", &c.Set, "an object of strings")
	p.keychain(env, c)
	for i, name := range c.Pass {
		if !envPassRE.Get().MatchString(name) {
			p.fail(fmt.Sprintf("cli.env.pass[%d]", i), "%q is not a variable name, or a prefix ending in * (\"CADRUMO_*\")", name)
		}
	}
	for i, name := range c.Require {
		if !envNameRE.Get().MatchString(name) {
			p.fail(fmt.Sprintf("cli.env.require[%d]", i), "%q is not a variable name", name)
		}
	}
	for name := range c.Set {
		if !envNameRE.Get().MatchString(name) {
			p.fail("cli.env.set", "%q is not a variable name", name)
		}
	}
}

// exitCodes reads an exit_codes object: exit code → what it means.
func (p *parser) exitCodes(obj map[string]any, field string) map[int]ExitCode {
	raw, ok := obj["exit_codes"]
	if !ok {
		return nil
	}
	field = join(field, "exit_codes")
	entries, ok := raw.(map[string]any)
	if !ok {
		p.fail(field, "must be an object of exit codes (\"3\": {\"meaning\": \"auth\"})")
		return nil
	}
	out := map[int]ExitCode{}
	for _, key := range slices.Sorted(maps.Keys(entries)) {
		f := join(field, key)
		code, err := strconv.ParseUint(key, 10, 32)
		if err != nil || code == 0 || key != strconv.FormatUint(code, 10) {
			p.fail(f, "%q is not an exit code (a number from 1 up: 0 is success already)", key)
			continue
		}
		e := p.object(entries[key], f, "meaning", "retryable", "hint", "ok")
		if e == nil {
			continue
		}
		var ec ExitCode
		if p.require(e, f, "meaning", &ec.Meaning, "a string", ": a short word for programs (\"auth\", \"locked\")") && !validMeaning(ec.Meaning) {
			p.fail(f+".meaning", "%q must match %s (a word programs can test)", ec.Meaning, meaningPattern)
		}
		p.decode(e, f, "retryable", &ec.Retryable, "true or false")
		p.text(e, f, "hint", &ec.Hint)
		ec.OK = p.okWhen(e, f)
		if ec.OK != OKNever && ec.Retryable {
			p.fail(f, "a successful exit (ok) is not retryable")
		}
		out[int(code)] = ec
	}
	return out
}

// okWhen reads an exit code's ok: true, false or "with_stdout".
func (p *parser) okWhen(e map[string]any, f string) OKWhen {
	raw, ok := e["ok"]
	if !ok {
		return OKNever
	}
	if raw == nil { // null reads as false, as it always did
		return OKNever
	}
	if b, ok := raw.(bool); ok {
		if b {
			return OKAlways
		}
		return OKNever
	}
	if s, _ := raw.(string); s == string(OKWithStdout) {
		return OKWithStdout
	}
	p.fail(f+".ok", "must be true, false or %q (a success only when stdout holds the result)", OKWithStdout)
	return OKNever
}

var toolKeys = []string{"name", "title", "description", "command", "annotations", "params", "output",
	"timeout", "stdin", "exit_codes", "error_codes", "error_output", "confirm", "progress", "hints_guessed", "cli_help"}

func (p *parser) toolAt(raw any, i int, cli *CLI) *Tool {
	field := fmt.Sprintf("tools[%d]", i)
	p.tool = ""
	obj := p.object(raw, field, toolKeys...)
	if obj == nil {
		return nil
	}
	t := &Tool{cli: cli}
	if !p.require(obj, field, "name", &t.Name, "a string", "") {
		return nil
	}
	if !validToolName(t.Name) {
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
	p.toolText(obj, t)
	if rawA, ok := obj["annotations"]; ok {
		t.Hints = p.hints(rawA)
	} else {
		p.fail("annotations", "missing: readOnlyHint, destructiveHint, idempotentHint and openWorldHint must all be given")
	}
	p.hintsGuessed(obj, t)
	p.toolRun(obj, t)
	t.Stdin = p.stdin(obj)
	var rawParams []any
	p.decode(obj, "", "params", &rawParams, "a list of parameters")
	p.declared = map[string]bool{}
	place := paramPlace{}
	if t.Stdin != nil {
		place.stdin = t.Stdin.Param
	}
	own := p.params(rawParams, "params", place)
	t.detail.Params = append(slices.Clone(cli.Params), own...)
	t.detail.index()
	for j, prm := range own {
		if slices.ContainsFunc(cli.Params, func(c Param) bool { return c.Name == prm.Name }) {
			p.fail(fmt.Sprintf("params[%d].name", j), "%q is already a parameter of cli.params (shared by every tool)", prm.Name)
		}
	}
	p.crossChecks(obj, t)
	if len(p.problemsFor(t.Name)) == 0 {
		if err := t.buildSchema(); err != nil {
			p.fail("params", "%v", err)
		}
	}
	return t
}

// toolText reads what people and models read: title, description, and
// the CLI's own help.
func (p *parser) toolText(obj map[string]any, t *Tool) {
	if !p.text(obj, "", "title", &t.Title) || strings.TrimSpace(t.Title) == "" {
		p.fail("title", "missing or empty: hosts show it to people")
	}
	if !p.text(obj, "", "description", &t.Description) || strings.TrimSpace(t.Description) == "" {
		p.fail("description", "missing or empty: the model reads it to choose the tool")
	}
	p.cliHelp(obj, t)
}

// languageTag is what cli_help's keys look like: a BCP 47 language and
// optional subtags ("es", "en", "pt-BR").
var languageTag = lazyre.New(`^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$`)

// cliHelp reads cli_help: the CLI's own help for the verb, by language —
// text a model may read (aeat_mcp_find searches it), held to the same
// rule as a description.
func (p *parser) cliHelp(obj map[string]any, t *Tool) {
	raw, ok := obj["cli_help"]
	if !ok {
		return
	}
	langs, isObj := raw.(map[string]any)
	if !isObj || len(langs) == 0 {
		p.fail("cli_help", "must be an object of the CLI's help per language (e.g. {\"en\": \"…\", \"es\": \"…\"}); leave it out when there is none")
		return
	}
	t.detail.CLIHelp = map[string]string{}
	for _, lang := range slices.Sorted(maps.Keys(langs)) {
		var text string
		switch {
		case !languageTag.Get().MatchString(lang):
			p.fail("cli_help."+lang, "is not a language tag (e.g. \"en\", \"es\", \"pt-BR\")")
		case !p.text(langs, "cli_help", lang, &text):
		case strings.TrimSpace(text) == "":
			p.fail("cli_help."+lang, "is empty: leave the language out")
		default:
			t.detail.CLIHelp[lang] = text
		}
	}
}

// toolRun reads how the verb runs: its command, output, timeout, exit
// codes, error output and progress stream.
func (p *parser) toolRun(obj map[string]any, t *Tool) {
	if p.require(obj, "", "command", &t.Command, "a list of strings", " (the verb's words, e.g. [\"modelo\", \"303\", \"pull\"])") {
		for j, c := range t.Command {
			if c == "" || strings.IndexByte(c, 0) >= 0 {
				p.fail(fmt.Sprintf("command[%d]", j), "must be a non-empty string without NUL bytes")
			}
		}
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
	t.ExitCodes = map[int]ExitCode{}
	for code, ec := range t.cli.ExitCodes {
		t.ExitCodes[code] = ec
	}
	for code, ec := range p.exitCodes(obj, "") {
		t.ExitCodes[code] = ec // the tool's own entry wins
	}
	t.ErrorCodes = map[string][]ErrorCode{}
	for code, ecs := range t.cli.ErrorCodes {
		t.ErrorCodes[code] = ecs
	}
	for code, ecs := range p.errorCodes(obj, "") {
		t.ErrorCodes[code] = ecs // the tool's own entries win
	}
	t.ErrorOutput = p.errorOutput(obj, "", t.cli.ErrorOutput)
	t.Progress = StreamStdout
	if t.Output == OutputJSON {
		t.Progress = StreamStderr // stdout is the JSON result, not prose
	}
	if p.decode(obj, "", "progress", &t.Progress, "a string") &&
		!slices.Contains([]string{StreamStdout, StreamStderr, StreamNone}, t.Progress) {
		p.fail("progress", "is %q; must be %q, %q or %q", t.Progress, StreamStdout, StreamStderr, StreamNone)
	}
}

func (p *parser) stdin(obj map[string]any) *StdinSource {
	raw, ok := obj["stdin"]
	if !ok {
		return nil
	}
	o := p.object(raw, "stdin", "env", "keychain", "param", "json_key")
	if o == nil {
		return nil
	}
	s := &StdinSource{}
	hasEnv := p.decode(o, "stdin", "env", &s.Env, "a variable name")
	hasKeychain := p.decode(o, "stdin", "keychain", &s.Keychain, "a variable name")
	hasParam := p.decode(o, "stdin", "param", &s.Param, "a parameter name")
	n := 0
	for _, has := range []bool{hasEnv, hasKeychain, hasParam} {
		if has {
			n++
		}
	}
	if n != 1 {
		p.fail("stdin", "give exactly one of env (a server variable the model never sees), keychain (a secret stored with aeat-mcp secret set) and param")
		return nil
	}
	switch {
	case hasEnv && !envNameRE.Get().MatchString(s.Env):
		p.fail("stdin.env", "%q is not a variable name", s.Env)
	case hasKeychain && !envNameRE.Get().MatchString(s.Keychain):
		p.fail("stdin.keychain", "%q is not a variable name", s.Keychain)
	}
	if p.decode(o, "stdin", "json_key", &s.JSONKey, "a string") && (s.JSONKey == "" || strings.IndexByte(s.JSONKey, 0) >= 0) {
		p.fail("stdin.json_key", "must be a non-empty key, e.g. \"secret\" for {\"secret\": \"…\"}")
	}
	return s
}

// crossChecks are the rules between a tool's keys: what requires names,
// where stdin comes from, the confirmation, positional arrays.
func (p *parser) crossChecks(obj map[string]any, t *Tool) {
	for j, prm := range t.detail.Params {
		f := paramField(t, j)
		for _, r := range prm.Requires {
			switch other, ok := t.detail.byName[r]; {
			case !ok && p.declared[r]:
			case !ok:
				p.fail(f+".requires", "%q is not a parameter of this tool", r)
			case r == prm.Name:
				p.fail(f+".requires", "a parameter cannot require itself")
			case other.Default != nil:
				p.fail(f+".requires", "%q has a default, so it is always given: requiring it says nothing", r)
			}
		}
		if prm.Positional && prm.IsArray() && j != lastPositional(t.detail.Params) {
			p.fail(f, "a positional array must be the last positional parameter")
		}
	}
	if s := t.Stdin; s != nil && s.Param != "" {
		switch prm, ok := t.detail.byName[s.Param]; {
		case !ok && p.declared[s.Param]:
		case !ok:
			p.fail("stdin.param", "%q is not a parameter of this tool", s.Param)
		case prm.Type != "string" || prm.Shared:
			p.fail("stdin.param", "%q must be a string parameter of this tool", s.Param)
		}
	}
	if raw, ok := obj["confirm"]; ok {
		t.Confirm = p.confirm(raw, t)
	}
}

// paramField names the j-th of t.Params as the manifest wrote it.
func paramField(t *Tool, j int) string {
	shared := len(t.cli.Params)
	if j < shared {
		return fmt.Sprintf("cli.params[%d]", j)
	}
	return fmt.Sprintf("params[%d]", j-shared)
}

func (p *parser) confirm(raw any, t *Tool) Confirm {
	var c Confirm
	o := p.object(raw, "confirm", "flag", "skip_when")
	if o == nil {
		return c
	}
	if !t.Hints.Destructive {
		p.fail("confirm", "only a destructive tool is confirmed (destructiveHint is false)")
	}
	if p.decode(o, "confirm", "flag", &c.Flag, "a string") {
		if !p.flagOK(c.Flag) {
			p.fail("confirm.flag", "%q is not an option name (e.g. \"--yes\")", c.Flag)
		}
		if by := t.givesFlag(c.Flag); by != "" {
			p.fail("confirm.flag", "%q is also given by %s: only a person's yes may add it", c.Flag, by)
		}
	}
	var skip map[string]any
	if p.decode(o, "confirm", "skip_when", &skip, "an object of parameter values") {
		c.SkipWhen = map[string]any{}
		for _, name := range slices.Sorted(maps.Keys(skip)) {
			f := "confirm.skip_when." + name
			prm, ok := t.detail.byName[name]
			if !ok {
				if !p.declared[name] {
					p.fail(f, "%q is not a parameter of this tool", name)
				}
				continue
			}
			v := skip[name]
			if err := prm.check(v); err != nil {
				p.fail(f, "%v", err)
				continue
			}
			c.SkipWhen[name] = v
		}
	}
	return c
}

// givesFlag says what else already puts flag on the command line: a
// param, cli.args or the tool's command; "" when nothing does.
func (t *Tool) givesFlag(flag string) string {
	same := func(tok string) bool { return tok == flag || strings.HasPrefix(tok, flag+"=") }
	for _, prm := range t.detail.Params {
		if prm.Flag == flag || prm.Negate == flag {
			return fmt.Sprintf("the parameter %q (the model could pass it)", prm.Name)
		}
	}
	if slices.ContainsFunc(t.cli.Args, same) {
		return "cli.args"
	}
	if slices.ContainsFunc(t.Command, same) {
		return "the tool's command"
	}
	return ""
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

func (p *parser) hints(raw any) Hints {
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
		p.require(obj, "annotations", f.key, f.v, "true or false", ": all four hints must be explicit (MCP's defaults are destructive and open-world)")
	}
	if h.ReadOnly && h.Destructive {
		p.fail("annotations", "readOnlyHint and destructiveHint are both true: a read-only tool cannot be destructive")
	}
	return h
}
