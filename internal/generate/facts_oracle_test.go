package generate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/aeatfacts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFacts_AgreeWithTheOracle: generate reads the real aeat's facts.json
// with a reader of its own, and the tests' oracle (internal/aeatfacts) with
// another — kept apart on purpose, so that the oracle does not share a bug
// with the code it judges. Over the pinned copies (testdata/aeat-cli) the
// two must give every verb of the tree the same facts: network use and
// what it does there, login exemption, the --secrets-stdin shape, a
// success envelope with exit 2, the cross-field rules. (The two readers'
// path expansions disagreed on where an option begins — "--" in the
// oracle, "-" here; both stop at "-" now.)
func TestFacts_AgreeWithTheOracle(t *testing.T) {
	cmds, err := aeatfacts.Commands()
	require.NoError(t, err)
	oracle, err := aeatfacts.Load()
	require.NoError(t, err)
	raw, err := os.ReadFile(filepath.Join(aeatfacts.Dir(), "facts.json"))
	require.NoError(t, err)
	ours, err := ParseFacts(raw)
	require.NoError(t, err)

	verbs := map[string]bool{}
	for path, c := range cmds {
		if !c.Hidden {
			verbs[path] = true
		}
	}
	require.NotEmpty(t, verbs)
	var notes []string
	network := ours.networkOf(verbs, &notes)
	for _, path := range slices.Sorted(func(yield func(string) bool) {
		for p := range verbs {
			if !yield(p) {
				return
			}
		}
	}) {
		n := network[path]
		assert.Equal(t, oracle.NetworkOf(path), n.value, "network of %q", path)
		if !n.catchAll {
			assert.Equal(t, oracle.NetworkWhat(path), n.what, "what %q does on the network", path)
		}
		assert.Equal(t, oracle.Exempt(path), slices.Contains(ours.Login.ExemptLeafPaths, path), "login exemption of %q", path)
		shape, reads := oracle.StdinShape(path)
		var ourShape map[string]string
		ourReads := false
		for _, v := range ours.Stdin.Verbs {
			if v.Path == path {
				ourShape, ourReads = v.Shape, true
				break
			}
		}
		assert.Equal(t, reads, ourReads, "whether %q reads --secrets-stdin", path)
		assert.Equal(t, shape, ourShape, "the --secrets-stdin shape of %q", path)
		ourExit2 := slices.ContainsFunc(ours.Exit2WithSuccess.Verbs, func(v verbWhen) bool { return v.Path == path })
		assert.Equal(t, oracle.ExitsTwoWithSuccess(path), ourExit2, "exit 2 with a success envelope for %q", path)
		assert.Equal(t, len(oracle.RulesOf(path)), len(ours.rulesOf(path)), "cross-field rules of %q", path)
	}
	t.Logf("%d verbs compared; generate's notes: %v", len(verbs), notes)
}
