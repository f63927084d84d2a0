package annotations

import "strings"

// Mask stands for a sensitive value wherever aeat-mcp shows arguments.
const Mask = "••••"

// Invocation is what one call runs: the argv after the program name, the
// same argv as a person may see it, and what the CLI reads on stdin.
type Invocation struct {
	Argv []string
	// Shown is Argv with the values of sensitive params masked.
	Shown []string
	// Stdin is the value of the tool's stdin param, when the tool reads
	// one and it was given; nil otherwise (a stdin from the server's
	// environment is the caller's to add).
	Stdin *string
}

// Render turns validated arguments into what runs, exactly as
// docs/manifest.md says ("How a call becomes an argv"):
//
//	argv = cli.args ++ globals ++ tool.command ++ flags ++ ["--"] ++ positionals
//
// globals are the flags of cli.params and of params marked global (both
// params of the tool once loaded), in declaration order, before the verb.
// The other flags come after it, in params order, as one "--flag=value"
// token each; a stdin param is no token at all: its value is
// Invocation.Stdin, so a secret never reaches the argv; a boolean true is "--flag", false is the negate flag if declared,
// else nothing; an array repeats its flag once per element. confirmed adds
// the tool's confirm flag after the others: only the gate passes true,
// after a person said yes. "--" is emitted before the first positional, and
// only when there is one, so no value can ever be read as an option. Absent
// optional params are omitted (defaults were applied by Validate). There is
// no shell anywhere: the argv goes to execve as it is.
func (t *Tool) Render(args Args, confirmed bool) (Invocation, error) {
	n := len(t.cli.Args) + len(t.Command) + len(t.Params()) + 2
	inv := Invocation{Argv: make([]string, 0, n), Shown: make([]string, 0, n)}
	add := func(tok, shown string) {
		inv.Argv = append(inv.Argv, tok)
		inv.Shown = append(inv.Shown, shown)
	}
	for _, a := range t.cli.Args {
		add(a, a)
	}
	var flags, positionals [][2]string
	for i := range t.Params() {
		prm := &t.Params()[i]
		v, ok := args.Get(prm.Name)
		if !ok || v == nil {
			continue
		}
		if prm.Stdin {
			s, _ := v.(string)
			inv.Stdin = &s
			continue
		}
		vals, err := prm.values(v)
		if err != nil {
			return Invocation{}, &ValidationError{Field: prm.Name, Msg: err.Error()}
		}
		show := func(s string) string {
			if prm.Sensitive {
				return Mask
			}
			return s
		}
		var toks [][2]string
		switch {
		case prm.Positional:
			for _, s := range vals {
				positionals = append(positionals, [2]string{s, show(s)})
			}
			continue
		case prm.Type == "boolean":
			if v.(bool) {
				toks = append(toks, [2]string{prm.Flag, prm.Flag})
			} else if prm.Negate != "" {
				toks = append(toks, [2]string{prm.Negate, prm.Negate})
			}
		default:
			for _, s := range vals {
				toks = append(toks, [2]string{prm.Flag + "=" + s, prm.Flag + "=" + show(s)})
			}
		}
		if prm.Global {
			for _, tok := range toks {
				add(tok[0], tok[1])
			}
		} else {
			flags = append(flags, toks...)
		}
	}
	for _, c := range t.Command {
		add(c, c)
	}
	for _, tok := range flags {
		add(tok[0], tok[1])
	}
	if confirmed && t.Confirm.Flag != "" {
		add(t.Confirm.Flag, t.Confirm.Flag)
	}
	if len(positionals) > 0 {
		add("--", "--")
		for _, tok := range positionals {
			add(tok[0], tok[1])
		}
	}
	return inv, nil
}

// SkipsConfirmation reports whether args match the tool's confirm.skip_when
// (a dry run): then nobody is asked, and the confirm flag is not added.
func (t *Tool) SkipsConfirmation(args Args) bool {
	if len(t.Confirm.SkipWhen) == 0 {
		return false
	}
	for name, want := range t.Confirm.SkipWhen {
		got, ok := args.Get(name)
		if !ok || !sameArg(want, got) {
			return false
		}
	}
	return true
}

// sameArg compares two argument values: numbers by value, lists element
// by element, anything else by its text.
func sameArg(a, b any) bool {
	la, okA := a.([]any)
	lb, okB := b.([]any)
	if okA || okB {
		if !okA || !okB || len(la) != len(lb) {
			return false
		}
		for i := range la {
			if !sameArg(la[i], lb[i]) {
				return false
			}
		}
		return true
	}
	return sameValue(a, b)
}

// ShellQuote shows argv as a person could paste it into a POSIX shell: a
// word of plain characters as it is, anything else in single quotes (a
// value with a space is one word, and reads as one). It is for showing
// only: nothing aeat-mcp runs goes through a shell.
func ShellQuote(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./:,@%+") == "" {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}
