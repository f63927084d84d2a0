package annotations_test

import (
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// warmManifest is a manifest with cli.warm.preload set to preload and two
// tools whose commands are "x" and "ledger list".
func warmManifest(preload string) []byte {
	ledger := `{"name": "ledger_list", "title": "T", "description": "D", "command": ["ledger", "list"], ` + hints + `}`
	return []byte(`{"version": 1, "cli": {"command": "aeat", "warm": {"python": "pkg.cli:main", "preload": ` + preload +
		`}}, "tools": [` + tool("a") + `, ` + ledger + `]}`)
}

// cli.warm.preload: "click" or "none" as before; a list of modules every
// verb loads; or lists by command path (issue 28, item 4), "*" for every
// verb — "click" in any of them walks the tree.
func TestWarmPreload(t *testing.T) {
	for _, tc := range []struct {
		name    string
		preload string
		walk    string
		list    []string
	}{
		{"click", `"click"`, "click", nil},
		{"none", `"none"`, "", nil},
		{"a list", `["click", "pkg.a", "pkg.b:setup"]`, "click", []string{"pkg.a", "pkg.b:setup"}},
		{"by command path", `{"ledger list": ["pkg.ledger", "pkg.shared"], "*": ["click", "pkg.shared", "pkg.core"], "x": ["pkg.x", "pkg.ledger"]}`,
			"click", []string{"pkg.shared", "pkg.core", "pkg.ledger", "pkg.x"}},
		{"by command path, no walk", `{"x": ["pkg.x"]}`, "", []string{"pkg.x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := annotations.Parse(warmManifest(tc.preload), "m.json")
			require.NoError(t, err)
			w := m.CLI.Warm
			assert.Equal(t, tc.walk, w.Preload)
			assert.Equal(t, tc.list, w.PreloadList(), "every verb's first, then by path, each module once")
			assert.Empty(t, m.Warnings)
		})
	}
}

func TestWarmPreloadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, preload string
		want          []string
	}{
		{"unknown word", `"walk"`, []string{`m.json: cli.warm.preload: "walk": must be "click" (walk the Click or Typer tree), "none", a list of modules or an object of lists by command path`}},
		{"a number", `3`, []string{`m.json: cli.warm.preload: must be "click", "none", a list of modules or an object of lists by command path`}},
		{"not a module", `["pkg.a", "pkg a", 3]`, []string{
			`m.json: cli.warm.preload[1]: "pkg a" is not "module" nor "module:function"`,
			`m.json: cli.warm.preload[2]: must be a string: "module", "module:function" or "click"`}},
		{"bad path", `{"ledger  list": ["pkg.a"], " x": ["pkg.b"]}`, []string{
			`m.json: cli.warm.preload[" x"]: " x" is not a command path (the words of a tool's command, one space apart) nor "*" (every verb)`,
			`m.json: cli.warm.preload["ledger  list"]: "ledger  list" is not a command path (the words of a tool's command, one space apart) nor "*" (every verb)`}},
		{"not a list", `{"x": "pkg.x"}`, []string{`m.json: cli.warm.preload["x"]: must be a list of modules`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := annotations.Parse(warmManifest(tc.preload), "m.json")
			require.Error(t, err)
			got := strings.Split(err.Error(), "\n")
			for _, w := range tc.want {
				assert.Contains(t, got, w)
			}
		})
	}
}

// A command path no tool has is likely a stale list: loaded all the same,
// and said once.
func TestWarmPreloadStalePath(t *testing.T) {
	m, err := annotations.Parse(warmManifest(`{"ledger lst": ["pkg.a"], "ledger list": ["pkg.b"]}`), "m.json")
	require.NoError(t, err)
	assert.Equal(t, []string{"pkg.b", "pkg.a"}, m.CLI.Warm.PreloadList())
	assert.Equal(t, []string{"cli.warm.preload names command paths no tool has (their modules are still preloaded): ledger lst"}, m.Warnings)
}
