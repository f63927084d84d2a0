package generate

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Limits of a Cobra walk: a help that lists itself must not walk forever.
const (
	cobraMaxDepth    = 16
	cobraMaxCommands = 2000
)

// WalkCobra walks any Cobra CLI from outside, without a change to it:
// `PROGRAM --help`, then `PROGRAM help SUB…` for every command each help
// lists. Cobra's own help command is left out; a root without commands is
// the CLI's one verb. The root's flags that its
// commands inherit (their "Global Flags") are the CLI's globals; a flag
// inherited from a group below the root is the verb's own.
func WalkCobra(ctx context.Context, program string) ([]Command, error) {
	path, err := lookProgram(program)
	if err != nil {
		return nil, err
	}
	w := &cobraWalker{ctx: ctx, program: path, name: strings.TrimSuffix(filepath.Base(path), ".exe")}
	root, err := w.help(nil)
	if err != nil {
		return nil, err
	}
	if root.runnable && len(root.commands) == 0 {
		// A single-command CLI: the root is the one verb.
		var params []Param
		for _, p := range root.flags {
			if !(p.Name == "version" && p.IsFlag) { // Cobra's own, like --help
				params = append(params, p)
			}
		}
		return []Command{{Path: []string{}, Program: w.name, Help: root.description, Params: append(params, root.args...)}}, nil
	}
	w.rootFlags = map[string]bool{}
	for _, p := range root.flags {
		w.rootFlags[p.Name] = true
	}
	for _, sub := range root.commands {
		if err := w.walk([]string{sub.name}, sub.short, 1); err != nil {
			return nil, err
		}
	}
	rootEntry := Command{Path: []string{}, Group: true, Program: w.name, Help: root.description}
	for _, p := range root.flags {
		if w.inherited[p.Name] {
			rootEntry.Params = append(rootEntry.Params, p)
		}
	}
	return append([]Command{rootEntry}, w.tree...), nil
}

type cobraWalker struct {
	ctx       context.Context
	program   string
	name      string
	rootFlags map[string]bool
	// inherited are the root's flags some command lists as a Global Flag:
	// the persistent ones, which may come before the verb.
	inherited map[string]bool
	tree      []Command
}

