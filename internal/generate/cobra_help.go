package generate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
)

// A Cobra program's help page is printed by a template the program may
// replace, and the best-known ones do: Cobra's default ("Usage:",
// "Available Commands:", "Flags:", "Global Flags:"), gh's ("USAGE", "CORE
// COMMANDS", "FLAGS", "INHERITED FLAGS", headings in capitals without a
// colon), kubectl's ("Basic Commands (Beginner):", "Options:" with
// "--name=default: usage" lines, the usage last, the global options on a
// page of their own). readHelp is a tolerant reader of all of them: it
// knows what the sections mean, not where they are or how they are
// spelled, and it says what it could not read.

// helpPage is what one help page says.
type helpPage struct {
	// description is the text before the first section.
	description string
	// usage are the usage lines, each one line even where the page wraps
	// it, program first.
	usage []string
	// commands are the entries of every section that lists commands (a
	// fallback: completion lists them better).
	commands []listed
	// local are the flags of the command's own section ("Flags",
	// "FLAGS", "Options"); inherited those of its parents ("Global
	// Flags", "INHERITED FLAGS").
	local, inherited []helpFlag
	// globalsPage is the command that prints the global options, where
	// the page says so (kubectl: `Use "kubectl options" for a list of
	// global command-line options`), program first.
	globalsPage []string
}

// helpFlag is a flag as a help page shows it.
type helpFlag struct {
	param Param
	// unread says what of it could not be read ("" when all was).
	unread string
	// listedOnly: no help page shows it, completion lists it (its type is
	// not known).
	listedOnly bool
}

// listed is one entry of a list of commands.
type listed struct{ name, short string }

// sectionKind is what a section of a help page holds.
type sectionKind int

const (
	sectionOther sectionKind = iota
	sectionUsage
	sectionFlags
	sectionInherited
	sectionCommands
)

// sectionKinds are the headings a help page's sections go by, lower case
// without their colon; a heading that ends in "commands" (or "commands
// (…)") lists commands. Other headings (Aliases, Examples, LEARN MORE,
// JSON FIELDS, ARGUMENTS…) are known to be headings and skipped.
var sectionKinds = table[sectionKind]{
	{"usage", sectionUsage}, {"flags", sectionFlags}, {"options", sectionFlags}, {"local flags", sectionFlags},
	{"global flags", sectionInherited}, {"inherited flags", sectionInherited}, {"global options", sectionInherited},
	{"persistent flags", sectionInherited},
	{"aliases", sectionOther}, {"examples", sectionOther}, {"example", sectionOther}, {"learn more", sectionOther},
	{"arguments", sectionOther}, {"json fields", sectionOther}, {"environment variables", sectionOther},
	{"additional help topics", sectionOther}, {"help topics", sectionOther}, {"see also", sectionOther},
}

var (
	// headingRE: an unindented line that is a few words ending in ":" —
	// "Basic Commands (Beginner):" — or a few words in capitals — "CORE
	// COMMANDS".
	headingRE    = lazyre.New(`^(?:([A-Z][\w ()/,-]{0,48}):|([A-Z][A-Z0-9 -]{1,48}))\s*$`)
	commandsRE   = lazyre.New(`(?i)\bcommands(?:\s*\(.*\))?$`)
	globalsRE    = lazyre.New(`Use "([^"]+)" for a list of global`)
	listedLineRE = lazyre.New(`^\s+([\w][\w.-]*):?\s+(\S.*)$`)
)

// heading is the kind of section a line opens, if it is a heading; known
// says it is one of the headings help pages use (the description ends at
// the first such).
func heading(line string) (kind sectionKind, known, ok bool) {
	m := headingRE.Get().FindStringSubmatch(line)
	if m == nil {
		return 0, false, false
	}
	name := strings.ToLower(strings.TrimSpace(m[1] + m[2]))
	if k, found := sectionKinds.get(name); found {
		return k, true, true
	}
	if commandsRE.Get().MatchString(name) {
		return sectionCommands, true, true
	}
	return sectionOther, false, true
}

