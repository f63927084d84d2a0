package server

import (
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullAeatManifest is the whole real aeat, 300 tools.
const fullAeatManifest = "../../examples/aeat.full.manifest.json"

func rankNames(rs []ranked, n int) []string {
	var out []string
	for i, r := range rs {
		if i == n {
			break
		}
		out = append(out, r.tool.Name)
	}
	return out
}

// TestRank: aeat_mcp_find's ranking over the whole aeat finds a verb by the
// words a model would use — in its name, its title, a param, in Spanish
// with or without accents, by the start of a word or its plural — and a
// tool that matches more of the words comes first.
func TestRank(t *testing.T) {
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := newRankIndex(m.Tools)
	for _, tc := range []struct {
		query string
		top   string // the first tool
		in    int    // … or among the first in
	}{
		{"ledger categories", "app_ledger_categories", 1},
		{"app_ledger_categories", "app_ledger_categories", 1},
		{"LEDGER Categ", "app_ledger_categories", 1},
		{"remove a ledger transaction", "ledger_remove", 1},
		{"notifications pull", "notifications_pull", 1},
		{"notificación", "notifications_pull", 5},
		{"justificante", "justificante_pull", 3},
		{"certificate secret", "certificate_secret_set", 3},
	} {
		got := idx.rank(tc.query)
		require.NotEmpty(t, got, tc.query)
		assert.Contains(t, rankNames(got, tc.in), tc.top, "%q: %v", tc.query, rankNames(got, 5))
	}

	assert.Empty(t, idx.rank("the of a"), "stop words find nothing")
	assert.Empty(t, idx.rank("  --- "), "nor punctuation")
	assert.Empty(t, idx.rank("zzzqqq"))

	// Coverage first: a tool with both words beats one with either, even
	// when one word weighs more in the other's name.
	small := newRankIndex([]*annotations.Tool{
		{Name: "ledger_list", Title: "List the ledger"},
		{Name: "ledger_view", Title: "View one entry", Description: "Shows a transaction with its categories."},
		{Name: "categories", Title: "Categories"},
	})
	assert.Equal(t, []string{"ledger_view", "categories", "ledger_list"}, rankNames(small.rank("ledger categories"), 3))
}

// TestWords: what a query and a tool are cut into.
func TestWords(t *testing.T) {
	assert.Equal(t, []string{"pull", "modelo", "303", "notificacion"}, words("Pull a modelo-303 notificación, notificación"))
	assert.Equal(t, []string{"app", "ledger", "categories"}, words("app_ledger_categories"))
	assert.Empty(t, words("de la the"))
}
