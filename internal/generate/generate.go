package generate

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
)

// Options are what a generation takes besides the tree.
type Options struct {
	// Program is cli.command: the CLI as the manifest names it. If "", the
	// tree root's program; without either, the overrides must give
	// cli.command.
	Program string
	// Overrides is an overrides file's content (nil: none); OverridesName
	// names it in errors.
	Overrides     []byte
	OverridesName string
	// Facts, if set, are applied to what was generated before the
	// overrides (facts.go).
	Facts *Facts
	// Texts, if set, are the CLI's own help in the languages it speaks,
	// for a tree without help texts (texts.go): titles, descriptions and
	// each tool's cli_help.
	Texts *Texts
	// Core: the manifest holds only the tools of the overrides'
	// surface.core, in its order, and no surface key — the curated core as
	// a manifest of its own.
	Core bool
	// Only: the manifest holds only these tools, in this order, and no
	// surface key (--only; a hand-picked set such as the curated example).
	Only []string
}

// Result is a generated manifest.
type Result struct {
	// Manifest is the manifest's JSON, canonical: the same tree and
	// overrides always give the same bytes.
	Manifest []byte
	// Loaded is Manifest as the server loads it (Warnings name the tools
	// whose hints were guessed).
	Loaded *annotations.Manifest
	// Notes say what the generator left out or changed, for the person
	// running it; they are not in the manifest.
	Notes []string
	// Unread is what a walk could not read of each tool's verb, by tool
	// name (Command.Unread).
	Unread map[string][]string
}

// candidate is one verb of the tree on its way to a tool.
type candidate struct {
	path []string
	name string
	// tool is the manifest's tool object, params apart.
	tool   map[string]any
	params *params
	// leftOut says why the verb is not in the manifest ("" when it is);
	// an override can bring it back unless fixed says why not.
	leftOut string
	fixed   string
	// floor is what the CLI's classification says; nil when it has none.
	floor *annotations.Hints
	notes []string
	// cmd is the verb in the tree; opts names the param each of its
	// options ("--year", "--no-x") and arguments ("TRANSACTION_ID") gives.
	cmd  *Command
	opts map[string]string
	// whole: an overrides entry gave the whole tool (by its command).
	whole bool
}

// unguess takes the hints an override sets off hints_guessed.
func (c *candidate) unguess(set map[string]any) {
	list, _ := c.tool["hints_guessed"].([]any)
	var keep []any
	for _, h := range list {
		if _, ok := set[h.(string)]; !ok {
			keep = append(keep, h)
		}
	}
	if len(keep) == 0 {
		delete(c.tool, "hints_guessed")
	} else {
		c.tool["hints_guessed"] = keep
	}
}

// Generate makes a manifest of every verb of the tree, merges the
// overrides over it, and checks that the result loads.
func Generate(tree []Command, opts Options) (*Result, error) {
	ov, err := parseOverrides(opts.Overrides, opts.OverridesName)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	if opts.Texts != nil {
		tree = opts.Texts.fill(tree, &res.Notes)
	}
	root, program := rootOf(tree, opts.Program)
	cli, globals, output := cliOf(root, program, &res.Notes)
	problems := ov.applyCLI(cli, globals)
	if ps := globals.visible(); len(ps) > 0 {
		cli["params"] = ps
	}
	taken := map[string]bool{}
	for _, p := range globals.visible() {
		taken[p.(map[string]any)["name"].(string)] = true
	}
	cands := candidatesOf(tree, program, output, taken, &res.Notes)
	if len(cands) == 0 {
		return nil, errors.New("the tree has no verbs (only groups, or nothing)")
	}
	res.Notes = append(res.Notes, assignNames(cands)...)
	if opts.Facts != nil {
		name, _ := cli["command"].(string)
		opts.Facts.apply(cands, programName(name), &res.Notes)
	}
	problems = append(problems, ov.applyTools(cands)...)
	if opts.Texts != nil {
		opts.Texts.apply(cands) // after the overrides: a whole tool given by one keeps its verb's help
	}
	if len(problems) > 0 {
		return nil, &OverridesError{File: ov.name, Problems: problems}
	}
	tools := assemble(cands, res)
	if len(tools) == 0 {
		return nil, errors.New("every verb of the tree is left out: nothing to serve")
	}
	top := map[string]any{"version": 1, "cli": cli, "tools": tools}
	mergeInto(top, ov.top)
	if err := narrow(top, opts); err != nil {
		return nil, err
	}
	res.Manifest = Encode(top)
	m, err := annotations.Parse(res.Manifest, "")
	if err != nil {
		return nil, loadError(err, top, opts)
	}
	res.Loaded = m
	return res, nil
}

