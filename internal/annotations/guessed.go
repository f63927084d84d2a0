package annotations

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// HintNames are MCP's four hints as a manifest names them, in the order
// it writes them.
var HintNames = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// hintsGuessed reads a tool's hints_guessed: the hints nobody took from the
// CLI — `aeat-mcp generate` writes the cautious value and marks it, so
// that validate can name every such tool until a person checks and sets
// them. A tool without the key has nothing guessed.
func (p *parser) hintsGuessed(obj map[string]any, t *Tool) {
	raw, ok := obj["hints_guessed"]
	if !ok {
		return
	}
	var names []string
	if raw == nil || !assign(raw, &names) {
		p.fail("hints_guessed", "must be a list of hint names (%s)", strings.Join(HintNames, ", "))
		return
	}
	if len(names) == 0 {
		p.fail("hints_guessed", "is empty: leave it out when no hint was guessed")
		return
	}
	seen := map[string]bool{}
	for i, n := range names {
		f := fmt.Sprintf("hints_guessed[%d]", i)
		switch {
		case !slices.Contains(HintNames, n):
			p.fail(f, "%q is not a hint (%s)", n, strings.Join(HintNames, ", "))
		case seen[n]:
			p.fail(f, "%q is listed twice", n)
		default:
			seen[n] = true
			t.HintsGuessed = append(t.HintsGuessed, n)
		}
	}
}

// guessedWarnings names every tool whose hints were guessed: one warning
// per set of guessed hints, its tools grouped by the command they belong
// to (all but the verb's last word), so that 300 of them stay readable.
func guessedWarnings(tools []*Tool) []string {
	bySet := map[string]map[string][]string{} // guessed hints -> group -> tool names
	count := map[string]int{}
	for _, t := range tools {
		if len(t.HintsGuessed) == 0 {
			continue
		}
		set := make([]string, 0, len(t.HintsGuessed))
		for _, h := range HintNames { // the manifest's order, whatever the file's
			if slices.Contains(t.HintsGuessed, h) {
				set = append(set, h)
			}
		}
		key := strings.Join(set, ", ")
		if bySet[key] == nil {
			bySet[key] = map[string][]string{}
		}
		group := "(top level)"
		if path := verbPath(t.Command); len(path) > 1 {
			group = strings.Join(path[:len(path)-1], " ")
		}
		bySet[key][group] = append(bySet[key][group], t.Name)
		count[key]++
	}
	var out []string
	for _, key := range slices.Sorted(maps.Keys(bySet)) {
		var b strings.Builder
		fmt.Fprintf(&b, "hints guessed for %d tools (%s): cautious values, not the CLI's word — check each against the CLI and set its annotations (generate --overrides):", count[key], key)
		groups := bySet[key]
		for _, g := range slices.Sorted(maps.Keys(groups)) {
			names := groups[g]
			sort.Strings(names)
			fmt.Fprintf(&b, "\n  %s: %s", g, strings.Join(names, ", "))
		}
		out = append(out, b.String())
	}
	return out
}

// verbPath is the command's words up to its first option.
func verbPath(words []string) []string {
	for i, w := range words {
		if strings.HasPrefix(w, "-") {
			return words[:i]
		}
	}
	return words
}
