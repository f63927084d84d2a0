package generate

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
)

// Limits of a Cobra walk: a help that lists itself must not walk forever.
const (
	cobraMaxDepth    = 16
	cobraMaxCommands = 2000
)

// cobraCompletionShort is what Cobra's own completion command says of
// itself: a command for a shell, not for a model.
const cobraCompletionShort = "Generate the autocompletion script for the specified shell"

// WalkCobra walks any Cobra CLI from outside, without a change to it. The
// command tree comes from Cobra's completion protocol (`PROG __complete
// …`, see cobra_complete.go): hidden commands are not listed and aliases
// are one command. What each command takes comes from its help page (`PROG
// --help`, `PROG help SUB…`), whatever its template (cobra_help.go): the
// flags with their types, defaults and shorthands, the positional
// arguments from the usage line; the completion says which flags exist,
// including those a template does not show, and which are required. What
// could not be read is said per command (Command.Unread). A program that
// does not speak the protocol is walked through its help pages alone.
//
// The root's flags that its commands inherit are the CLI's globals; a flag
// inherited from a group below the root is the verb's own. A root without
// commands is the CLI's one verb. Every run of the program is a supervised
// step (step.go).
func WalkCobra(ctx context.Context, program string) ([]Command, error) {
	path, err := lookProgram(program)
	if err != nil {
		return nil, err
	}
	file := strings.TrimSuffix(filepath.Base(path), ".exe")
	w := &cobraWalker{ctx: ctx, program: path, name: file, rootFlags: map[string]helpFlag{},
		persistent: map[string]bool{}, inherited: map[string]bool{}}
	root, err := w.page(nil)
	if err != nil {
		return nil, err
	}
	if len(root.usage) == 0 {
		return nil, fmt.Errorf("%s --help printed no usage (a \"Usage:\" or \"USAGE\" section): is %s a Cobra CLI? "+
			"For a Click or Typer CLI give --from click:%s; for any other, write its command tree and give --from tree:FILE", file, file, program)
	}
	u := root.usageFor([]string{w.name})
	if !u.group && len(root.commands) == 0 {
		// A single-command CLI: the root is the one verb; Cobra's --version
		// is its own, like --help.
		if !u.runnable {
			return nil, fmt.Errorf("%s --help shows neither a command to run nor commands: nothing to walk", file)
		}
		c := w.verb(w.gather(nil, "", root, u.rest))
		c.Unread = append(w.unread, c.Unread...)
		c.Program = w.name
		c.Params = slices.DeleteFunc(c.Params, func(p Param) bool { return p.Name == "version" && p.IsFlag })
		return []Command{c}, nil
	}
	children := w.children(nil, root)
	w.readRootFlags(root)
	if err := w.walk(children); err != nil {
		return nil, err
	}
	tree := []Command{{}} // the root, below
	for _, v := range w.verbs {
		tree = append(tree, w.verb(v))
	}
	w.settleAliases()
	slices.Sort(w.unread)
	rootEntry := Command{Path: []string{}, Group: true, Program: w.name, Help: root.description, Unread: w.unread}
	for _, name := range w.rootOrder {
		if w.inherited[name] {
			rootEntry.Params = append(rootEntry.Params, w.rootFlags[name].param)
			if u := w.rootFlags[name].unread; u != "" {
				rootEntry.Unread = append(rootEntry.Unread, u)
			}
		}
	}
	tree[0] = rootEntry
	return tree, nil
}

// walkParallel is how many steps of a walk run at once: each is a process
// of the CLI, and a CLI of 300 commands takes 600 steps.
const walkParallel = 8