// readHelp reads a help page. program is the name the CLI calls itself
// by (usage lines start with it; a wrapped usage line does not).
func readHelp(text, program string) *helpPage {
	h := &helpPage{}
	var desc []string
	started := false
	kind := sectionOther
	var last *helpFlag
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if m := globalsRE.Get().FindStringSubmatch(line); m != nil && started {
			h.globalsPage = strings.Fields(m[1])
		}
		if line != "" && line[0] != ' ' && line[0] != '\t' {
			if k, known, ok := heading(line); ok && (started || known) {
				started, kind, last = true, k, nil
				continue
			}
			if started {
				// An unindented line that is no heading ends the section
				// (`Use "prog [command] --help" for more information…`).
				kind, last = sectionOther, nil
				continue
			}
		}
		if !started {
			desc = append(desc, line)
			continue
		}
		trimmed := strings.TrimSpace(line)
		switch kind {
		case sectionUsage:
			switch {
			case trimmed == "":
			case strings.HasPrefix(trimmed, program+" ") || trimmed == program || len(h.usage) == 0:
				h.usage = append(h.usage, trimmed)
			default: // a usage line the page wrapped
				h.usage[len(h.usage)-1] += " " + trimmed
			}
		case sectionFlags, sectionInherited:
			if f, ok := readFlagLine(line); ok {
				if f == nil {
					last = nil // help, or deprecated: left out
					continue
				}
				list := &h.local
				if kind == sectionInherited {
					list = &h.inherited
				}
				*list = append(*list, *f)
				last = &(*list)[len(*list)-1]
			} else if last != nil && trimmed != "" && (line[0] == ' ' || line[0] == '\t') {
				sep := "\n"
				if last.param.Help == "" {
					sep = ""
				}
				last.param.Help += sep + trimmed // a usage text of several lines
			}
		case sectionCommands:
			if m := listedLineRE.Get().FindStringSubmatch(line); m != nil {
				h.commands = append(h.commands, listed{name: m[1], short: strings.TrimSpace(m[2])})
			}
		}
	}
	h.description = strings.TrimSpace(strings.Join(desc, "\n"))
	return h
}

// flagsAnywhere reads every flag line of a page that is a list of flags
// with no section of its own (kubectl's "options" page).
func flagsAnywhere(text string) []helpFlag {
	var out []helpFlag
	var last *helpFlag
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if f, ok := readFlagLine(line); ok {
			last = nil
			if f != nil {
				out = append(out, *f)
				last = &out[len(out)-1]
			}
		} else if t := strings.TrimSpace(line); last != nil && t != "" && (line[0] == ' ' || line[0] == '\t') {
			if last.param.Help != "" {
				last.param.Help += "\n"
			}
			last.param.Help += t
		} else {
			last = nil
		}
	}
	return out
}

// readFlagLine reads one flag line in either spelling: pflag's ("-t, --tag
// stringArray   a tag") or kubectl's ("-t, --tag=[]: a tag"). ok is false
// for a line that is no flag; f is nil for one left out (--help, or
// deprecated).
func readFlagLine(line string) (f *helpFlag, ok bool) {
	s := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(s, "-") {
		return nil, false
	}
	rest := s
	if len(rest) > 4 && rest[1] != '-' && rest[2:4] == ", " {
		rest = rest[4:]
	}
	if name, _, kubectl := strings.Cut(strings.TrimPrefix(rest, "--"), "="); strings.HasPrefix(rest, "--") && kubectl && !strings.ContainsAny(name, " [") {
		return readKubectlFlag(s)
	}
	p, ok := parseCobraFlag(line)
	if p == nil {
		return nil, ok
	}
	return &helpFlag{param: *p}, true
}

// commandMarkers are the words a group's usage line ends with, where a
// subcommand goes.
var commandMarkers = wordList{"[command]", "<command>", "COMMAND", "SUBCOMMAND", "<subcommand>", "[subcommand]", "[COMMAND]"}

// usageNoise are the words of a usage line that stand for the flags.
var usageNoise = wordList{"[flags]", "[options]", "[global options]", "[global flags]", "[OPTIONS]", "[FLAGS]"}

// usage is what a page's usage lines say of the command at a path.
type usage struct {
	// runnable: a line that is not only "… [command]" — the command runs.
	runnable bool
	// group: a line ends where a subcommand goes.
	group bool
	// rest are the words of the first runnable line after the command's.
	rest []string
	// names is the command the usage names, program first: the path
	// asked for, or another for an alias (gh's "co" is "pr checkout").
	names []string
}

