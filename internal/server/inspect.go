package server

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// Inspection is what a server built from a Config would advertise, hide and
// lack, found without starting anything: the tools, validate and doctor
// commands and serve's start-up log read it, and [New] applies the same
// rules.
type Inspection struct {
	// Tools are the manifest's tools the server advertises, in order.
	Tools []*annotations.Tool
	// Hidden maps each tool it does not advertise to why: ReasonReadOnly or
	// ReasonNotSelected.
	Hidden map[string]string
	// BuiltIn names aeat-mcp's own tools the server serves besides them,
	// in the order it registers them.
	BuiltIn []string
	// MissingEnv names the variables the CLI needs and the server's
	// environment lacks, every tool's together, sorted.
	MissingEnv []string
	// MissingEnvOf names them per tool.
	MissingEnvOf map[string][]string
	// CLIError is why the CLI does not resolve (Config.CLIError); nil when
	// it does.
	CLIError error
	// Secrets is where each secret the manifest reads is found, for a
	// caller that read the keychain ([Secrets]); nil leaves secrets out of
	// [Inspection.Problems] (serve does not read the keychain to start).
	Secrets []SecretState

	manifest *annotations.Manifest
}

// Inspect looks at cfg as [New] would.
func Inspect(cfg Config) Inspection {
	in := Inspection{Hidden: map[string]string{}, BuiltIn: builtinNames(cfg), CLIError: cfg.CLIError, manifest: cfg.Manifest}
	for _, t := range cfg.Manifest.Tools {
		if why := hiddenBecause(&cfg, t); why != "" {
			in.Hidden[t.Name] = why
		} else {
			in.Tools = append(in.Tools, t)
		}
	}
	environ := cfg.environ()
	snapshot := func() []string { return environ }
	env := BuildEnv(hostOS, cfg.Manifest.CLI, cfg.PassEnv, snapshot)
	in.MissingEnvOf, _ = checkEnv(hostOS, cfg.Manifest, env, snapshot)
	in.MissingEnv = union(in.MissingEnvOf)
	return in
}

// Problems are [Inspection.Problems] of the server's own Config, from the
// environment New checked already: serve's start-up log reads them before
// initialize, where Inspect would build the environment and the built-ins
// again.
func (s *Server) Problems() []Problem {
	return Inspection{CLIError: s.cfg.CLIError, MissingEnvOf: s.missingEnv, MissingEnv: union(s.missingEnv), manifest: s.cfg.Manifest}.Problems()
}

// Problem is something on this machine that makes calls refuse, and how a
// person fixes it: worded once, here, for doctor, validate and serve's
// start-up log.
type Problem struct {
	// What is wrong, and what it does to the calls.
	What string
	// Fix is what a person does about it.
	Fix string
	// Tools are the only tools that refuse until it is fixed; nil: every
	// call does.
	Tools []string
}

// refuse says that tools refuse, the verb agreeing with how many: "a
// refuses", "a, b refuse".
func refuse(tools []string) string {
	if len(tools) == 1 {
		return tools[0] + " refuses"
	}
	return strings.Join(tools, ", ") + " refuse"
}

// EveryCall reports whether every call refuses until p is fixed: a
// problem, where one that only some tools have is a warning.
func (p Problem) EveryCall() bool { return len(p.Tools) == 0 }

// fixEnv is where a person sets a variable the server was started without.
const fixEnv = `set it in the "env" block of this server in the host's MCP config (aeat-mcp config HOST prints it), or in the environment aeat-mcp starts in`

// Problems are what would make a server of the inspected Config refuse
// calls: the CLI not resolving, a variable the CLI needs not set, a
// secret it needs neither in the environment nor in the keychain
// (Secrets, when read). Each every call has comes before those only some
// tools have.
func (in Inspection) Problems() []Problem {
	var out []Problem
	if annotations.CLIGiven(in.CLIError) {
		out = append(out, Problem{
			What: fmt.Sprintf("the CLI does not resolve: %v — a host shows the server Connected, and every call fails", in.CLIError),
			Fix:  "check the path given with --cli (or AEAT_MCP_CLI): it must name an executable file",
		})
	} else if in.CLIError != nil {
		out = append(out, Problem{
			What: fmt.Sprintf("the CLI does not resolve: %v — a host shows the server Connected, and every call fails", in.CLIError),
			Fix: fmt.Sprintf("install it, put it next to aeat-mcp or on PATH, or pass --cli /path/to/%s (GUI hosts on macOS give servers PATH=/usr/bin:/bin, so a PATH lookup that works in a terminal may fail there)",
				in.command()),
		})
	}
	for _, v := range in.MissingEnv {
		if in.manifest != nil && slices.Contains(in.manifest.CLI.Require, v) {
			out = append(out, Problem{What: v + " is not set: every call refuses until it is", Fix: fixEnv})
			continue
		}
		// Only the tools that read it on stdin need it: they refuse, the
		// rest serve.
		tools := in.toolsMissing(v)
		out = append(out, Problem{What: fmt.Sprintf("%s is not set: %s until it is", v, refuse(tools)),
			Fix: `set it in the host's "env" block when they are wanted`, Tools: tools})
	}
	for _, st := range in.Secrets {
		switch {
		case st.From != "" || !st.Required:
		case len(st.Tools) == 0:
			fix := fmt.Sprintf("run `%s` in a terminal, or set it in the host's \"env\" block", SecretSetCommand(st.Name))
			if st.unreadable() {
				fix = fmt.Sprintf("set it in the host's \"env\" block (the keychain cannot be read: %v)", st.Err)
			}
			out = append(out, Problem{What: st.String() + ": every call refuses", Fix: fix})
		default:
			fix := "`" + SecretSetCommand(st.Name) + "`"
			if st.unreadable() {
				fix = `set it in the host's "env" block when they are wanted`
			}
			out = append(out, Problem{What: fmt.Sprintf("%s: %s until it is %s", st, refuse(st.Tools), given(st)),
				Fix: fix, Tools: st.Tools})
		}
	}
	slices.SortStableFunc(out, func(a, b Problem) int {
		switch {
		case a.EveryCall() == b.EveryCall():
			return 0
		case a.EveryCall():
			return -1
		}
		return 1
	})
	return out
}

// given is how a secret is given: stored in the keychain, or (when the
// keychain cannot be read) set in the environment.
func given(st SecretState) string {
	if st.unreadable() {
		return "set"
	}
	return "stored"
}

// command is the base name of the manifest's CLI, for a message.
func (in Inspection) command() string {
	if in.manifest == nil {
		return "it"
	}
	name := in.manifest.CLI.Command
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// toolsMissing names, in the manifest's order, the tools that lack v.
func (in Inspection) toolsMissing(v string) []string {
	var out []string
	if in.manifest == nil {
		return nil
	}
	for _, t := range in.manifest.Tools {
		if slices.Contains(in.MissingEnvOf[t.Name], v) {
			out = append(out, t.Name)
		}
	}
	return out
}

// hiddenBecause is why a server with cfg does not advertise t:
// ReasonReadOnly, ReasonNotSelected, or "" when it does.
func hiddenBecause(cfg *Config, t *annotations.Tool) string {
	switch {
	case cfg.ReadOnly && !t.Hints.ReadOnly:
		return ReasonReadOnly
	case !cfg.Select.Selects(t.Name):
		return ReasonNotSelected
	}
	return ""
}
