package annotations

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
)

// Warm is cli.warm: start the calls of a Python CLI from a template process
// that already imported it (docs/warm-start.md, internal/warm).
type Warm struct {
	// Entry is the function a call runs, "package.module:function" (the
	// console script's entry point).
	Entry string
	// Interpreter is the Python that runs the template; empty means the
	// one on the CLI script's #! line.
	Interpreter string
	// Preload is "click" (walk the Click or Typer command tree, so lazy
	// groups are imported once) or "" (import the entry point only).
	Preload string
	// Modules are what the template loads besides, before its first fork,
	// by the command path of the verbs that load them ("app ledger list":
	// the words of a tool's command) or AllVerbs: "module" is imported,
	// "module:function" imported and called once, after every module is —
	// one-time set-up a verb does, such as loading a registry. cli.warm.preload
	// names them: a list (every verb's) or an object of lists by command
	// path, in which "click" walks the tree as the string does.
	Modules map[string][]string
	// Reset are "module:function" hooks each call runs before the entry
	// point, to drop what the template cached (settings read from the
	// environment).
	Reset []string
	// Warmup are argvs (after cli.args) run once in the template, their
	// output discarded, so what their first run loads is loaded.
	Warmup [][]string
	// Verify are argvs run cold and warm whenever a template starts; their
	// stdout must be byte-identical, or warm start is off.
	Verify [][]string
	// Tiers are the tiers whose calls start warm. If empty, read and
	// mutate (a LIVE call starts cold unless listed).
	Tiers []Tier
	// MaxCalls is how many calls one template serves before a fresh one
	// replaces it. If zero, 1000.
	MaxCalls int
}

// PreloadClick walks the Click/Typer command tree in the template.
const PreloadClick = "click"

// AllVerbs is the key of cli.warm.preload's modules that every verb loads.
const AllVerbs = "*"

// PreloadList is every module of Modules once, in the order the template
// loads them: every verb's first, then each command path's in the order of
// the paths (so the same manifest always preloads the same way).
func (w *Warm) PreloadList() []string {
	paths := make([]string, 0, len(w.Modules))
	for p := range w.Modules {
		if p != AllVerbs {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var out []string
	seen := map[string]bool{}
	for _, p := range append([]string{AllVerbs}, paths...) {
		for _, m := range w.Modules[p] {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// TiersOrDefault is Tiers, or read and mutate when none are listed.
func (w *Warm) TiersOrDefault() []Tier {
	if len(w.Tiers) == 0 {
		return []Tier{Read, Mutate}
	}
	return w.Tiers
}

var hookRE = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// warm parses cli.warm.
func (p *parser) warm(raw any) *Warm {
	obj := p.object(raw, "cli.warm", "python", "interpreter", "preload", "reset", "warmup", "verify", "tiers", "max_calls")
	if obj == nil {
		return nil
	}
	w := &Warm{}
	if p.require(obj, "cli.warm", "python", &w.Entry, "a string", ` ("package.module:function", the console script's entry point)`) && !hookRE.Get().MatchString(w.Entry) {
		p.fail("cli.warm.python", "%q is not \"package.module:function\"", w.Entry)
	}
	p.decode(obj, "cli.warm", "interpreter", &w.Interpreter, "a string")
	if raw, ok := obj["preload"]; ok {
		p.preload(raw, w)
	}
	p.decode(obj, "cli.warm", "reset", &w.Reset, "a list of \"module:function\"")
	for i, h := range w.Reset {
		if !hookRE.Get().MatchString(h) {
			p.fail(fmt.Sprintf("cli.warm.reset[%d]", i), "%q is not \"module:function\"", h)
		}
	}
	p.decode(obj, "cli.warm", "warmup", &w.Warmup, "a list of argument lists")
	p.decode(obj, "cli.warm", "verify", &w.Verify, "a list of argument lists")
	var tiers []string
	p.decode(obj, "cli.warm", "tiers", &tiers, "a list of tiers")
	for i, t := range tiers {
		tier := Tier(t)
		if !slices.Contains([]Tier{Read, Mutate, Live}, tier) {
			p.fail(fmt.Sprintf("cli.warm.tiers[%d]", i), "%q: must be read, mutate or live", t)
			continue
		}
		w.Tiers = append(w.Tiers, tier)
	}
	if p.decode(obj, "cli.warm", "max_calls", &w.MaxCalls, "a whole number") && w.MaxCalls < 1 {
		p.fail("cli.warm.max_calls", "%d: must be at least 1", w.MaxCalls)
	}
	return w
}

var (
	moduleRE = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(:[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*)?$`)
	pathRE   = lazyre.New(`^[^\s]+( [^\s]+)*$`)
)

// preload parses cli.warm.preload: "click" or "none"; a list of modules
// every verb loads ("click" among them walks the tree); or an object of
// such lists by command path, AllVerbs for every verb's.
func (p *parser) preload(raw any, w *Warm) {
	const field = "cli.warm.preload"
	switch v := raw.(type) {
	case string:
		if v != PreloadClick && v != "none" {
			p.fail(field, "%q: must be %q (walk the Click or Typer tree), \"none\", a list of modules or an object of lists by command path", v, PreloadClick)
		} else if v == PreloadClick {
			w.Preload = PreloadClick
		}
	case []any:
		p.preloadList(v, field, AllVerbs, w)
	case map[string]any:
		for path, list := range v {
			f := fmt.Sprintf("%s[%q]", field, path)
			if path != AllVerbs && !pathRE.Get().MatchString(path) {
				p.fail(f, "%q is not a command path (the words of a tool's command, one space apart) nor %q (every verb)", path, AllVerbs)
				continue
			}
			items, ok := list.([]any)
			if !ok {
				p.fail(f, "must be a list of modules")
				continue
			}
			p.preloadList(items, f, path, w)
		}
	default:
		p.fail(field, "must be %q, \"none\", a list of modules or an object of lists by command path", PreloadClick)
	}
}

func (p *parser) preloadList(items []any, field, path string, w *Warm) {
	for i, it := range items {
		f := fmt.Sprintf("%s[%d]", field, i)
		name, ok := it.(string)
		switch {
		case !ok:
			p.fail(f, "must be a string: \"module\", \"module:function\" or %q", PreloadClick)
		case name == PreloadClick:
			w.Preload = PreloadClick
		case !moduleRE.Get().MatchString(name):
			p.fail(f, "%q is not \"module\" nor \"module:function\"", name)
		default:
			if w.Modules == nil {
				w.Modules = map[string][]string{}
			}
			w.Modules[path] = append(w.Modules[path], name)
		}
	}
}

// warmPaths warns of cli.warm.preload's command paths that are no tool's
// command: their modules are still loaded, but the list is likely stale.
func (p *parser) warmPaths(m *Manifest) {
	w := m.CLI.Warm
	if w == nil || len(w.Modules) == 0 {
		return
	}
	commands := map[string]bool{}
	for _, t := range m.Tools {
		commands[strings.Join(t.Command, " ")] = true
	}
	var stale []string
	for path := range w.Modules {
		if path != AllVerbs && !commands[path] {
			stale = append(stale, path)
		}
	}
	if len(stale) > 0 {
		slices.Sort(stale)
		p.warnings = append(p.warnings, fmt.Sprintf("cli.warm.preload names command paths no tool has (their modules are still preloaded): %s", strings.Join(stale, "; ")))
	}
}
