// Package aeatfacts reads what is known of the real aeat CLI — its command
// tree and the facts of its source (testdata/aeat-cli: commands.json,
// facts.json, each fact with its file:line) — as Go values, so that tests
// can hold the example manifest and the fake aeat to them. Nothing in the
// product imports it: it is the oracle, not a part of the server.
package aeatfacts

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
)

// SharedDir is ../shared/aeat-cli beside the checkout, where the originals
// of the pinned copies are kept on the machine they were measured on; ""
// when it is not there (any other clone).
func SharedDir() string {
	d := filepath.Join(proctest.AeatFacts(), "..", "..", "..", "shared", "aeat-cli")
	if _, err := os.Stat(filepath.Join(d, "facts.json")); err != nil {
		return ""
	}
	return d
}

// Command is one verb of the real CLI (commands.json).
type Command struct {
	Path       []string `json:"path"`
	ClassKey   string   `json:"class_key"`
	Hidden     bool     `json:"hidden"`
	Deprecated bool     `json:"deprecated"`
	Params     []Param  `json:"params"`
	// Classification is the CLI's own.
	Classification struct {
		ReadOnly    bool `json:"read_only"`
		Destructive bool `json:"destructive"`
		Idempotent  bool `json:"idempotent"`
		OpenWorld   bool `json:"open_world"`
		LiveWrite   bool `json:"live_write"`
	} `json:"classification"`
}

// Param is one option or argument of a verb.
type Param struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"` // option or argument
	Opts      []string `json:"opts"`
	Secondary []string `json:"secondary"`
	Type      string   `json:"type"`
	Choices   []string `json:"choices"`
	Min       *float64 `json:"min"`
	Max       *float64 `json:"max"`
	Required  bool     `json:"required"`
	Multiple  bool     `json:"multiple"`
	IsFlag    bool     `json:"is_flag"`
}

// Commands are the verbs by path ("app ledger list"), read once: callers
// only read them.
func Commands() (map[string]*Command, error) {
	commandsOnce.Do(func() {
		var cmds []*Command
		if commandsErr = load("commands.json", &cmds); commandsErr != nil {
			return
		}
		commands = map[string]*Command{}
		for _, c := range cmds {
			commands[strings.Join(c.Path, " ")] = c
		}
	})
	return commands, commandsErr
}

var (
	commandsOnce sync.Once
	commands     map[string]*Command
	commandsErr  error
)

// Facts is the part of facts.json the oracle reads.
type Facts struct {
	Meta struct {
		Version string `json:"version"`
		Commit  string `json:"commit"`
		// Entrypoint is the console script's "module:function".
		Entrypoint string `json:"entrypoint"`
	} `json:"meta"`
	Env []EnvVar `json:"env"`
	// Login is the session gate.
	Login struct {
		ExemptLeafPaths       []string `json:"exempt_leaf_paths"`
		ConditionalExemptions []struct {
			Path string `json:"path"`
			When string `json:"when"`
		} `json:"conditional_exemptions"`
		Refusal struct {
			ExitCode   int    `json:"exit_code"`
			Category   string `json:"category"`
			ErrorCode  string `json:"error_code"`
			Retryable  bool   `json:"retryable"`
			Suggestion string `json:"suggestion"`
			Source     string `json:"source"`
		} `json:"refusal"`
		NoActiveProfileRefusal struct {
			ExitCode   int     `json:"exit_code"`
			ErrorCode  string  `json:"error_code"`
			Suggestion *string `json:"suggestion"`
		} `json:"no_active_profile_refusal"`
		SessionLimits struct {
			IdleMinutes struct {
				Env     string `json:"env"`
				Default int    `json:"default"`
			} `json:"idle_minutes"`
		} `json:"session_limits"`
		HeadlessAlternative struct {
			Env string `json:"env"`
		} `json:"headless_alternative"`
	} `json:"login"`
	ExitCodes struct {
		Categories map[string]int `json:"categories"`
	} `json:"exit_codes"`
	Errors []ErrorCode `json:"errors"`
	Stdin  struct {
		Common struct {
			MaxBytes int `json:"max_bytes"`
		} `json:"common"`
		Verbs []struct {
			Path  string            `json:"path"`
			Flag  string            `json:"flag"`
			Shape map[string]string `json:"shape"`
		} `json:"verbs"`
	} `json:"stdin"`
	CrossField struct {
		Rules []Rule `json:"rules"`
	} `json:"cross_field"`
	Exit2WithSuccess struct {
		Verbs []struct {
			Path string `json:"path"`
			When string `json:"when"`
		} `json:"verbs"`
	} `json:"exit2_with_success"`
	Network []Network `json:"network"`
}

// EnvVar is one variable the CLI reads (or, for a few, does not).
type EnvVar struct {
	Name   string `json:"name"`
	ReadBy string `json:"read_by"`
	Secret bool   `json:"secret"`
	Source string `json:"source"`
}

