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
//
// Which params there are is [shapeOf]'s; each manifest key is one entry of
// [paramKeys], so a key generate learns to write is one entry there.
func mapParam(p Param) mapped {
	s, refused := shapeOf(p)
	if refused != nil {
		return *refused
	}
	m := map[string]any{"name": s.name}
	for _, k := range paramKeys {
		if v, ok := k.value(s); ok {
			m[k.key] = v
		}
	}
	note := s.note
	if d := mapDefault(m, s); d != "" {
		note = joinNotes(note, d)
	}
	return mapped{p: m, hidden: p.Hidden, note: note}
}

// shape is what every key of a mapped param is decided from: the tree's
// Param and what mapParam made of it first.
type shape struct {
	p        Param
	name     string
	flagLike bool // a flag (--x, --x/--no-x) or a counting -v: a boolean
	// typ is the param's type: boolean for a flag, string for a boolean
	// that takes a value (boolValue: its enum is "true", "false").
	typ       paramType
	boolValue bool
	array     bool   // repeatable, or an argument taking several values
	required  bool   // as the CLI says, or an option the CLI prompts for
	note      string // the type generate did not know
}

func (s *shape) choices() bool { return len(s.p.Choices) > 0 && !s.flagLike }
func (s *shape) numeric() bool { return s.typ.manifest == "integer" || s.typ.manifest == "number" }

// shapeOf decides what the keys are read from, or that p is no param (a
// --help, the CLI's own --yes) or cannot be one (no name, several values
// per occurrence): then the mapped to return instead.
func shapeOf(p Param) (*shape, *mapped) {
	if eagerAction(p) {
		return nil, &mapped{}
	}
	name := nameOf(p)
	if name == "" {
		return nil, &mapped{note: fmt.Sprintf("param %q: no name to give it", strings.Join(p.Opts, "/"))}
	}
	s := &shape{p: p, name: name, flagLike: p.Kind == "option" && (p.IsFlag || p.Count)}
	if r := s.refusal(); r != nil {
		return nil, r
	}
	s.array = !s.flagLike && (p.Multiple || p.Kind == "argument" && s.nargs() != 1)
	s.typ, s.boolValue, s.note = s.typeOf()
	s.required = p.Required || p.Kind == "option" && p.Prompt && !s.flagLike
	return s, nil
}

// eagerAction: --help, --version: they act, they give no value (flask's
// eager --app takes a value, and stays).
func eagerAction(p Param) bool {
	return p.Eager && p.ExposeValue != nil && !*p.ExposeValue && (p.IsFlag || p.Count)
}

// nameOf is the param's manifest name: the CLI's, else an option's long
// flag's; "" when it has neither.
func nameOf(p Param) string {
	if name := paramName(p.Name); name != "" || p.Kind != "option" {
		return name
	}
	return optName(longOpt(p.Opts))
}

// nargs is how many values one occurrence takes (-1: any number).
func (s *shape) nargs() int {
	if s.p.Nargs == 0 {
		return 1
	}
	return s.p.Nargs
}

// refusal is the mapped of an option that is no param: the CLI's own
// confirmation flag, or an option taking several values at once; nil for
// any other.
func (s *shape) refusal() *mapped {
	if s.flagLike {
		if f := confirmFlag(s.p); f != "" {
			return &mapped{confirm: f}
		}
		return nil
	}
	if s.p.Kind == "option" && s.nargs() != 1 {
		return &mapped{note: fmt.Sprintf("option %s takes %d values at once: a manifest writes one value per --flag=value token", longOpt(s.p.Opts), s.nargs())}
	}
	return nil
}

// typeOf is the param's type by [paramTypes]: boolean for a flag, a string
// (with a note) for a type generate does not know, and a string whose
// values are "true" and "false" (boolValue) for a boolean that takes a
// value (--x true, or an argument): the manifest's booleans are a flag's
// presence.
func (s *shape) typeOf() (t paramType, boolValue bool, note string) {
	if s.flagLike {
		return paramType{manifest: "boolean"}, false, ""
	}
	t, known := paramTypes.get(s.p.Type)
	switch {
	case !known:
		return paramType{manifest: "string"}, false, fmt.Sprintf("param %s: type %q is not one generate knows: a string, the CLI checks it", s.name, s.p.Type)
	case t.manifest == "boolean":
		return paramType{manifest: "string"}, true, ""
	}
	return t, false, ""
}

// paramKeys are the manifest keys a param of the tree maps to, one entry
// each: value is the key's value, or false when the param has none.
// "name" is always set; "default" is decided last ([mapDefault]), against
// the others.
var paramKeys = []struct {
	key   string
	value func(s *shape) (any, bool)
}{
	{"type", func(s *shape) (any, bool) {
		switch {
		case s.array:
			return "array", true
		case s.choices():
			return "string", true
		}
		return s.typ.manifest, true
	}},
	{"items", func(s *shape) (any, bool) {
		if s.choices() {
			return "string", s.array
		}
		return s.typ.manifest, s.array
	}},
	{"enum", func(s *shape) (any, bool) {
		switch {
		case s.choices():
			enum := make([]any, len(s.p.Choices))
			for i, c := range s.p.Choices {
				enum[i] = c
			}
			return enum, true
		case s.boolValue:
			return []any{"true", "false"}, true
		}
		return nil, false
	}},
	{"pattern", func(s *shape) (any, bool) { return s.typ.pattern, s.typ.pattern != "" }},
	// An open integer bound moves in by one ([bound]).
	{"minimum", func(s *shape) (any, bool) {
		if !s.numeric() || s.p.Min == nil {
			return nil, false
		}
		return bound(*s.p.Min, s.p.MinOpen, s.typ.manifest, +1), true
	}},
	{"maximum", func(s *shape) (any, bool) {
		if !s.numeric() || s.p.Max == nil {
			return nil, false
		}
		return bound(*s.p.Max, s.p.MaxOpen, s.typ.manifest, -1), true
	}},
	{"positional", func(s *shape) (any, bool) { return true, s.p.Kind == "argument" }},
	{"flag", func(s *shape) (any, bool) { return longOpt(s.p.Opts), s.p.Kind != "argument" }},
	{"negate", func(s *shape) (any, bool) {
		neg := longOpt(s.p.Secondary)
		return neg, s.p.Kind != "argument" && s.flagLike && neg != ""
	}},
	{"required", func(s *shape) (any, bool) { return true, s.required }},
	// A value the CLI prompts for without echoing it is a secret.
	{"sensitive", func(s *shape) (any, bool) { return true, s.p.HideInput }},
	{"description", func(s *shape) (any, bool) { h := cleanHelp(s.p.Help); return h, h != "" }},
}

// mapDefault sets m's default to the CLI's where it is a value m accepts,
// and says why it left a default out ("" when there is nothing to say: a
// required param, no default, or a trivial one such as false).
func mapDefault(m map[string]any, s *shape) string {
	v := s.p.Default
	if s.required || v == nil {
		return ""
	}
	if machineDefault(v) {
		return fmt.Sprintf("param %s: the CLI's default %s names this machine's home directory: left out (the CLI applies it itself)", s.name, compact(v))
	}
	if d, ok := fitDefault(m, v); ok {
		m["default"] = d
	} else if !trivialDefault(v) {
		return fmt.Sprintf("param %s: the CLI's default %s is not a value of the param; left out", s.name, compact(v))
	}
	return ""
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
