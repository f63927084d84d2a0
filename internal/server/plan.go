package server

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// Plan is what one call would run, found without running it: what call
// --dry-run prints.
type Plan struct {
	Tool *annotations.Tool
	// Command is cli.command as the manifest gives it; Path is where it
	// resolves, "" when it does not (CLIError says why).
	Command  string
	Path     string
	CLIError error
	// Argv follows the program name, sensitive values masked. For a
	// destructive tool it is the command line after a person's yes.
	Argv []string
	// Env names the variables the CLI gets (not their values).
	Env []string
	// Stdin says where stdin comes from: "" (the null device), "env NAME",
	// "keychain NAME (…)" or "param NAME", and how it is written.
	Stdin string
	// Dir is the working directory: "" (the server's), a path, or
	// annotations.ScratchDir.
	Dir string
	// Asks says whether a person is asked first.
	Asks bool
	// Ceiling is how long the call may take.
	Ceiling time.Duration
	// MissingEnv names variables the call needs and the server lacks: it
	// would refuse.
	MissingEnv []string
}

// Plan validates a call of the tool called name as the server would and
// says what it would run. Errors: the tool is unknown or hidden (a
// [*HiddenError]), or the arguments are invalid (a
// [*annotations.ValidationError]).
func (s *Server) Plan(name string, raw json.RawMessage) (*Plan, error) {
	t := s.tools[name]
	if t == nil {
		if h := s.hidden[name]; h != nil {
			return nil, &HiddenError{Tool: name, Reason: s.hiddenBecause(h)}
		}
		return nil, fmt.Errorf("no tool %q", name)
	}
	args, err := t.Validate(raw)
	if err != nil {
		return nil, err
	}
	asks := t.Hints.Destructive && !t.SkipsConfirmation(args)
	inv, err := t.Render(args, asks)
	if err != nil {
		return nil, err
	}
	p := &Plan{Tool: t, Command: s.cfg.Manifest.CLI.Command, Path: s.cfg.CLIPath, CLIError: s.cfg.CLIError, Argv: inv.Shown, Dir: s.cfg.Manifest.WorkDir(),
		Asks: asks && s.cfg.Confirm != ConfirmNever, Ceiling: t.Ceiling(s.cfg.Ceilings), MissingEnv: s.missingEnv[t.Name]}
	for _, kv := range s.env {
		k, _, _ := strings.Cut(kv, "=")
		p.Env = append(p.Env, k)
	}
	sort.Strings(p.Env)
	if st := t.Stdin; st != nil {
		switch {
		case st.Env != "":
			p.Stdin = "env " + st.Env
		case st.Keychain != "":
			p.Stdin = "keychain " + st.Keychain + " (or the server's variable of that name)"
		default:
			p.Stdin = "param " + st.Param
		}
		if st.JSONKey != "" {
			p.Stdin += fmt.Sprintf(", written as {%q: …}", st.JSONKey)
		}
	}
	return p, nil
}

// Program is the CLI's name as a person types it.
func (p *Plan) Program() string {
	if p.Path != "" {
		return p.Path
	}
	return filepath.Base(p.Command)
}

// HiddenError is a call of a tool the manifest has but this server does
// not advertise.
type HiddenError struct {
	Tool   string
	Reason string // ReasonReadOnly or ReasonNotSelected
}

func (e *HiddenError) Error() string {
	if e.Reason == ReasonReadOnly {
		return fmt.Sprintf("tool %q is hidden by --read-only: it changes state", e.Tool)
	}
	return fmt.Sprintf("tool %q is not among the tools --tools selects", e.Tool)
}