type cobraWalker struct {
	ctx     context.Context
	program string
	// name is what the CLI calls itself in its usage lines (its root's
	// name, which need not be its file's).
	name string
	// speaks: the program answers the completion protocol; asked says
	// whether that was found out yet (at the root, before the walk).
	speaks, asked bool
	// rootFlags are the root's flags (rootOrder their order), from its
	// help page, its page of global options and its completion; set
	// before the walk.
	rootFlags map[string]helpFlag
	rootOrder []string

	// What the walk found, level by level, written under mu.
	mu sync.Mutex
	// persistent are the root's flags its own commands inherit (found on
	// the first level); inherited those of them a verb takes: the CLI's
	// globals, which may come before the verb.
	persistent, inherited map[string]bool
	// verbs are the verbs gathered, in the order the levels listed them.
	verbs []*cobraVerb
	// walked are the commands walked, groups too; aliases the listed
	// commands that are another's.
	walked  [][]string
	aliases []cobraAlias
	// unread is what could not be read of the CLI as a whole.
	unread []string
}

// persists records that a command of the first level inherits the flag
// name: if the root has it, it is the root's persistent flag.
func (w *cobraWalker) persists(name string) {
	if _, ok := w.rootFlags[name]; ok {
		w.mu.Lock()
		w.persistent[name] = true
		w.mu.Unlock()
	}
}

// cobraAlias is a listed command whose help page is another's.
type cobraAlias struct{ path, target []string }

func (w *cobraWalker) note(format string, a ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.unread = append(w.unread, fmt.Sprintf(format, a...))
}

// cobraNode is one listed command on its way into the tree.
type cobraNode struct {
	path  []string
	short string
	// verb is the command as a verb, if it runs; children the commands
	// under it.
	verb     *cobraVerb
	children []listed
	walked   bool
}

// walk walks the commands listed under the root, a level at a time, the
// commands of a level at once (walkParallel steps at a time); the tree is
// in the order the levels listed them.
func (w *cobraWalker) walk(top []listed) error {
	var level []*cobraNode
	for _, l := range top {
		level = append(level, &cobraNode{path: []string{l.name}, short: l.short})
	}
	count := 0
	for depth := 1; len(level) > 0; depth++ {
		if count += len(level); count > cobraMaxCommands || depth > cobraMaxDepth {
			return fmt.Errorf("%s: more than %d commands, or deeper than %d: not walking further", w.name, cobraMaxCommands, cobraMaxDepth)
		}
		sem := make(chan struct{}, walkParallel)
		var wg sync.WaitGroup
		for _, n := range level {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				w.node(n)
			}()
		}
		wg.Wait()
		if err := w.ctx.Err(); err != nil {
			return fmt.Errorf("walking %s: %w", w.name, cancelCause(w.ctx))
		}
		var next []*cobraNode
		for _, n := range level {
			if n.walked {
				w.walked = append(w.walked, n.path)
			}
			if n.verb != nil {
				w.verbs = append(w.verbs, n.verb)
			}
			for _, l := range n.children {
				next = append(next, &cobraNode{path: append(slices.Clone(n.path), l.name), short: l.short})
			}
		}
		level = next
	}
	return nil
}

// node reads one listed command: its help page, whether it is a verb, a
// group or both, an alias, or no command at all.
func (w *cobraWalker) node(n *cobraNode) {
	h, err := w.page(n.path)
	if err != nil {
		w.note("could not read %q, left out: %v", strings.Join(n.path, " "), err)
		return
	}
	if len(h.usage) == 0 {
		w.note("could not read %q, left out: its help page shows no usage line", strings.Join(n.path, " "))
		return
	}
	full := append([]string{w.name}, n.path...)
	u := h.usageFor(full)
	if names := u.names; !slices.Equal(names, full) {
		if len(names) < len(full) && slices.Equal(names, full[:len(names)]) {
			// `help GROUP WORD` shows GROUP's page: WORD is one of the
			// values the group completes, not a command.
			w.note("%q is left out: completion lists it, but it is no command", strings.Join(n.path, " "))
			return
		}
		w.mu.Lock()
		w.aliases = append(w.aliases, cobraAlias{path: n.path, target: names[1:]})
		w.mu.Unlock()
		return
	}
	n.walked = true
	if len(n.path) == 1 {
		for _, f := range h.inherited {
			w.persists(longName(f.param))
		}
	}
	if u.runnable {
		n.verb = w.gather(n.path, n.short, h, u.rest)
	}
	if u.group || len(h.commands) > 0 {
		n.children = w.children(n.path, h)
	}
}

