package annotations

import (
	"fmt"
	"path"
	"strings"
)

// Selection chooses which tools a server advertises, for CLIs with
// hundreds of verbs (--tools, AEAT_MCP_TOOLS): a tool is selected when it
// matches at least one include pattern (or there are none) and no exclude
// pattern ("!GLOB"). Patterns are path.Match globs over tool names:
// "ledger_*", "*_pull", "!*_delete".
type Selection struct {
	include, exclude []string
}

// ParseSelection reads patterns as --tools gives them; each may also be a
// comma-separated list (the environment variable's form). Empty entries
// are ignored; a malformed glob is an error naming it.
func ParseSelection(patterns []string) (Selection, error) {
	var s Selection
	for _, p := range patterns {
		for _, g := range strings.Split(p, ",") {
			g = strings.TrimSpace(g)
			exclude := strings.HasPrefix(g, "!")
			g = strings.TrimPrefix(g, "!")
			if g == "" {
				continue
			}
			if _, err := path.Match(g, ""); err != nil {
				return Selection{}, fmt.Errorf("tool pattern %q: %v", g, err)
			}
			if exclude {
				s.exclude = append(s.exclude, g)
			} else {
				s.include = append(s.include, g)
			}
		}
	}
	return s, nil
}

// Selects reports whether the tool called name is selected.
func (s Selection) Selects(name string) bool {
	for _, g := range s.exclude {
		if ok, _ := path.Match(g, name); ok {
			return false
		}
	}
	if len(s.include) == 0 {
		return true
	}
	for _, g := range s.include {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// Restricts reports whether s has any pattern: the zero Selection selects
// every tool.
func (s Selection) Restricts() bool { return len(s.include)+len(s.exclude) > 0 }

// Unmatched are the patterns that select none of tools: most likely typos,
// worth a warning.
func (s Selection) Unmatched(tools []*Tool) []string {
	var out []string
	for _, list := range [][]string{s.include, s.exclude} {
		for _, g := range list {
			hit := false
			for _, t := range tools {
				if ok, _ := path.Match(g, t.Name); ok {
					hit = true
					break
				}
			}
			if !hit {
				out = append(out, g)
			}
		}
	}
	return out
}
