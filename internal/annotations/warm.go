package annotations

import (
	"fmt"
	"regexp"
	"slices"
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

// TiersOrDefault is Tiers, or read and mutate when none are listed.
func (w *Warm) TiersOrDefault() []Tier {
	if len(w.Tiers) == 0 {
		return []Tier{Read, Mutate}
	}
	return w.Tiers
}

var hookRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// warm parses cli.warm.
func (p *parser) warm(raw any) *Warm {
	obj := p.object(raw, "cli.warm", "python", "interpreter", "preload", "reset", "warmup", "verify", "tiers", "max_calls")
	if obj == nil {
		return nil
	}
	w := &Warm{}
	if p.require(obj, "cli.warm", "python", &w.Entry, "a string", ` ("package.module:function", the console script's entry point)`) && !hookRE.MatchString(w.Entry) {
		p.fail("cli.warm.python", "%q is not \"package.module:function\"", w.Entry)
	}
	p.decode(obj, "cli.warm", "interpreter", &w.Interpreter, "a string")
	if p.decode(obj, "cli.warm", "preload", &w.Preload, "a string") && w.Preload != PreloadClick && w.Preload != "none" {
		p.fail("cli.warm.preload", "%q: must be %q (walk the Click or Typer tree) or \"none\"", w.Preload, PreloadClick)
	}
	if w.Preload == "none" {
		w.Preload = ""
	}
	p.decode(obj, "cli.warm", "reset", &w.Reset, "a list of \"module:function\"")
	for i, h := range w.Reset {
		if !hookRE.MatchString(h) {
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