// page runs `PROG help PATH…` and reads the page. The root's is `PROG
// --help`: Cobra adds its help command only to a CLI with subcommands, and
// `help` would be the argument of a single-command CLI's verb — run, not
// described. `help` (not `PATH… --help`) because it never runs the
// command, even one that parses no flags of its own.
func (w *cobraWalker) page(path []string) (*helpPage, error) {
	st := step{program: w.program, args: append([]string{"help"}, path...)}
	if len(path) == 0 {
		st.args = []string{"--help"}
	}
	out, err := st.run(w.ctx)
	if err != nil {
		return nil, err
	}
	if out.exitCode != 0 {
		return nil, fmt.Errorf("%s: exit status %d%s", st.what(), out.exitCode, quoteErr(out.stderr))
	}
	text := out.stdout
	if strings.TrimSpace(text) == "" {
		text = out.stderr
	}
	h := readHelp(text, w.name)
	if len(path) == 0 && len(h.usage) > 0 {
		// The name the CLI calls itself by, which its usage lines start
		// with, is its root's — not always its file's.
		if f := strings.Fields(h.usage[0]); len(f) > 0 && f[0] != w.name {
			w.name = f[0]
			h = readHelp(text, w.name)
		}
	}
	return h, nil
}

// complete asks the completion protocol: `PROG __complete WORDS…`. ok is
// false when the program does not speak it, or could not complete.
func (w *cobraWalker) complete(words ...string) (c completion, ok bool) {
	if w.asked && !w.speaks {
		return c, false
	}
	st := step{program: w.program, args: append([]string{"__complete"}, words...)}
	out, err := st.run(w.ctx)
	if err == nil && out.exitCode == 0 {
		c, ok = readCompletion(out.stdout)
	}
	if !w.asked {
		w.asked, w.speaks = true, ok
		if !ok {
			w.note("could not read the commands from Cobra's completion protocol: %s does not answer %s: its commands and flags are read from its help pages alone, where a hidden command looks like any other", w.name, st.what())
		}
	}
	return c, ok && c.directive&compDirectiveError == 0
}

// children are the commands under path: those completion lists, else those
// its help page lists; Cobra's help command and its own completion command
// (scripts for a shell) left out.
func (w *cobraWalker) children(path []string, h *helpPage) []listed {
	all := h.commands
	if c, ok := w.complete(append(slices.Clone(path), "")...); ok {
		all = c.commands()
	} else if w.speaks {
		w.note("could not read the commands of %q from completion: they are read from its help page", strings.Join(path, " "))
	}
	var out []listed
	for _, l := range all {
		switch {
		case l.name == "help":
		case l.name == "completion" && l.short == cobraCompletionShort:
			w.note("Cobra's own completion command (a script for a shell) is left out")
		default:
			out = append(out, l)
		}
	}
	return out
}

// readRootFlags gathers the root's flags: those its help page shows, those
// of its page of global options (kubectl's `kubectl options`), and those
// its completion lists, which no page may show.
func (w *cobraWalker) readRootFlags(root *helpPage) {
	add := func(f helpFlag) {
		name := strings.TrimPrefix(f.param.Opts[0], "--")
		if _, seen := w.rootFlags[name]; !seen {
			w.rootFlags[name] = f
			w.rootOrder = append(w.rootOrder, name)
		}
	}
	for _, f := range append(slices.Clone(root.local), root.inherited...) {
		add(f)
	}
	if g := root.globalsPage; len(g) > 1 && g[0] == w.name {
		st := step{program: w.program, args: g[1:]}
		out, err := st.run(w.ctx)
		switch {
		case err != nil:
			w.note("could not read the global options (%s): %v", st.what(), err)
		case out.exitCode != 0:
			w.note("could not read the global options (%s): exit status %d", st.what(), out.exitCode)
		default:
			for _, f := range flagsAnywhere(out.stdout) {
				add(f)
			}
		}
	}
	if c, ok := w.complete("-"); ok {
		for _, f := range c.flags() {
			if f.long != "help" && f.long != "version" {
				add(compOnly(f))
			}
		}
	}
}