func (w *cobraWalker) walk(path []string, short string, depth int) error {
	if len(w.tree) >= cobraMaxCommands || depth > cobraMaxDepth {
		return fmt.Errorf("%s: more than %d commands, or deeper than %d: not walking further", w.name, cobraMaxCommands, cobraMaxDepth)
	}
	h, err := w.help(path)
	if err != nil {
		return err
	}
	if h.runnable {
		c := Command{Path: path, ShortHelp: short, Help: h.description, Params: h.flags}
		for _, g := range h.globals {
			if w.rootFlags[g.Name] {
				if w.inherited == nil {
					w.inherited = map[string]bool{}
				}
				w.inherited[g.Name] = true
			} else {
				c.Params = append(c.Params, g) // a group's persistent flag: after the verb
			}
		}
		c.Params = append(c.Params, h.args...)
		w.tree = append(w.tree, c)
	}
	for _, sub := range h.commands {
		if err := w.walk(append(append([]string{}, path...), sub.name), sub.short, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// help runs PROGRAM help PATH… and reads what it prints. The root's is
// PROGRAM --help: Cobra adds its help command only to a CLI with
// subcommands, and `help` would be the argument of a single-command CLI's
// verb — run, not described.
func (w *cobraWalker) help(path []string) (*cobraHelp, error) {
	ctx, cancel := context.WithTimeout(w.ctx, 30*time.Second)
	defer cancel()
	args := append([]string{"help"}, path...)
	if len(path) == 0 {
		args = []string{"--help"}
	}
	cmd := exec.CommandContext(ctx, w.program, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &tail{max: 4 << 10, buf: &stderr}
	cmd.WaitDelay = 5 * time.Second
	where := strings.Join(append([]string{w.name}, args...), " ")
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", where, err, strings.TrimSpace(stderr.String()))
	}
	text := stdout.String()
	if strings.TrimSpace(text) == "" {
		text = stderr.String()
	}
	h := parseCobraHelp(text, append([]string{w.name}, path...))
	if !h.hasUsage {
		return nil, fmt.Errorf("%s printed no \"Usage:\": is %s a Cobra CLI?", where, w.name)
	}
	return h, nil
}

// cobraHelp is what one Cobra help page says.
type cobraHelp struct {
	description string
	hasUsage    bool
	// runnable: a usage line other than "… [command]" — the command is a
	// verb, not only a group.
	runnable bool
	args     []Param
	commands []cobraListed
	flags    []Param
	globals  []Param
}

type cobraListed struct{ name, short string }

var (
	cobraListedRE  = regexp.MustCompile(`^\s+(\S+)(?:\s{2,}(.*))?$`)
	cobraUsageArg  = regexp.MustCompile(`^(?:<([A-Za-z][\w-]*)>|([A-Z][A-Z0-9_-]*))$`)
	usageNoise     = strings.NewReplacer("[", "", "]", "", "...", "", "…", "")
	cobraFlagGroup = regexp.MustCompile(`\[\s*-[^\]]*\](\.\.\.|…)?`)
)

// parseCobraHelp reads a Cobra help page: the description before
// "Usage:", the usage lines (positional arguments from the Use line), the
// commands of every "… Commands:" section, Flags and Global Flags. path is
// the command's words, program first.
func parseCobraHelp(text string, path []string) *cobraHelp {
	h := &cobraHelp{}
	var desc []string
	section := ""
	var last *Param
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		// Headings are unindented and end with ":"; before "Usage:" every
		// line is the description, which may hold such lines itself.
		if line != "" && line[0] != ' ' && line[0] != '\t' && strings.HasSuffix(line, ":") && (h.hasUsage || line == "Usage:") {
			section = strings.TrimSuffix(line, ":")
			last = nil
			if section == "Usage" {
				h.hasUsage = true
			}
			continue
		}
		switch {
		case section == "":
			desc = append(desc, line)
		case section == "Usage":
			if u := strings.TrimSpace(line); u != "" {
				h.usage(u, path)
			}
		case section == "Flags" || section == "Global Flags":
			if p, ok := parseCobraFlag(line); ok {
				if p == nil {
					last = nil // help, or a deprecated flag: left out
					continue
				}
				if section == "Flags" {
					h.flags = append(h.flags, *p)
					last = &h.flags[len(h.flags)-1]
				} else {
					h.globals = append(h.globals, *p)
					last = &h.globals[len(h.globals)-1]
				}
			} else if last != nil && strings.TrimSpace(line) != "" && line[0] == ' ' {
				last.Help += "\n" + strings.TrimSpace(line) // a usage text of several lines
			}
		case strings.HasSuffix(section, "Commands"):
			if m := cobraListedRE.FindStringSubmatch(line); m != nil && m[1] != "help" {
				h.commands = append(h.commands, cobraListed{name: m[1], short: strings.TrimSpace(m[2])})
			}
		}
	}
	h.description = strings.TrimSpace(strings.Join(desc, "\n"))
	return h
}

// usage reads one usage line: "prog sub TITLE [FILE...] [flags]". A
// bracketed group that starts with a flag ("[--arg NAME=VALUE]…") is the
// flag's placeholder, not an argument; an argument is an upper-case word
// or <name>, optional in brackets, variadic with "..." or "…".
func (h *cobraHelp) usage(line string, path []string) {
	words := strings.Fields(line)
	if len(words) < len(path) {
		return
	}
	rest := words[len(path):]
	if len(rest) > 0 && rest[len(rest)-1] == "[command]" {
		return
	}
	h.runnable = true
	if len(h.args) > 0 {
		return // the first runnable line says it
	}
	for _, tok := range strings.Fields(cobraFlagGroup.ReplaceAllString(strings.Join(rest, " "), " ")) {
		optional := strings.HasPrefix(tok, "[")
		variadic := strings.Contains(tok, "...") || strings.Contains(tok, "…")
		m := cobraUsageArg.FindStringSubmatch(usageNoise.Replace(tok))
		if m == nil {
			continue
		}
		p := Param{Name: paramName(strings.ReplaceAll(strings.ToLower(m[1]+m[2]), "-", "_")), Kind: "argument",
			Type: "str", Required: !optional, Nargs: 1}
		if variadic {
			p.Nargs = -1
			if n := len(h.args); n > 0 && h.args[n-1].Name == p.Name {
				h.args[n-1].Nargs = -1 // "ID [ID...]": one or more
				continue
			}
		}
		h.args = append(h.args, p)
	}
}

// pflagTypes are the type names pflag prints after a flag (its Value's
// Type, a few renamed) as command-tree types.
var pflagTypes = map[string]struct {
	typ      string
	multiple bool
}{
	"string": {"str", false}, "int": {"int", false}, "int8": {"int", false}, "int16": {"int", false},
	"int32": {"int", false}, "int64": {"int", false}, "uint": {"int", false}, "uint8": {"int", false},
	"uint16": {"int", false}, "uint32": {"int", false}, "uint64": {"int", false}, "count": {"int", false},
	"float": {"float", false}, "float32": {"float", false}, "float64": {"float", false},
	"duration": {"duration", false},
	"strings":  {"str", true}, "stringArray": {"str", true}, "ints": {"int", true}, "uints": {"int", true},
	"int32Slice": {"int", true}, "int64Slice": {"int", true}, "float32Slice": {"float", true},
	"float64Slice": {"float", true}, "durationSlice": {"duration", true},
}

var (
	cobraDefaultQuoted = regexp.MustCompile(`\s*\(default ("(?:[^"\\]|\\.)*")\)$`)
	cobraDefault       = regexp.MustCompile(`\s*\(default ([^()]*)\)$`)
	cobraDeprecated    = regexp.MustCompile(`\s*\(DEPRECATED: .*\)$`)
)

// parseCobraFlag reads one line of pflag's flag usages:
//
//	-t, --tag stringArray        a tag (repeatable)
//	    --pin[=true|false]       pin it (default true)
//	    --due duration           remind after this long (default 1h0m0s)
//
// ok is false for a line that is no flag; p is nil for one left out
// (--help, or deprecated).
func parseCobraFlag(line string) (p *Param, ok bool) {
	s := strings.TrimLeft(line, " ")
	if !strings.HasPrefix(s, "-") {
		return nil, false
	}
	var short string
	if len(s) > 4 && s[0] == '-' && s[1] != '-' && s[2:4] == ", " {
		short, s = s[:2], s[4:]
	}
	if !strings.HasPrefix(s, "--") {
		return nil, false
	}
	head, usage, _ := strings.Cut(s, "  ")
	usage = strings.TrimSpace(usage)
	name, rest, _ := strings.Cut(head[2:], " ")
	isBool := false
	if n, _, found := strings.Cut(name, "[=true|false]"); found {
		name, isBool = n, true
	} else if n, _, found := strings.Cut(name, "[="); found {
		name = n // an optional value: the usage still names the type
	}
	varname, _, _ := strings.Cut(rest, "[=")
	varname = strings.TrimSpace(varname)
	if varname == "" {
		isBool = true // pflag before 1.1 prints a bool flag with no type
	}
	if name == "help" {
		return nil, true
	}
	if cobraDeprecated.MatchString(usage) {
		return nil, true
	}
	p = &Param{Name: paramName(strings.ReplaceAll(name, "-", "_")), Kind: "option", Opts: []string{"--" + name}, Nargs: 1}
	if short != "" {
		p.Opts = append(p.Opts, short)
	}
	var dflt string
	if m := cobraDefaultQuoted.FindStringSubmatch(usage); m != nil {
		dflt, _ = strconv.Unquote(m[1])
		usage = strings.TrimSpace(usage[:len(usage)-len(m[0])])
	} else if m := cobraDefault.FindStringSubmatch(usage); m != nil && unquotedDefault(varname, isBool) {
		dflt = m[1]
		usage = strings.TrimSpace(usage[:len(usage)-len(m[0])])
	}
	p.Help = usage
	switch t, known := pflagTypes[varname]; {
	case isBool && dflt == "true":
		// On by default: only --x=false turns it off, so it takes a value.
		p.Type, p.Default = "boolean", "true"
		return p, true
	case isBool:
		p.Type, p.IsFlag = "boolean", true
		return p, true
	case known:
		p.Type, p.Multiple = t.typ, t.multiple
		if varname == "count" {
			zero := json.Number("0")
			p.Min = &zero
		}
	default:
		p.Type = "str" // a named placeholder (`FILE`), or a type pflag has no name for here
	}
	if dflt != "" {
		p.Default = cobraValue(dflt, p)
	}
	return p, true
}

// unquotedDefault: pflag prints the flag's default unquoted (every type
// but a single string, whose default it quotes) — so a usage text of a
// string flag that ends in "(default from X)" is the author's words.
func unquotedDefault(varname string, isBool bool) bool {
	t, known := pflagTypes[varname]
	return isBool || known && (t.typ != "str" || t.multiple)
}

// cobraValue is a default as pflag prints it, as a tree's JSON value.
func cobraValue(s string, p *Param) any {
	if p.Multiple {
		r := csv.NewReader(strings.NewReader(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")))
		rec, err := r.Read()
		if err != nil {
			return nil
		}
		out := make([]any, len(rec))
		for i, e := range rec {
			out[i] = scalarValue(e, p.Type)
		}
		return out
	}
	return scalarValue(s, p.Type)
}

func scalarValue(s, typ string) any {
	if typ == "int" || typ == "float" {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return json.Number(s)
		}
		return nil
	}
	return s
}
