package generate

import (
	"strconv"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
)

// Every Cobra program (Cobra 1.0 and later) answers the machine protocol
// its shell completions use: `PROG __complete WORDS… TOCOMPLETE` prints one
// completion a line, "value\tdescription", then ":DIRECTIVE", and exits 0.
// With TOCOMPLETE "" after a command it lists the command's subcommands —
// hidden and deprecated ones left out, an alias never listed (so a command
// and its aliases are one tool), Cobra's own help command in — and the
// flags the command requires; with "-" it lists the command's flags, its
// own and inherited, long and short, hidden and deprecated ones left out —
// but only the required ones when it has any. The answer has no types:
// those come from the help page.

// compDirectiveError is Cobra's ShellCompDirectiveError: the program could
// not complete (no such command).
const compDirectiveError = 1

// completion is one answer of the protocol.
type completion struct {
	entries   []listed
	directive int
}

var directiveRE = lazyre.New(`^:([0-9]+)$`)

// readCompletion reads an answer; ok is false when the output is not one
// (the last line is no ":DIRECTIVE": the program does not speak the
// protocol).
func readCompletion(out string) (c completion, ok bool) {
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(out, "\r\n", "\n"), "\n"), "\n")
	m := directiveRE.Get().FindStringSubmatch(strings.TrimSpace(lines[len(lines)-1]))
	if m == nil {
		return c, false
	}
	c.directive, _ = strconv.Atoi(m[1])
	for _, l := range lines[:len(lines)-1] {
		if l == "" || strings.HasPrefix(l, "_activeHelp_") {
			continue // Cobra's "active help": a message for the person typing
		}
		value, desc, _ := strings.Cut(l, "\t")
		c.entries = append(c.entries, listed{name: value, short: strings.TrimSpace(desc)})
	}
	return c, true
}

// commands are the subcommands an answer to `… ""` lists: its entries that
// are no flag (the required flags are listed too).
func (c completion) commands() []listed {
	var out []listed
	for _, e := range c.entries {
		if e.name != "" && !strings.HasPrefix(e.name, "-") {
			out = append(out, e)
		}
	}
	return out
}

// compFlag is a flag an answer to `… -` lists.
type compFlag struct{ long, short, usage string }

// flags are the flags an answer to `… -` lists, a shorthand with its long
// name (Cobra lists "--name" and then "-n", with the same usage).
func (c completion) flags() []compFlag {
	var out []compFlag
	for _, e := range c.entries {
		switch {
		case strings.HasPrefix(e.name, "--") && len(e.name) > 2:
			out = append(out, compFlag{long: e.name[2:], usage: e.short})
		case strings.HasPrefix(e.name, "-") && len(e.name) == 2 && len(out) > 0 && out[len(out)-1].short == "" && out[len(out)-1].usage == e.short:
			out[len(out)-1].short = e.name
		}
	}
	return out
}