// compOnly is a flag completion lists and no help page shows: its name,
// shorthand and usage are known, its type is not.
func compOnly(f compFlag) helpFlag {
	p := Param{Name: paramName(strings.ReplaceAll(f.long, "-", "_")), Kind: "option", Opts: []string{"--" + f.long},
		Type: "str", Nargs: 1, Help: f.usage}
	if f.short != "" {
		p.Opts = append(p.Opts, f.short)
	}
	return helpFlag{param: p, listedOnly: true, unread: fmt.Sprintf("--%s: could not read its type: no help page shows it (completion lists it): taken as a string", f.long)}
}

// cobraVerb is what a walk gathers of a verb; [cobraWalker.verb] makes it
// a Command once the root's persistent flags are known.
type cobraVerb struct {
	path  []string
	short string
	page  *helpPage
	// rest are the usage line's words after the command's.
	rest []string
	// listed are the flags completion lists (--help aside).
	listed []compFlag
}

// gather reads what a verb takes beyond its page: the flags completion
// lists. A command of the first level tells which of the root's flags are
// persistent: those it inherits.
func (w *cobraWalker) gather(path []string, short string, h *helpPage, rest []string) *cobraVerb {
	v := &cobraVerb{path: slices.Clone(path), short: short, page: h, rest: rest}
	if v.path == nil {
		v.path = []string{}
	}
	if comp, ok := w.complete(append(slices.Clone(path), "-")...); ok {
		for _, f := range comp.flags() {
			if f.long != "help" {
				v.listed = append(v.listed, f)
			}
		}
	}
	if len(path) == 1 {
		local := map[string]bool{}
		for _, f := range h.local {
			local[longName(f.param)] = true
		}
		for _, f := range v.listed {
			if !local[f.long] {
				w.persists(f.long)
			}
		}
	}
	return v
}

// verb is a gathered verb as a command of the tree: the flags its help page
// shows and those completion lists besides, its arguments from its usage
// line, and what could not be read. A flag of the root's that is
// persistent is a global: not the verb's own, even where the verb shows it
// as its own (a local flag of the same name shadows it, and Cobra takes
// it before the verb or after alike); a flag inherited from a group below
// the root is the verb's own.
func (w *cobraWalker) verb(v *cobraVerb) Command {
	c := Command{Path: v.path, ShortHelp: v.short, Help: v.page.description}
	required := requiredFlags(v.page, v.listed)
	global := func(f helpFlag) bool {
		name := longName(f.param)
		root, ok := w.rootFlags[name]
		if len(v.path) == 0 || !w.persistent[name] || !ok || !f.listedOnly && !root.listedOnly && root.param.IsFlag != f.param.IsFlag {
			return false // a flag of the verb's own that takes a value where the root's does not
		}
		w.inherited[name] = true
		return true
	}
	shown := map[string]bool{}
	add := func(f helpFlag) {
		name := longName(f.param)
		if shown[name] {
			return
		}
		shown[name] = true
		if global(f) {
			return
		}
		p := f.param
		p.Required = required[name]
		c.Params = append(c.Params, p)
		if f.unread != "" {
			c.Unread = append(c.Unread, f.unread)
		}
	}
	for _, f := range append(slices.Clone(v.page.local), v.page.inherited...) {
		add(f)
	}
	for _, f := range v.listed {
		add(compOnly(f))
	}
	valued := map[string]bool{}
	for _, p := range c.Params {
		if !p.IsFlag {
			for _, o := range p.Opts {
				valued[o] = true
			}
		}
	}
	args, unread := usageArgs(v.rest, valued)
	c.Params = append(c.Params, args...)
	if unread != "" {
		c.Unread = append(c.Unread, unread)
	}
	return c
}

