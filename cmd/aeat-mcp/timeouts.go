package main

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// # One tool's ceiling from the command line
//
// A tool's own "timeout" in the manifest replaces its tier's ceiling
// (DESIGN.md §5), so --timeout-read does not reach the whole aeat's READ
// tools that compile its registry and carry 180 s of their own
// (docs/catalog.md). A person whose machine needs longer cannot edit a
// manifest shipped inside a bundle; --timeout-tool NAME=DURATION gives
// the tools a glob names a ceiling of their own, over the manifest's, and
// the own-ceiling refusal (i18n.TimeoutOwnCeiling) names this flag.

// toolTimeout is one --timeout-tool value: the tools matching glob get
// ceiling.
type toolTimeout struct {
	glob    string
	ceiling time.Duration
	given   string // as written, for the error that names it
}

// parseToolTimeouts reads --timeout-tool's values, each a comma list of
// GLOB=DURATION (AEAT_MCP_TIMEOUT_TOOL is one such list). Every bad entry
// is a problem, named as written.
func parseToolTimeouts(values []string) ([]toolTimeout, []string) {
	var tts []toolTimeout
	var problems []string
	for _, v := range values {
		for _, entry := range strings.Split(v, ",") {
			entry = strings.TrimSpace(entry)
			if entry == "" {
				continue
			}
			tt, err := parseToolTimeout(entry)
			if err != nil {
				problems = append(problems, fmt.Sprintf("--timeout-tool %q: %v", entry, err))
				continue
			}
			tts = append(tts, tt)
		}
	}
	return tts, problems
}

func parseToolTimeout(entry string) (toolTimeout, error) {
	glob, text, ok := strings.Cut(entry, "=")
	glob = strings.TrimSpace(glob)
	if !ok || glob == "" {
		return toolTimeout{}, fmt.Errorf("must be NAME=DURATION, e.g. app_modelo_list=5m (NAME may be a glob: 'app_registry_*=5m')")
	}
	if _, err := path.Match(glob, ""); err != nil {
		return toolTimeout{}, fmt.Errorf("tool pattern %q: %v", glob, err)
	}
	d, err := time.ParseDuration(strings.TrimSpace(text))
	if err != nil {
		return toolTimeout{}, fmt.Errorf("%q is not a duration such as 90s or 5m", text)
	}
	if d <= 0 {
		return toolTimeout{}, fmt.Errorf("%v: must be more than 0 (the ceiling of the tools it names)", d)
	}
	return toolTimeout{glob: glob, ceiling: d, given: entry}, nil
}

// applyToolTimeouts gives every tool of m that a value's glob matches that
// value's ceiling, in the order given (a later value wins). A value that
// matches no tool of the manifest is an error: a misspelt name would
// otherwise leave the ceiling the person meant to raise as it was.
func applyToolTimeouts(m *annotations.Manifest, tts []toolTimeout) error {
	var problems []string
	for _, tt := range tts {
		matched := false
		for _, t := range m.Tools {
			if ok, _ := path.Match(tt.glob, t.Name); ok {
				t.Timeout = tt.ceiling
				matched = true
			}
		}
		if !matched {
			problems = append(problems, fmt.Sprintf("--timeout-tool %q: no tool of the manifest is called %s (aeat-mcp tools lists them)", tt.given, tt.glob))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	return nil
}
