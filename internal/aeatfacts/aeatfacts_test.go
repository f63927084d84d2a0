package aeatfacts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCopiesAreTheShared: the copies in testdata/aeat-cli are the
// originals, byte for byte, when those are beside the checkout.
func TestCopiesAreTheShared(t *testing.T) {
	shared := SharedDir()
	if shared == "" {
		t.Skip("../shared/aeat-cli is not beside this checkout: the pinned copies are all there is")
	}
	for _, name := range []string{"facts.json", "commands.json", "facts.md"} {
		want, err := os.ReadFile(filepath.Join(shared, name))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(proctest.AeatFacts(), name))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "testdata/aeat-cli/%s differs from the shared one: copy it again", name)
	}
}

func TestNetworkOf(t *testing.T) {
	f, err := Load()
	require.NoError(t, err)
	assert.Equal(t, "d08c5edfce2124f901adf8726c321c01823817e1", f.Meta.Commit)
	for path, want := range map[string]string{
		"app live filed list":         "true",
		"app live filed pull":         "true",
		"app live filed pull-all":     "true",
		"app live justificante pull":  "true",
		"app live notifications pull": "true",
		"app live expedientes pull":   "true",
		"app live deudas list":        "false",
		"app live deudas latest":      "false",
		"app live notifications list": "false",
		"app live expedientes view":   "false",
		"app live portals view":       "false",
		"config auth status":          "false",
		"app ledger import":           "conditional",
		"app ledger list":             "false",
		"config profile censo pull":   "true",
		// An alternative longer than the last words it replaces, or
		// naming an option after the verb.
		"app live borrador 100 list":   "false",
		"app live borrador 100 latest": "false",
		"app live verify list":         "false",
		"app live verify latest":       "false",
		"app live verify nif-iva":      "true",
		"app ledger classify":          "conditional",
		"app ledger split":             "conditional",
		"app ledger evidence extract":  "conditional",
	} {
		assert.Equal(t, want, f.NetworkOf(path), path)
	}
}

// TestNetworkPathsAreVerbs: every verb a network entry of facts.json names
// is a verb of commands.json — read otherwise, an entry silently names
// nothing and its verbs fall to the catch-all.
func TestNetworkPathsAreVerbs(t *testing.T) {
	f, err := Load()
	require.NoError(t, err)
	cmds, err := Commands()
	require.NoError(t, err)
	for _, n := range f.Network {
		if strings.HasPrefix(n.Path, "(all other") {
			continue
		}
		paths := expandPaths(n.Path, cmds)
		assert.Len(t, paths, len(strings.FieldsFunc(n.Path, func(r rune) bool { return r == '|' || r == ',' })), "%q", n.Path)
		for _, p := range paths {
			_, ok := cmds[p]
			assert.True(t, ok, "%q names %q, no verb of commands.json", n.Path, p)
		}
	}
}
