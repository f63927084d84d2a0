package generate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Command is one entry of a command tree: the format of the real aeat's
// commands.json (../shared/aeat-cli/README.md documents its fields), which
// the click walker prints too. A tree is a JSON list of them; unknown
// fields (key, class_key) are ignored.
//
// Fields past commands.json's, all optional: Group, Program, Help,
// ShortHelp, Unread, and on params Help, Count, HideInput, Eager, ExposeValue,
// MinOpen, MaxOpen.
type Command struct {
	// Path is the words after the program's name; empty for the root (a
	// group, or the one verb of a single-command CLI).
	Path       []string `json:"path"`
	Hidden     bool     `json:"hidden"`
	Deprecated bool     `json:"deprecated"`
	Params     []Param  `json:"params"`
	// Classification is the CLI's own word on what the verb does; nil when
	// the tree has none (then the hints are guessed).
	Classification *Classification `json:"classification"`
	// Group marks a command group rather than a verb: the root's params
	// are the CLI's global options; other groups' are left out (a manifest
	// puts no option between the words of a command).
	Group bool `json:"group"`
	// Program is the CLI's name (the root entry's).
	Program string `json:"program"`
	// Help is the command's help text; ShortHelp its one-line summary.
	Help      string `json:"help"`
	ShortHelp string `json:"short_help"`
	// Unread says what a walk could not read of the command (of the whole
	// CLI, on the root), each for the person generating: generate prints
	// them as notes.
	Unread []string `json:"unread,omitempty"`
}

// Param is one option or argument of a command.
type Param struct {
	Name string `json:"name"`
	// Kind is "option" or "argument".
	Kind string `json:"kind"`
	// Opts are the option's names ("--year", "-y"); Secondary the negative
	// of a --x/--no-x pair.
	Opts      []string `json:"opts"`
	Secondary []string `json:"secondary"`
	// Type is the CLI's type name: str, int, float, boolean, choice, path,
	// "int range", … (see paramTypes).
	Type     string       `json:"type"`
	Choices  []string     `json:"choices"`
	Min      *json.Number `json:"min"`
	Max      *json.Number `json:"max"`
	MinOpen  bool         `json:"min_open"`
	MaxOpen  bool         `json:"max_open"`
	Required bool         `json:"required"`
	// Multiple: the option may be repeated.
	Multiple bool `json:"multiple"`
	// Nargs is how many values one occurrence takes; -1 any number (an
	// argument). Zero is read as 1.
	Nargs  int  `json:"nargs"`
	IsFlag bool `json:"is_flag"`
	// Count: a counting flag (-vvv).
	Count  bool `json:"count"`
	Hidden bool `json:"hidden"`
	// Prompt: the CLI asks for the value when it is not given.
	Prompt bool `json:"prompt"`
	// HideInput: the value is a secret (a password prompt).
	HideInput bool `json:"hide_input"`
	// Eager options are handled before the command runs (--help, --version).
	Eager bool `json:"eager"`
	// ExposeValue false: the option acts (--version prints and exits)
	// rather than giving the command a value. Nil means true.
	ExposeValue *bool  `json:"expose_value"`
	Default     any    `json:"default"`
	Help        string `json:"help"`
}

// Classification is the CLI's own risk classification of a verb (the real
// aeat's operator-surface classification).
type Classification struct {
	ReadOnly    bool `json:"read_only"`
	Destructive bool `json:"destructive"`
	Idempotent  bool `json:"idempotent"`
	OpenWorld   bool `json:"open_world"`
	// LiveWrite: a write to the outside world the CLI's own MCP never
	// exposes.
	LiveWrite bool `json:"live_write"`
	// Handoff: a filing-grade output a person confirms (the CLI's own MCP
	// asks first).
	Handoff bool `json:"handoff"`
	// RiskDeclared false says the judgment axes (destructive, handoff,
	// live_write) were defaulted, not assessed; nil means assessed.
	RiskDeclared *bool `json:"risk_declared"`
}

// ParseTree reads a command tree, checking what the generator relies on:
// every path a list of non-empty words, no path twice.
func ParseTree(data []byte) ([]Command, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var cmds []Command
	if err := dec.Decode(&cmds); err != nil {
		return nil, fmt.Errorf("not a command tree (a JSON list of commands with path and params): %w", err)
	}
	seen := map[string]int{}
	var problems []string
	for i, c := range cmds {
		key := strings.Join(c.Path, " ")
		for _, w := range c.Path {
			if strings.TrimSpace(w) == "" {
				problems = append(problems, fmt.Sprintf("[%d]: path %q has an empty word", i, c.Path))
			}
		}
		if j, dup := seen[key]; dup {
			problems = append(problems, fmt.Sprintf("[%d]: path %q is also [%d]", i, key, j))
		}
		seen[key] = i
		for j, p := range c.Params {
			if p.Kind != "option" && p.Kind != "argument" {
				problems = append(problems, fmt.Sprintf("[%d] %q: params[%d] %q: kind is %q; must be option or argument", i, key, j, p.Name, p.Kind))
			}
			if p.Kind == "option" && len(p.Opts) == 0 {
				problems = append(problems, fmt.Sprintf("[%d] %q: params[%d] %q: an option without opts", i, key, j, p.Name))
			}
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("command tree: %s", strings.Join(problems, "; "))
	}
	return cmds, nil
}
