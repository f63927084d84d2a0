package generate

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/cleantext"
)

// mapped is one param of the tree as a manifest param, or why it is not.
type mapped struct {
	// p is the manifest param (a JSON object); nil when the param cannot be
	// said in a manifest at all.
	p map[string]any
	// hidden: left out unless an override brings it back ("hidden": false).
	hidden bool
	// confirm is the option's flag when it is the CLI's own "yes".
	confirm string
	// note says what was left out or changed, for the person generating.
	note string
}

// mapParam turns one option or argument into a manifest param:
//
//   - a flag (--x, --x/--no-x, a counting -v) is a boolean, the pair's
//     negative its negate;
//   - the type by [paramTypes]; choices are an enum, ranges bounds (an
//     open integer bound moved in by one);
//   - a repeatable option, or an argument taking several values, is an
//     array;
//   - required as the CLI says; an option the CLI prompts for is required
//     too (a prompt on the null device aborts); a hidden prompt's value is
//     sensitive;
//   - the CLI's default where it is a value the param accepts;
//   - the CLI's own confirmation option (--yes) is no param: it is the
//     tool's confirm flag.
//
// Left out: --help/--version-like options (eager flags the command never
// sees; flask's eager --app takes a value, and stays), options that
// take several values per occurrence (a manifest writes one token per
// value), and what the CLI hides (unless an override brings it back).
func mapParam(p Param) mapped {
	if p.Eager && p.ExposeValue != nil && !*p.ExposeValue && (p.IsFlag || p.Count) {
		return mapped{} // --help, --version: they act, they give no value
	}
	name := paramName(p.Name)
	if name == "" && p.Kind == "option" {
		name = optName(longOpt(p.Opts))
	}
	if name == "" {
		return mapped{note: fmt.Sprintf("param %q: no name to give it", strings.Join(p.Opts, "/"))}
	}
	nargs := p.Nargs
	if nargs == 0 {
		nargs = 1
	}
	flagLike := p.Kind == "option" && (p.IsFlag || p.Count)
	if flagLike {
		if f := confirmFlag(p); f != "" {
			return mapped{confirm: f}
		}
	}
	if p.Kind == "option" && nargs != 1 && !flagLike {
		return mapped{note: fmt.Sprintf("option %s takes %d values at once: a manifest writes one value per --flag=value token", longOpt(p.Opts), nargs)}
	}
	m := map[string]any{"name": name}
	var note string
	t, known := paramTypes[p.Type]
	switch {
	case flagLike:
		t = paramType{manifest: "boolean"}
	case !known:
		t = paramType{manifest: "string"}
		note = fmt.Sprintf("param %s: type %q is not one generate knows: a string, the CLI checks it", name, p.Type)
	}
	array := !flagLike && (p.Multiple || p.Kind == "argument" && nargs != 1)
	if t.manifest == "boolean" && !flagLike {
		// A boolean that takes a value (--x true, or an argument): the
		// manifest's booleans are a flag's presence.
		t = paramType{manifest: "string"}
		m["enum"] = []any{"true", "false"}
	}
	if array {
		m["type"], m["items"] = "array", t.manifest
	} else {
		m["type"] = t.manifest
	}
	if t.pattern != "" {
		m["pattern"] = t.pattern
	}
	if len(p.Choices) > 0 && !flagLike {
		enum := make([]any, len(p.Choices))
		for i, c := range p.Choices {
			enum[i] = c
		}
		m["type"] = "string"
		if array {
			m["type"], m["items"] = "array", "string"
		}
		m["enum"] = enum
	}
	if t.manifest == "integer" || t.manifest == "number" {
		if p.Min != nil {
			m["minimum"] = bound(*p.Min, p.MinOpen, t.manifest, +1)
		}
		if p.Max != nil {
			m["maximum"] = bound(*p.Max, p.MaxOpen, t.manifest, -1)
		}
	}
	if p.Kind == "argument" {
		m["positional"] = true
	} else {
		m["flag"] = longOpt(p.Opts)
		if flagLike {
			if neg := longOpt(p.Secondary); neg != "" {
				m["negate"] = neg
			}
		}
	}
	required := p.Required || p.Kind == "option" && p.Prompt && !flagLike
	if required {
		m["required"] = true
	}
	if p.HideInput {
		m["sensitive"] = true
	}
	if h := cleanHelp(p.Help); h != "" {
		m["description"] = h
	}
	if !required && p.Default != nil {
		if machineDefault(p.Default) {
			note = joinNotes(note, fmt.Sprintf("param %s: the CLI's default %s names this machine's home directory: left out (the CLI applies it itself)", name, compact(p.Default)))
		} else if d, ok := fitDefault(m, p.Default); ok {
			m["default"] = d
		} else if !trivialDefault(p.Default) {
			note = joinNotes(note, fmt.Sprintf("param %s: the CLI's default %s is not a value of the param; left out", name, compact(p.Default)))
		}
	}
	return mapped{p: m, hidden: p.Hidden, note: note}
}