// rootOf is the tree's root group (nil when the tree has none) and the
// program's name: program when given, else the one the root's entry says.
func rootOf(tree []Command, program string) (*Command, string) {
	var root *Command
	for i := range tree {
		if len(tree[i].Path) == 0 {
			if tree[i].Group {
				root = &tree[i]
			}
			if program == "" {
				program = tree[i].Program
			}
		}
	}
	return root, program
}

// candidatesOf maps every verb of the tree (taken: the global params'
// names); a group is no tool, and what the walk noted of it goes to notes.
func candidatesOf(tree []Command, program, output string, taken map[string]bool, notes *[]string) []*candidate {
	var cands []*candidate
	for i := range tree {
		if tree[i].Group {
			*notes = append(*notes, tree[i].Unread...) // the walk's, of the CLI as a whole
			if len(tree[i].Path) > 0 && len(tree[i].Params) > 0 {
				*notes = append(*notes, fmt.Sprintf("%q: the group's own options are left out (a manifest puts no option between the words of a command)", strings.Join(tree[i].Path, " ")))
			}
			continue
		}
		cands = append(cands, candidateOf(&tree[i], program, output, taken))
	}
	return cands
}

// narrow keeps the tools --core or --only ask for (all when neither).
func narrow(top map[string]any, opts Options) error {
	switch {
	case opts.Core && len(opts.Only) > 0:
		return errors.New("--core and --only: give one")
	case opts.Core:
		return onlyCore(top)
	case len(opts.Only) > 0:
		names := make([]any, len(opts.Only))
		for i, n := range opts.Only {
			names[i] = n
		}
		return onlyTools(top, names, "--only")
	}
	return nil
}

// onlyCore keeps the tools of the manifest's surface.core, in its order
// (a person's: the core is read as a list), and drops the surface key.
func onlyCore(top map[string]any) error {
	surface, _ := top["surface"].(map[string]any)
	core, _ := surface["core"].([]any)
	if len(core) == 0 {
		return errors.New(`--core: the overrides give no surface.core ({"surface": {"core": ["tool", …]}})`)
	}
	return onlyTools(top, core, "--core: surface.core")
}