// longName is a flag's long name ("--dry-run" is dry-run).
func longName(p Param) string { return strings.TrimPrefix(p.Opts[0], "--") }

// requiredFlags: completion lists only the flags a command requires when
// it requires any — so a list that leaves out a flag the page shows, and
// holds only flags the page shows, is the required ones.
func requiredFlags(h *helpPage, listed []compFlag) map[string]bool {
	if len(listed) == 0 {
		return nil
	}
	onPage := map[string]bool{}
	for _, f := range append(slices.Clone(h.local), h.inherited...) {
		onPage[strings.TrimPrefix(f.param.Opts[0], "--")] = true
	}
	req := map[string]bool{}
	for _, f := range listed {
		if !onPage[f.long] {
			return nil
		}
		req[f.long] = true
	}
	if len(req) == len(onPage) {
		return nil // every flag listed: none is required
	}
	return req
}

// settleAliases says what became of each alias: one tool with the command
// it stands for, or left out when that command was not walked (an alias
// of a shell command).
func (w *cobraWalker) settleAliases() {
	for _, a := range w.aliases {
		if slices.ContainsFunc(w.walked, func(p []string) bool { return slices.Equal(p, a.target) }) {
			w.note("%q is an alias of %q: one tool", strings.Join(a.path, " "), strings.Join(a.target, " "))
		} else {
			w.note("%q is an alias of %q, which is not one of the commands walked: left out", strings.Join(a.path, " "), strings.Join(a.target, " "))
		}
	}
}

// pflagTypes are the type names pflag prints after a flag (its Value's
// Type, a few renamed) as command-tree types.
var pflagTypes = sync.OnceValue(func() map[string]pflagType {
	return map[string]pflagType{
		"string": {"str", false}, "int": {"int", false}, "int8": {"int", false}, "int16": {"int", false},
		"int32": {"int", false}, "int64": {"int", false}, "uint": {"int", false}, "uint8": {"int", false},
		"uint16": {"int", false}, "uint32": {"int", false}, "uint64": {"int", false}, "count": {"int", false},
		"float": {"float", false}, "float32": {"float", false}, "float64": {"float", false},
		"duration": {"duration", false},
		"strings":  {"str", true}, "stringArray": {"str", true}, "ints": {"int", true}, "uints": {"int", true},
		"int32Slice": {"int", true}, "int64Slice": {"int", true}, "float32Slice": {"float", true},
		"float64Slice": {"float", true}, "durationSlice": {"duration", true},
	}
})

// pflagType is a pflag type name's command-tree type.
type pflagType struct {
	typ      string
	multiple bool
}

var (
	cobraDefaultQuoted = lazyre.New(`\s*\(default ("(?:[^"\\]|\\.)*")\)$`)
	cobraDefault       = lazyre.New(`\s*\(default ([^()]*)\)$`)
	cobraDeprecated    = lazyre.New(`\s*\(DEPRECATED: .*\)$`)
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
	if cobraDeprecated.Get().MatchString(usage) {
		return nil, true
	}
	p = &Param{Name: paramName(strings.ReplaceAll(name, "-", "_")), Kind: "option", Opts: []string{"--" + name}, Nargs: 1}
	if short != "" {
		p.Opts = append(p.Opts, short)
	}
	var dflt string
	if m := cobraDefaultQuoted.Get().FindStringSubmatch(usage); m != nil {
		dflt, _ = strconv.Unquote(m[1])
		usage = strings.TrimSpace(usage[:len(usage)-len(m[0])])
	} else if m := cobraDefault.Get().FindStringSubmatch(usage); m != nil && unquotedDefault(varname, isBool) {
		dflt = m[1]
		usage = strings.TrimSpace(usage[:len(usage)-len(m[0])])
	}
	p.Help = usage
	switch t, known := pflagTypes()[varname]; {
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
	t, known := pflagTypes()[varname]
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