// confirmFlag is the option by which a flag says "yes, do it" ([confirmOpts],
// or a flag the CLI prompts for: "Are you sure?"); "" for any other flag.
func confirmFlag(p Param) string {
	long := strings.HasPrefix(longOpt(p.Opts), "--")
	for _, c := range confirmOpts {
		// -y alone says yes; as another flag's shorthand (gh's -y,
		// --yaml) it does not.
		if slices.Contains(p.Opts, c) && (strings.HasPrefix(c, "--") || !long) {
			return c
		}
	}
	if p.Prompt && p.IsFlag && len(p.Opts) > 0 {
		return longOpt(p.Opts)
	}
	return ""
}

// longOpt is the first long option of opts ("--year"), else the first.
func longOpt(opts []string) string {
	for _, o := range opts {
		if strings.HasPrefix(o, "--") {
			return o
		}
	}
	if len(opts) > 0 {
		return opts[0]
	}
	return ""
}

// bound is a range's end as a manifest bound: an open integer end moves in
// by one (x > 0 is x >= 1); an open number end stays (the manifest has no
// exclusive bound: the CLI refuses the end itself).
func bound(n json.Number, open bool, typ string, dir int64) json.Number {
	if !open || typ != "integer" {
		return n
	}
	i, ok := new(big.Int).SetString(n.String(), 10)
	if !ok {
		return n
	}
	return json.Number(i.Add(i, big.NewInt(dir)).String())
}

// fitDefault returns the CLI's default as a value of the param m, if it is
// one: its type, within its enum and bounds. False and empty values are no
// default (absent is the same).
func fitDefault(m map[string]any, v any) (any, bool) {
	if m["type"] == "array" {
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return nil, false
		}
		for _, e := range list {
			if !fitsOne(m, m["items"].(string), e) {
				return nil, false
			}
		}
		return list, true
	}
	if m["type"] == "boolean" {
		b, ok := v.(bool)
		return true, ok && b
	}
	return v, fitsOne(m, m["type"].(string), v)
}

func fitsOne(m map[string]any, typ string, v any) bool {
	switch typ {
	case "string":
		s, ok := v.(string)
		if !ok || s == "" {
			return false
		}
	case "integer", "number":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		r, ok := new(big.Rat).SetString(n.String())
		if !ok || typ == "integer" && !r.IsInt() {
			return false
		}
		for key, sign := range map[string]int{"minimum": -1, "maximum": +1} {
			if b, ok := m[key].(json.Number); ok {
				br, _ := new(big.Rat).SetString(b.String())
				if br != nil && r.Cmp(br) == sign {
					return false
				}
			}
		}
	default:
		return false
	}
	if enum, ok := m["enum"].([]any); ok && !slices.Contains(enum, v) {
		return false
	}
	return true
}

// home is this machine's home directory. A default that names it is the
// machine's, not the CLI's — kubectl prints --cache-dir='/root/.kube/cache'
// — and a manifest holding it would differ on every machine that
// generates it (and fail --check).
var home, _ = os.UserHomeDir()

// machineDefault: v (or one of its elements) names the home directory.
func machineDefault(v any) bool {
	if len(home) < 2 {
		return false
	}
	switch x := v.(type) {
	case string:
		return strings.Contains(x, home)
	case []any:
		return slices.ContainsFunc(x, machineDefault)
	}
	return false
}

// trivialDefault: no default worth a note (none, false, empty).
func trivialDefault(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	}
	return false
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// cleanHelp is a help text as a model should read it: Click's markers
// gone (\b keeps a paragraph as written, \f ends what help shows), then
// whatever is not text (terminal escapes — colour, OSC 8 links, a
// clear-screen —, control characters, direction overrides, invisible
// characters: package cleantext's rule, which the loader enforces), lines
// right-trimmed, no run of blank lines.
func cleanHelp(s string) string {
	if i := strings.IndexByte(s, '\f'); i >= 0 {
		s = s[:i]
	}
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	lines = slices.DeleteFunc(lines, func(l string) bool { return strings.TrimSpace(l) == "\b" })
	var out []string
	blank := false
	for _, l := range strings.Split(cleantext.Text(strings.Join(lines, "\n")), "\n") {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			if blank || len(out) == 0 {
				continue
			}
			blank = true
		} else {
			blank = false
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// summary is the first sentence of a help text (its first line at most),
// for a title: without its final period, within 100 characters.
func summary(help string) string {
	line, _, _ := strings.Cut(cleanHelp(help), "\n")
	if i := strings.Index(line, ". "); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSuffix(strings.TrimSpace(line), ".")
	if r := []rune(line); len(r) > 100 {
		cut := 99
		for i := 98; i >= 40; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		line = strings.TrimRight(string(r[:cut]), " ,;:") + "…"
	}
	return line
}
