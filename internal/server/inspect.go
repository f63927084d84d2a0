package server

import (
	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// Inspection is what a server built from a Config would advertise, hide and
// lack, found without starting anything: the tools, validate and doctor
// commands read it, and [New] applies the same rules.
type Inspection struct {
	// Tools are the manifest's tools the server advertises, in order.
	Tools []*annotations.Tool
	// Hidden maps each tool it does not advertise to why: ReasonReadOnly or
	// ReasonNotSelected.
	Hidden map[string]string
	// MissingEnv names the variables the CLI needs and the server's
	// environment lacks, every tool's together, sorted.
	MissingEnv []string
	// MissingEnvOf names them per tool.
	MissingEnvOf map[string][]string
}

// Inspect looks at cfg as [New] would.
func Inspect(cfg Config) Inspection {
	in := Inspection{Hidden: map[string]string{}}
	for _, t := range cfg.Manifest.Tools {
		if why := hiddenBecause(&cfg, t); why != "" {
			in.Hidden[t.Name] = why
		} else {
			in.Tools = append(in.Tools, t)
		}
	}
	env := BuildEnv(hostOS, cfg.Manifest.CLI, cfg.PassEnv, environ)
	in.MissingEnvOf, _ = checkEnv(hostOS, cfg.Manifest, env, environ)
	in.MissingEnv = union(in.MissingEnvOf)
	return in
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
