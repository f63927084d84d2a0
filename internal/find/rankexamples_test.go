package find

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"slices"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite examples.json from measuredSets")

// examplesWithout are aeat's examples but set's: what a request of that
// set is ranked with when it is measured.
func examplesWithout(set string) []exampleSet {
	return slices.DeleteFunc(slices.Clone(aeatExamples.get()), func(s exampleSet) bool { return s.Name == set })
}

// TestExamples_AreTheMeasuredSets: examples.json is measuredSets, set by
// set, request by request — one home for the requests, the Go sets with
// their writers' notes; `go test ./internal/find -run
// TestExamples_AreTheMeasuredSets -update` writes the file from them.
func TestExamples_AreTheMeasuredSets(t *testing.T) {
	var sets []exampleSet
	for _, s := range measuredSets {
		set := exampleSet{Name: s.name}
		for _, r := range s.reqs {
			set.Requests = append(set.Requests, example{Text: r.query, Tools: r.want})
		}
		sets = append(sets, set)
	}
	// One request a line: a new set's diff reads as its requests.
	var b bytes.Buffer
	line := func(v any) string {
		var l bytes.Buffer
		enc := json.NewEncoder(&l)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(v))
		return string(bytes.TrimSuffix(l.Bytes(), []byte("\n")))
	}
	b.WriteString("[\n")
	for i, set := range sets {
		b.WriteString(" {\"name\": " + line(set.Name) + ", \"requests\": [\n")
		for j, ex := range set.Requests {
			b.WriteString("  " + line(ex))
			if j < len(set.Requests)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(" ]}")
		if i < len(sets)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	if *update {
		require.NoError(t, os.WriteFile("examples.json", b.Bytes(), 0o644))
		return
	}
	assert.Equal(t, b.String(), string(examplesJSON), "examples.json is not measuredSets: go test ./internal/find -run TestExamples_AreTheMeasuredSets -update")
}

// TestExamples_NameRealTools: every example's tool is one of the whole
// aeat's, so none is left out unseen when the index is built.
func TestExamples_NameRealTools(t *testing.T) {
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	names := map[string]bool{}
	for _, tl := range m.Tools {
		names[tl.Name] = true
	}
	n := 0
	for _, set := range aeatExamples.get() {
		for _, ex := range set.Requests {
			n++
			for _, tool := range ex.Tools {
				assert.True(t, names[tool], "%s: %q wants %s, not a tool of the whole aeat", set.Name, ex.Text, tool)
			}
		}
	}
	assert.Greater(t, n, 800, "the examples are the measured sets' requests")
}

// TestRank_NearExampleRaisesItsTools: a request near an earlier one ranks
// that one's tool higher. Set 22's son with a disability, written after
// set 17's two kids, was missed by the words alone (profile create came
// first); with set 17's request as the only example, its tool is found.
// And an example reorders only what the words found: the same tools come
// back, none added.
func TestRank_NearExampleRaisesItsTools(t *testing.T) {
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := newRankIndex(m.Tools, paraphrasesFor(m.CLI.Command)) // words alone
	const request = "Add my son to my profile: born 2 March 2014, 65% disability, lives with me. It should count for the renta."
	const want = "config_profile_descendiente_add"
	without := idx.rank(request)
	assert.NotContains(t, rankNames(without, 3), want, "the words alone miss it (else this test shows nothing)")

	kids := []exampleSet{{Name: "sealed17", Requests: []example{
		{Text: "add my two kids to my profile so they count on my tax return", Tools: []string{want}},
	}}}
	with := idx.withExamples(kids).rank(request)
	assert.Contains(t, rankNames(with, 3), want)
	assert.ElementsMatch(t, rankNames(without, len(without)), rankNames(with, len(with)), "the same tools, reordered")

	farToo := append(kids, exampleSet{Name: "far", Requests: []example{
		{Text: "export the ledger to a spreadsheet", Tools: []string{want}},
	}})
	assert.Equal(t, rankNames(with, 10), rankNames(idx.withExamples(farToo).rank(request), 10), "an example that shares nothing with the request changes nothing")
}

// TestExamples_AeatsAlone: the examples are requests of aeat's users, read
// for a manifest that runs aeat (by any path, on any OS) and for no other
// program, whose index ranks by words alone.
func TestExamples_AeatsAlone(t *testing.T) {
	for _, cmd := range []string{"aeat", "/usr/local/bin/aeat", `C:\Tools\aeat.exe`} {
		assert.NotEmpty(t, examplesFor(cmd), cmd)
	}
	for _, cmd := range []string{"aws", "gh", "", "/opt/aeat-tools/other"} {
		assert.Empty(t, examplesFor(cmd), cmd)
		assert.Empty(t, NewIndex(nil, cmd).idx.examples.tools, cmd)
	}
}

// TestRank_HeldOutNeverSeesItsOwnSet: a set is measured without its own
// requests among the examples — else it would find itself.
func TestRank_HeldOutNeverSeesItsOwnSet(t *testing.T) {
	for _, set := range measuredSets {
		for _, other := range examplesWithout(set.name) {
			assert.NotEqual(t, set.name, other.Name)
		}
	}
	assert.Len(t, aeatExamples.get(), len(measuredSets))
}
