package find

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aeatTree is the real aeat's pinned command tree.
const aeatTree = "../../testdata/aeat-cli/commands.json"

// TestParaphrases_CoverTheTree: paraphrases.json names only verbs of the
// real aeat's pinned tree, every one of them (a leaf: a group is never
// called), each with phrases in both languages the CLI speaks, each phrase
// with words the ranking reads and said once.
func TestParaphrases_CoverTheTree(t *testing.T) {
	raw, err := os.ReadFile(aeatTree)
	require.NoError(t, err)
	var tree []struct {
		Path []string `json:"path"`
	}
	require.NoError(t, json.Unmarshal(raw, &tree))
	verbs := map[string]bool{}
	for _, v := range tree {
		verbs[strings.Join(v.Path, " ")] = true
	}
	require.Len(t, verbs, 303, "the pinned tree")

	ps := aeatParaphrases.get()
	for verb, p := range ps {
		assert.True(t, verbs[verb], "%q is not a verb of the real aeat (%s)", verb, aeatTree)
		for lang, phrases := range map[string][]string{"es": p.ES, "en": p.EN} {
			assert.GreaterOrEqual(t, len(phrases), 2, "%s: %s: at least two phrases", verb, lang)
			seen := map[string]bool{}
			for _, phrase := range phrases {
				assert.NotEmpty(t, words(phrase), "%s: %s: %q has no word the ranking reads", verb, lang, phrase)
				assert.False(t, seen[strings.ToLower(phrase)], "%s: %s: %q twice", verb, lang, phrase)
				seen[strings.ToLower(phrase)] = true
			}
		}
	}
	for verb := range verbs {
		assert.Contains(t, ps, verb, "a verb of the real aeat without paraphrases")
	}
}

// TestParaphrasesFor: the phrases are aeat's, read for a manifest whose
// program is aeat however it is named, and for no other.
func TestParaphrasesFor(t *testing.T) {
	for _, command := range []string{"aeat", "/usr/local/bin/aeat", `C:\Program Files\cadrumo\AEAT.EXE`, "aeat.exe", "./bin/aeat"} {
		assert.NotEmpty(t, paraphrasesFor(command), command)
	}
	for _, command := range []string{"", "gh", "aeat-mcp", "/opt/aeat/bin/cadrumo", "notaeat"} {
		assert.Nil(t, paraphrasesFor(command), command)
	}
}

// TestRank_Paraphrases: a verb is found by what a person says for it, in
// words its name and help never use; the more so when the request says a
// whole paraphrase.
func TestRank_Paraphrases(t *testing.T) {
	tools := []*annotations.Tool{
		{Name: "google_logout", Title: "Clear the refresh token and metadata", Command: []string{"config", "google", "logout"}},
		{Name: "google_folder_set", Title: "Bind a Google Drive folder id", Command: []string{"config", "google", "folder", "set"}},
		{Name: "deudas_latest", Title: "Show the most recent deudas snapshot", Command: []string{"app", "live", "deudas", "latest"}},
		{Name: "overview_status", Title: "Show profile, ledger, and modelo readiness", Command: []string{"app", "overview", "status"}},
	}
	ps := map[string]verbParaphrases{
		"config google logout":     {ES: []string{"desconectar Google Drive"}, EN: []string{"disconnect Google Drive"}},
		"app live deudas latest":   {ES: []string{"cuánto debo a Hacienda"}, EN: []string{"how much do I owe the tax agency"}},
		"app overview status":      {ES: []string{"cómo va todo"}, EN: []string{"overall state of my taxes"}},
		"config google folder set": {ES: []string{"elegir la carpeta de Drive"}, EN: []string{"choose the Drive folder"}},
	}
	with, without := newRankIndex(tools, ps), newRankIndex(tools, nil)

	assert.Equal(t, "google_logout", rankNames(with.rank("disconnect Google Drive"), 1)[0])
	assert.NotEqual(t, []string{"google_logout"}, rankNames(without.rank("disconnect Google Drive"), 1), "no word of its help says so")
	assert.Equal(t, []string{"deudas_latest"}, rankNames(with.rank("¿cuánto le debo a Hacienda?"), 1))
	// Without them, "debo" is to owe (rankwords.go's withDeber), which the
	// deudas reader's own title says; "cómo va todo", no word of any help.
	assert.Equal(t, []string{"deudas_latest"}, rankNames(without.rank("¿cuánto le debo a Hacienda?"), 1))
	assert.Equal(t, []string{"overview_status"}, rankNames(with.rank("cómo va todo"), 1))
	assert.Empty(t, without.rank("cómo va todo"))
	assert.Equal(t, []string{"overview_status"}, rankNames(with.rank("overall state of my taxes"), 1))
}