// usageFor reads the page's usage lines for the command at path (program
// first).
func (h *helpPage) usageFor(path []string) usage {
	var u usage
	for _, line := range h.usage {
		words := strings.Fields(line)
		if len(words) == 0 {
			continue
		}
		n := len(path)
		if len(words) < n || !slices.Equal(words[1:n], path[1:]) {
			for n = 1; n < len(words) && commandWord(words[n]); n++ {
			}
		}
		if u.names == nil {
			u.names = words[:n]
		}
		var meaningful []string
		for _, w := range words[n:] {
			if !usageNoise.has(w) {
				meaningful = append(meaningful, w)
			}
		}
		if len(meaningful) > 0 && commandMarkers.has(meaningful[len(meaningful)-1]) {
			u.group = true // "prog remote [command]", "gh pr <command> [flags]"
			continue
		}
		if !u.runnable {
			u.runnable, u.rest = true, words[n:]
		}
	}
	return u
}

// commandWord: a word that can be a command's name (lower case; no
// brackets, no placeholder).
func commandWord(w string) bool {
	if w == "" || w[0] == '-' || strings.ContainsAny(w, "[]<>(){}|=.…/") {
		return false
	}
	return strings.ToLower(w) == w
}

var (
	kubectlInt      = lazyre.New(`^-?[0-9]+$`)
	kubectlFloat    = lazyre.New(`^-?[0-9]*\.[0-9]+$`)
	kubectlDuration = lazyre.New(durationPattern)
)

// readKubectlFlag reads a flag line as kubectl prints it — "-A,
// --all-namespaces=false: usage", "--output=”: usage", the usage on the
// same line or on the lines after. kubectl prints no type: a string's
// default is quoted, and the other types are read from their default's
// shape (false, 500, [], 5s).
func readKubectlFlag(s string) (*helpFlag, bool) {
	var short string
	if s[1] != '-' {
		short, s = s[:2], s[4:]
	}
	name, rest, _ := strings.Cut(s[2:], "=")
	var dflt, usage string
	quoted := strings.HasPrefix(rest, "'")
	if quoted {
		end := strings.Index(rest[1:], "':")
		if end < 0 {
			return nil, false
		}
		dflt, usage = rest[1:1+end], rest[end+3:]
	} else {
		// The default ends at the first ":" before a space or the line's
		// end (":0" is a default of its own).
		end := -1
		for j := 0; j < len(rest) && end < 0; j++ {
			if rest[j] == ':' && (j+1 == len(rest) || rest[j+1] == ' ' || rest[j+1] == '\t') {
				end = j
			}
		}
		if end < 0 {
			return nil, false
		}
		dflt, usage = rest[:end], rest[end+1:]
	}
	usage = strings.TrimSpace(usage)
	if name == "help" || cobraDeprecated.Get().MatchString(usage) {
		return nil, true
	}
	f := &helpFlag{param: Param{Name: paramName(strings.ReplaceAll(name, "-", "_")), Kind: "option",
		Opts: []string{"--" + name}, Nargs: 1, Help: usage, Type: "str"}}
	if short != "" {
		f.param.Opts = append(f.param.Opts, short)
	}
	p := &f.param
	switch {
	case quoted:
		if dflt != "" {
			p.Default = dflt
		}
	case dflt == "false":
		p.Type, p.IsFlag = "boolean", true
	case dflt == "true":
		p.Type, p.Default = "boolean", "true" // on by default: only --x=false turns it off
	case kubectlInt.Get().MatchString(dflt):
		p.Type = "int"
		p.Default = scalarValue(dflt, "int")
	case kubectlFloat.Get().MatchString(dflt):
		p.Type = "float"
		p.Default = scalarValue(dflt, "float")
	case strings.HasPrefix(dflt, "[") && strings.HasSuffix(dflt, "]"):
		p.Multiple = true
		if dflt != "[]" {
			p.Default = cobraValue(dflt, p)
		}
	case kubectlDuration.Get().MatchString(dflt):
		p.Type, p.Default = "duration", dflt
	default:
		f.unread = fmt.Sprintf("--%s: could not read its type: not shown, nor readable from its default %q: taken as a string", name, dflt)
	}
	return f, true
}

// usageArg is one positional argument of a usage line.
type usageArg struct {
	// names: one, or the alternatives of "(POD | TYPE/NAME)".
	names              []string
	optional, variadic bool
}