// onlyTools keeps the tools named, in their order, and drops the surface
// key; what names the list (for errors) is by.
func onlyTools(top map[string]any, names []any, by string) error {
	byName := map[any]any{}
	for _, t := range top["tools"].([]any) {
		byName[t.(map[string]any)["name"]] = t
	}
	var keep []any
	var missing []string
	for _, n := range names {
		if t, ok := byName[n]; ok {
			keep = append(keep, t)
		} else {
			missing = append(missing, fmt.Sprint(n))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s names tools the manifest does not have: %s", by, strings.Join(missing, ", "))
	}
	top["tools"] = keep
	delete(top, "surface")
	return nil
}

// assemble lists the tools that are not left out, sorted by name, with
// their params; the notes say what was left out, and which tools the
// overrides made weaker than the CLI's classification.
func assemble(cands []*candidate, res *Result) []any {
	var tools []any
	leftOut := map[string][]string{}
	sort.Slice(cands, func(i, j int) bool { return cands[i].name < cands[j].name })
	for _, c := range cands {
		if c.leftOut != "" {
			leftOut[c.leftOut] = append(leftOut[c.leftOut], c.name)
			continue
		}
		t := c.tool
		t["name"] = c.name
		if ps := c.params.visible(); len(ps) > 0 {
			t["params"] = ps
		} else {
			delete(t, "params")
		}
		tools = append(tools, t)
		res.Notes = append(res.Notes, c.notes...)
		if len(c.cmd.Unread) > 0 {
			if res.Unread == nil {
				res.Unread = map[string][]string{}
			}
			res.Unread[c.name] = c.cmd.Unread
		}
		if c.floor != nil {
			if w := weaker(hintsOf(t["annotations"]), *c.floor); len(w) > 0 {
				res.Notes = append(res.Notes, fmt.Sprintf("%s: the overrides make %s weaker than the CLI's own classification", c.name, strings.Join(w, ", ")))
			}
		}
	}
	for _, why := range slices.Sorted(maps.Keys(leftOut)) {
		res.Notes = append(res.Notes, fmt.Sprintf("left out (%s): %s", why, strings.Join(leftOut[why], ", ")))
	}
	return tools
}

// cliOf makes the manifest's cli from the tree's root: the program, and
// its global options — those that take a value become cli.params
// (rendered before the verb, where such a CLI wants them); one choosing
// the output format and offering json is set to json (cli.args) and every
// tool's output is json; global flags (--verbose, --debug) are hidden
// params an override can bring back.
func cliOf(root *Command, program string, notes *[]string) (cli map[string]any, globals *params, output string) {
	cli = map[string]any{}
	globals = &params{hidden: map[string]bool{}}
	if program != "" {
		cli["command"] = program
	}
	if root == nil {
		return cli, globals, ""
	}
	taken := map[string]bool{}
	var hiddenFlags []string
	for _, p := range root.Params {
		if p.Kind != "option" {
			*notes = append(*notes, fmt.Sprintf("the root's argument %s is left out (it would come before every verb)", p.Name))
			continue
		}
		if f := formatOpt(p); f != "" && output == "" {
			cli["args"] = []any{f, "json"}
			output = annotations.OutputJSON
			continue
		}
		mp := mapParam(p)
		if mp.note != "" {
			*notes = append(*notes, "global "+mp.note)
		}
		if mp.p == nil {
			continue
		}
		name := uniqueParamName(mp.p["name"].(string), p, taken)
		mp.p["name"] = name
		globals.list = append(globals.list, mp.p)
		if mp.hidden || mp.p["type"] == "boolean" {
			globals.hidden[name] = true
			if !mp.hidden {
				hiddenFlags = append(hiddenFlags, mp.p["flag"].(string))
			}
		}
	}
	if len(hiddenFlags) > 0 {
		*notes = append(*notes, fmt.Sprintf("global flags left out: %s (bring one back with {\"cli\": {\"params\": [{\"name\": …, \"hidden\": false}]}} in the overrides)", strings.Join(hiddenFlags, ", ")))
	}
	return cli, globals, output
}

// formatOpt is the option's flag when it chooses an output format and
// offers json.
func formatOpt(p Param) string {
	for _, f := range formatNames {
		if slices.Contains(p.Opts, f) && slices.Contains(p.Choices, "json") {
			return f
		}
	}
	return ""
}

// uniqueParamName is name, unless taken (by another param of the tool, or
// a global one): then a name from one of the option's long names, then
// name_2, name_3, …
func uniqueParamName(name string, p Param, taken map[string]bool) string {
	pick := name
	if taken[pick] {
		for _, o := range p.Opts {
			if n := optName(o); n != "" && !taken[n] {
				pick = n
				break
			}
		}
	}
	for k := 2; taken[pick]; k++ {
		pick = name + "_" + strconv.Itoa(k)
	}
	taken[pick] = true
	return pick
}

// candidateOf maps one verb: its texts, hints, params and confirmation.
// The one verb of a single-command CLI (an empty path) is named after the
// program.
func candidateOf(cmd *Command, program, output string, globalNames map[string]bool) *candidate {
	c := &candidate{path: cmd.Path, params: &params{hidden: map[string]bool{}}, cmd: cmd, opts: map[string]string{}}
	if len(cmd.Path) == 0 {
		c.path = []string{programName(program)}
	}
	verb := strings.Join(c.path, " ")
	for _, u := range cmd.Unread {
		c.notes = append(c.notes, verb+": "+u)
	}
	hints, guessed := hintsFor(cmd.Classification)
	if cmd.Classification != nil {
		f := classified(cmd.Classification)
		c.floor = &f
	}
	confirm := c.mapParams(verb, globalNames)
	if confirm != "" {
		if !hints.Destructive {
			c.notes = append(c.notes, fmt.Sprintf("%s: destructive, because the CLI asks for its own %s: a person says yes (confirm.flag)", verb, confirm))
		}
		hints.ReadOnly, hints.Destructive, hints.Idempotent = false, true, false
		// The CLI's own "yes" is its word that the verb needs a person's.
		guessed = slices.DeleteFunc(slices.Clone(guessed), func(h string) bool { return h == hintDestructive })
	}
	if c.leftOut == "" {
		c.leftOut = leftOutByTheCLI(cmd)
	}
	title, description := texts(cmd, verb)
	c.tool = map[string]any{
		"title":       title,
		"description": description,
		"command":     stringsAny(cmd.Path),
		"annotations": hintsJSON(hints),
	}
	if len(guessed) > 0 {
		c.tool["hints_guessed"] = stringsAny(guessed)
	}
	if confirm != "" {
		c.tool["confirm"] = map[string]any{"flag": confirm}
	}
	if output != "" {
		c.tool["output"] = output
	}
	return c
}

// mapParams maps the verb's params into c (globalNames: the global params',
// which its own may not take), and returns the option that is the CLI's
// own confirmation, if any: it is no param, the gate asks instead.
func (c *candidate) mapParams(verb string, globalNames map[string]bool) (confirm string) {
	taken := map[string]bool{}
	for n := range globalNames {
		taken[n] = true
	}
	positional := []map[string]any{}
	for _, p := range c.cmd.Params {
		mp := mapParam(p)
		if mp.note != "" {
			c.notes = append(c.notes, verb+": "+mp.note)
		}
		if mp.confirm != "" && confirm == "" {
			confirm = mp.confirm
			continue
		}
		if mp.p == nil {
			continue
		}
		name := mp.p["name"].(string)
		if unique := uniqueParamName(name, p, taken); unique != name {
			mp.p["name"] = unique
			c.notes = append(c.notes, fmt.Sprintf("%s: param %s is called %s (the name is taken, by a global param or another of its own)", verb, name, unique))
		}
		c.params.list = append(c.params.list, mp.p)
		c.nameOpts(p, mp.p["name"].(string))
		if mp.hidden {
			c.params.hidden[mp.p["name"].(string)] = true
		} else if mp.p["positional"] == true {
			positional = append(positional, mp.p)
		}
	}
	for i, p := range positional {
		if p["type"] == "array" && i != len(positional)-1 {
			c.fixed = "an argument taking any number of values comes before another: a manifest cannot say where one ends"
			c.leftOut = "cannot be said in a manifest"
		}
	}
	return confirm
}

// leftOutByTheCLI is why the CLI itself keeps cmd from a model ("" when
// it does not).
func leftOutByTheCLI(cmd *Command) string {
	switch {
	case cmd.Classification != nil && cmd.Classification.LiveWrite:
		return "live_write: the CLI's own MCP never exposes it"
	case cmd.Hidden:
		return "hidden by the CLI"
	case cmd.Deprecated:
		return "deprecated by the CLI"
	}
	return ""
}

// nameOpts records which param the tree's option or argument p gives: by
// each of its options, and an argument by its name as help writes it
// (TRANSACTION_ID), which is how facts name them.
func (c *candidate) nameOpts(p Param, name string) {
	if p.Kind == "argument" {
		c.opts[strings.ToUpper(p.Name)] = name
		return
	}
	for _, o := range append(slices.Clone(p.Opts), p.Secondary...) {
		c.opts[o] = name
	}
}

// texts are a verb's title and description: from its help where the tree
// has it, else plain words that say which command it runs.
func texts(cmd *Command, verb string) (title, description string) {
	title = summary(cmd.ShortHelp)
	if title == "" {
		title = summary(cmd.Help)
	}
	description = cleanHelp(cmd.Help)
	if description == "" {
		description = cleanHelp(cmd.ShortHelp)
	}
	if title == "" {
		title = verb
	}
	if description == "" {
		description = fmt.Sprintf("Runs the CLI's `%s` command.", verb)
	}
	if cmd.Deprecated {
		description = "Deprecated by the CLI. " + description
	}
	return title, description
}

// programName is the name a program goes by: its file's, without a
// Windows extension; "cmd" when unknown.
func programName(program string) string {
	base := filepath.Base(strings.ReplaceAll(program, `\`, "/"))
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".exe"), ".py")
	if base == "" || base == "." || base == "/" {
		return "cmd"
	}
	return base
}

func stringsAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

var toolIndexRE = lazyre.New(`^tools\[(\d+)\]`)

// loadError is a generated manifest that does not load, said so that a
// person can act on it: each problem names its tool, and a missing
// cli.command says how to give one.
func loadError(err error, top map[string]any, opts Options) error {
	var le *annotations.Error
	if !errors.As(err, &le) {
		return err
	}
	tools, _ := top["tools"].([]any)
	var lines []string
	for _, p := range le.Problems {
		s := p.String()
		if m := toolIndexRE.Get().FindStringSubmatch(p.Field); m != nil && p.Tool == "" {
			if i, _ := strconv.Atoi(m[1]); i < len(tools) {
				s = fmt.Sprintf("tool %q: %s", tools[i].(map[string]any)["name"], s)
			}
		}
		if p.Field == "cli.command" {
			s += ` — the tree does not name the program: pass it (click:/cobra: do), or put {"cli": {"command": "NAME"}} in the overrides`
		}
		lines = append(lines, s)
	}
	by := "the generated manifest"
	if opts.Overrides != nil {
		by += " (with " + nameOr(opts.OverridesName, "the overrides") + ")"
	}
	return fmt.Errorf("%s does not load:\n  %s", by, strings.Join(lines, "\n  "))
}

func nameOr(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}