// Read reports whether the CLI reads it at all: its settings model, a
// direct read, or a library it uses.
func (e EnvVar) Read() bool {
	return !strings.HasPrefix(e.ReadBy, "NOT read") && !strings.HasPrefix(e.ReadBy, "not read")
}

// ErrorCode is one registered error code.
type ErrorCode struct {
	Code      string `json:"code"`
	Category  string `json:"category"`
	ExitCode  int    `json:"exit_code"`
	Retryable bool   `json:"retryable"`
	Source    string `json:"source"`
}

// Rule is one cross-field rule between a verb's options. Rule holds the
// rule as facts.json writes it (if, requires, together, …).
type Rule struct {
	Path      string         `json:"path"`
	Rule      map[string]any `json:"rule"`
	ErrorCode string         `json:"error_code"`
	ExitCode  int            `json:"exit_code"`
	Source    string         `json:"source"`
	Note      string         `json:"note,omitempty"`
}

// Network says whether a group of verbs touches the network: true, false
// or "conditional".
type Network struct {
	Path    string `json:"path"`
	Network any    `json:"network"`
	What    string `json:"what"`
}

// Load reads facts.json.
func Load() (*Facts, error) {
	var f Facts
	if err := load("facts.json", &f); err != nil {
		return nil, err
	}
	return &f, nil
}

func load(name string, v any) error {
	raw, err := os.ReadFile(filepath.Join(proctest.AeatFacts(), name))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// NetworkOf says whether the verb at path touches the network: "true",
// "false" or "conditional" — the entry of facts.json that names it, else
// the catch-all "(all other verbs)".
func (f *Facts) NetworkOf(path string) string {
	cmds, err := Commands()
	if err != nil {
		return ""
	}
	for _, n := range f.Network {
		for _, p := range expandPaths(n.Path, cmds) {
			if p == path {
				return fmt.Sprint(n.Network)
			}
		}
	}
	for _, n := range f.Network {
		if strings.HasPrefix(n.Path, "(all other") {
			return fmt.Sprint(n.Network)
		}
	}
	return ""
}

// NetworkWhat is what the network entry naming the verb at path says it
// does there ("drives a browser session …").
func (f *Facts) NetworkWhat(path string) string {
	cmds, err := Commands()
	if err != nil {
		return ""
	}
	for _, n := range f.Network {
		if slices.Contains(expandPaths(n.Path, cmds), path) {
			return n.What
		}
	}
	return ""
}

// expandPaths reads a facts.json network path: groups separated by ", ",
// alternatives by "|", an option after the verb ("classify --llm") being
// when, not which verb. The first alternative is a full path; each later
// one stands for the path before it with its last words replaced — its
// own number of words when that is a verb of cmds, else as many as make
// one ("app live notifications list|view, borrador 100 list, verify list"
// is notifications list and view, borrador 100 list and verify list, all
// of app live). An alternative that makes no verb is kept as written, for
// a test to see.
func expandPaths(s string, cmds map[string]*Command) []string {
	var out, ref []string
	for _, group := range strings.Split(s, ", ") {
		for _, alt := range strings.Split(group, "|") {
			var words []string
			for _, w := range strings.Fields(alt) {
				if strings.HasPrefix(w, "-") { // an option, never a word of a verb
					break
				}
				words = append(words, w)
			}
			if len(words) == 0 {
				continue
			}
			full := words
			if ref != nil {
				full = nil
				for _, k := range append([]int{len(words)}, seq(len(ref))...) {
					if k > len(ref) {
						continue
					}
					try := append(append([]string{}, ref[:len(ref)-k]...), words...)
					if _, ok := cmds[strings.Join(try, " ")]; ok {
						full = try
						break
					}
				}
				if full == nil {
					full = words
				}
			}
			ref = full
			out = append(out, strings.Join(full, " "))
		}
	}
	return out
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// ErrorByCode finds a registered error code.
func (f *Facts) ErrorByCode(code string) (ErrorCode, bool) {
	for _, e := range f.Errors {
		if e.Code == code {
			return e, true
		}
	}
	return ErrorCode{}, false
}

// RulesOf are the cross-field rules of the verb at path.
func (f *Facts) RulesOf(path string) []Rule {
	var out []Rule
	for _, r := range f.CrossField.Rules {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// StdinShape is the exact object the verb's --secrets-stdin reads, and
// whether it reads one.
func (f *Facts) StdinShape(path string) (map[string]string, bool) {
	for _, v := range f.Stdin.Verbs {
		if v.Path == path {
			return v.Shape, true
		}
	}
	return nil, false
}

// Exempt reports whether the verb at path runs without a login session.
func (f *Facts) Exempt(path string) bool {
	for _, p := range f.Login.ExemptLeafPaths {
		if p == path {
			return true
		}
	}
	return false
}

// ExitsTwoWithSuccess reports whether the verb may print a success
// envelope and exit 2.
func (f *Facts) ExitsTwoWithSuccess(path string) bool {
	for _, v := range f.Exit2WithSuccess.Verbs {
		if v.Path == path {
			return true
		}
	}
	return false
}