// usageArgs reads the positional arguments from the words of a usage line
// after the command ("SRC [DST...] [flags]"): an argument is a word in
// capitals or <name> (any word within brackets), optional in brackets,
// variadic with "..." or "…", one of several with "|"; a group that starts
// with a flag ("[-c CONTAINER]") is the flag's. unread quotes what could
// not be read; then args is one list for all of them.
// valued names the flags ("--name", "-n") that take a value: in "-s
// <shell>" the placeholder is the flag's.
func usageArgs(words []string, valued map[string]bool) (args []Param, unread string) {
	toks := usageTokens(strings.Join(words, " "))
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		if valued[tok] && i+1 < len(toks) && !strings.HasPrefix(toks[i+1], "-") {
			i++ // the flag's value
			continue
		}
		a, kind := readUsageArg(tok, false)
		switch kind {
		case argSkip:
			continue
		case argUnread:
			return []Param{{Name: "args", Kind: "argument", Type: "str", Nargs: -1,
					Help: "The command's arguments, as its usage gives them: " + strings.Join(words, " ")}},
				fmt.Sprintf("arguments: could not read %q in the usage: they are one list, args", tok)
		}
		p := Param{Name: paramName(strings.ToLower(strings.ReplaceAll(strings.Join(a.names, "_or_"), "-", "_"))),
			Kind: "argument", Type: "str", Required: !a.optional, Nargs: 1}
		if len(a.names) > 1 {
			p.Help = "One of: " + strings.Join(a.names, " | ")
		}
		if a.variadic {
			p.Nargs = -1
			if n := len(args); n > 0 && args[n-1].Name == p.Name {
				args[n-1].Nargs = -1 // "ID [ID...]": one or more
				continue
			}
		}
		args = append(args, p)
	}
	return args, ""
}

type argKind int

const (
	argOK argKind = iota
	argSkip
	argUnread
)

var (
	argNameRE = lazyre.New(`^[A-Za-z][\w./-]*$`)
	upperRE   = lazyre.New(`^[A-Z][A-Z0-9_./-]*$`)
)

// readUsageArg reads one token of a usage line; within says it is inside
// brackets (where a lower-case word is an argument's name too).
func readUsageArg(tok string, within bool) (usageArg, argKind) {
	var a usageArg
	for {
		t := strings.TrimSuffix(strings.TrimSuffix(tok, "..."), "…")
		if t == tok {
			break
		}
		tok, a.variadic = t, true
	}
	switch {
	case tok == "" || tok == "|" || usageNoise.has(tok) || !within && commandMarkers.has(tok):
		return a, argSkip
	case tok == "--":
		return a, argUnread // what follows goes after the CLI's own "--"
	case strings.HasPrefix(tok, "-"):
		return a, argSkip // a flag, its value in the same word or the next
	case strings.HasPrefix(strings.TrimLeft(tok, "[({"), "-"):
		return a, argSkip // "[-f]", "[-c CONTAINER]", "[(-o|--output=)json|…]"
	}
	if open, close := tok[0], tok[len(tok)-1]; len(tok) > 2 && (open == '[' && close == ']' || open == '(' && close == ')' || open == '{' && close == '}') {
		var alts []string
		for _, alt := range splitTopLevel(tok[1:len(tok)-1], '|') {
			inner, kind := readUsageArg(strings.TrimSpace(alt), true)
			if kind == argSkip {
				// "{<name> | --all}", "[<file>... | -]": the argument may
				// be left out for a flag (or stdin).
				a.optional = true
				continue
			}
			if kind != argOK || len(inner.names) != 1 {
				return a, argUnread
			}
			a.variadic = a.variadic || inner.variadic
			a.optional = a.optional || inner.optional
			alts = append(alts, inner.names[0])
		}
		if len(alts) == 0 {
			return a, argSkip // "[-c CONTAINER]": a flag and its value
		}
		a.names = alts
		a.optional = a.optional || open == '['
		return a, argOK
	}
	name := tok
	if strings.HasPrefix(tok, "<") && strings.HasSuffix(tok, ">") {
		name = tok[1 : len(tok)-1]
	} else if !within && !upperRE.Get().MatchString(tok) {
		return a, argUnread // a bare lower-case word: a literal, or an argument?
	}
	if !argNameRE.Get().MatchString(name) {
		return a, argUnread
	}
	a.names = []string{name}
	return a, argOK
}

// usageTokens splits a usage line into its top-level words: a bracketed
// group ("[NAME | -l label]", "{<n> | <url>}") is one word with whatever
// follows it up to a space ("[ID...]", "<file>…").
func usageTokens(s string) []string {
	var out []string
	for _, w := range splitTopLevel(strings.ReplaceAll(s, "\t", " "), ' ') {
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// splitTopLevel splits s at sep outside brackets.
func splitTopLevel(s string, sep rune) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '[', '(', '{', '<':
			depth++
		case ']', ')', '}', '>':
			if depth > 0 {
				depth--
			}
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
