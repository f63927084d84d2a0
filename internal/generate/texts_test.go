package generate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseTexts: a texts file that a generation could not rely on is
// refused, saying what is wrong.
func TestParseTexts(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"not json", `{`, "not a texts file"},
		{"no languages", `{"meta": {}, "commands": []}`, "meta.languages is empty"},
		{"no path", `{"meta": {"languages": ["en"]}, "commands": [{"help": {"en": "x"}}]}`, "commands[0]: no path"},
		{"twice", `{"meta": {"languages": ["en"]}, "commands": [{"path": ["a"], "help": {"en": "x"}}, {"path": ["a"], "help": {"en": "y"}}]}`, `commands[1]: "a" is given twice`},
		{"unknown language", `{"meta": {"languages": ["en"]}, "commands": [{"path": ["a"], "help": {"fr": "x"}}]}`, `language "fr" is not in meta.languages`},
		{"param language", `{"meta": {"languages": ["en"]}, "commands": [{"path": ["a"], "help": {"en": "x"}, "params": [{"name": "p", "help": {"de": "y"}}]}]}`, `param p: language "de"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTexts([]byte(tc.doc))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestTexts_FillAndApply: the first language's help fills what the tree
// lacks, never what it has, and every language goes to cli_help; texts of
// verbs the tree does not have are noted.
func TestTexts_FillAndApply(t *testing.T) {
	tx, err := ParseTexts([]byte(`{"meta": {"languages": ["en", "es"]}, "commands": [
		{"path": ["ledger", "import"], "help": {"en": "Import a statement.", "es": "Importa un extracto."},
		 "params": [{"name": "file", "help": {"en": "The file.", "es": "El fichero."}}]},
		{"path": ["ledger", "show"], "help": {"en": "Show it.", "es": "Lo muestra."}},
		{"path": ["gone"], "help": {"en": "Gone.", "es": "Ya no está."}}]}`))
	require.NoError(t, err)
	tree := []Command{
		{Path: []string{"ledger", "import"}, Params: []Param{{Name: "file"}, {Name: "dry_run"}}},
		{Path: []string{"ledger", "show"}, Help: "Its own help."},
	}
	var notes []string
	out := tx.fill(tree, &notes)
	assert.Equal(t, "Import a statement.", out[0].Help)
	assert.Equal(t, "The file.", out[0].Params[0].Help)
	assert.Empty(t, out[0].Params[1].Help)
	assert.Equal(t, "Its own help.", out[1].Help, "the tree's own help wins")
	assert.Empty(t, tree[0].Help, "the tree given is left as it was")
	assert.Equal(t, []string{"help texts of commands the tree does not have: gone"}, notes)

	cands := []*candidate{{cmd: &out[0], tool: map[string]any{}}, {cmd: &out[1], tool: map[string]any{"cli_help": map[string]any{"en": "an override's"}}}}
	tx.apply(cands)
	assert.Equal(t, map[string]any{"en": "Import a statement.", "es": "Importa un extracto."}, cands[0].tool["cli_help"])
	assert.Equal(t, map[string]any{"en": "an override's"}, cands[1].tool["cli_help"], "an override's own cli_help is kept")
}
