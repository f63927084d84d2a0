package generate

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/aeatfacts"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
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
	raw, err := os.ReadFile(filepath.Join(proctest.AeatFacts(), "facts.json"))
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
	for _, path := range slices.Sorted(maps.Keys(verbs)) {
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

// TestTree_AgreesWithTheOracle: the same for commands.json — generate's
// tree reader and the oracle's read every verb with the same flags,
// classification and parameters.
func TestTree_AgreesWithTheOracle(t *testing.T) {
	oracle, err := aeatfacts.Commands()
	require.NoError(t, err)
	raw, err := os.ReadFile(filepath.Join(proctest.AeatFacts(), "commands.json"))
	require.NoError(t, err)
	ours, err := ParseTree(raw)
	require.NoError(t, err)
	seen := 0
	for _, c := range ours {
		path := strings.Join(c.Path, " ")
		o := oracle[path]
		if c.Group && o == nil {
			continue // a group is no verb of the oracle's
		}
		require.NotNil(t, o, "the oracle has no verb %q", path)
		seen++
		assert.Equal(t, o.Hidden, c.Hidden, "%q hidden", path)
		assert.Equal(t, o.Deprecated, c.Deprecated, "%q deprecated", path)
		if c.Classification != nil {
			cl := c.Classification
			assert.Equal(t, [5]bool{o.Classification.ReadOnly, o.Classification.Destructive, o.Classification.Idempotent, o.Classification.OpenWorld, o.Classification.LiveWrite},
				[5]bool{cl.ReadOnly, cl.Destructive, cl.Idempotent, cl.OpenWorld, cl.LiveWrite}, "%q classification", path)
		}
		require.Len(t, c.Params, len(o.Params), "%q params", path)
		for i, p := range c.Params {
			op := o.Params[i]
			assert.Equal(t, []any{op.Name, op.Kind, op.Opts, op.Secondary, op.Type, op.Choices, op.Required, op.Multiple, op.IsFlag},
				[]any{p.Name, p.Kind, p.Opts, p.Secondary, p.Type, p.Choices, p.Required, p.Multiple, p.IsFlag}, "%q param %d", path, i)
			assert.Equal(t, numberText(op.Min), jsonNumberText(p.Min), "%q %s min", path, p.Name)
			assert.Equal(t, numberText(op.Max), jsonNumberText(p.Max), "%q %s max", path, p.Name)
		}
	}
	assert.Equal(t, len(oracle), seen, "every verb of the oracle read by generate")
}

func numberText(f *float64) string {
	if f == nil {
		return ""
	}
	return strconv.FormatFloat(*f, 'g', -1, 64)
}

func jsonNumberText(n *json.Number) string {
	if n == nil {
		return ""
	}
	f, err := n.Float64()
	if err != nil {
		return "unreadable " + n.String()
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
