package generate

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSuggest: each tool whose hints were guessed gets a suggestion with
// its evidence; none is taken until a person deletes its review key.
func TestSuggest(t *testing.T) {
	flag := func(name string) Param {
		return Param{Name: name, Kind: "option", Opts: []string{"--" + name}, Type: "boolean", IsFlag: true}
	}
	tree := []Command{
		{Path: []string{}, Group: true, Program: "tool"},
		{Path: []string{"repo", "list"}, ShortHelp: "List repositories"},
		{Path: []string{"repo", "delete"}, ShortHelp: "Delete a repository", Params: []Param{flag("yes")}},
		{Path: []string{"repo", "create"}, ShortHelp: "Create a repository", Params: []Param{flag("dry-run")}},
		{Path: []string{"cache", "frob"}, ShortHelp: "Frobnicate the cache", Help: "Frobnicate the cache. This cannot be undone."},
		{Path: []string{"sync"}, ShortHelp: "Bring it up to date", Params: []Param{flag("force")}},
		{Path: []string{"whatever"}, ShortHelp: "Do the thing", Unread: []string{`arguments: could not read "(A | B/C…)" in the usage: they are one list, args`}},
		{Path: []string{"graded"}, ShortHelp: "List grades", Classification: &Classification{ReadOnly: true, Idempotent: true}},
	}
	res, err := Generate(tree, Options{})
	require.NoError(t, err)
	list, data := Suggest(res)
	byName := map[string]Suggestion{}
	for _, s := range list {
		byName[s.Name] = s
	}
	assert.NotContains(t, byName, "graded", "the CLI classified it: nothing guessed")
	for name, want := range map[string]struct {
		guess    string
		evidence []string
		readOnly bool
	}{
		"repo_list": {guessReads, []string{`name: "list", a word of verbs that read`, `help: "List repositories"`, "flags: none of --dry-run, --yes, --force"}, true},
		"repo_delete": {guessDestroy, []string{`name: "delete", a word of verbs that destroy`, `help: "Delete a repository"`,
			"flags: --yes (the CLI asks for a yes)"}, false},
		"repo_create": {guessWrites, []string{`name: "create", a word of verbs that write`, `help: "Create a repository"`,
			"flags: --dry-run (it has a dry run: it changes something)"}, false},
		"cache_frob": {guessDestroy, []string{`name: "frob" says nothing either way`, `help says "cannot be undone"`, "flags: none of --dry-run, --yes, --force"}, false},
		"sync":       {guessWrites, []string{`name: "sync", a word of verbs that write`, "flags: --force (it can be forced)"}, false},
		"whatever":   {guessUnknown, []string{`name: "whatever" says nothing either way`, "flags: none of --dry-run, --yes, --force"}, false},
	} {
		s, ok := byName[name]
		require.True(t, ok, name)
		assert.Equal(t, want.guess, s.Review.Guess, name)
		assert.Equal(t, want.evidence, s.Review.Evidence, name)
		assert.Equal(t, want.readOnly, s.Annotations[hintReadOnly], name)
	}
	assert.Equal(t, []string{`arguments: could not read "(A | B/C…)" in the usage: they are one list, args`}, byName["whatever"].Review.Unread)
	assert.True(t, byName["cache_frob"].Annotations[hintDestructive], "what destroys keeps the cautious hints")

	_, err = Generate(tree, Options{Overrides: data, OverridesName: "suggested.json"})
	require.Error(t, err, "a suggestion is not an override until reviewed")
	assert.Contains(t, err.Error(), `suggested.json: tools[0] ("cache_frob"): a suggestion not reviewed yet: check its evidence against the CLI, keep or change its annotations, then delete "review"`)

	var file map[string]any
	require.NoError(t, json.Unmarshal(data, &file))
	for _, e := range file["tools"].([]any) {
		delete(e.(map[string]any), "review") // the person's review
	}
	reviewed, err := json.Marshal(file)
	require.NoError(t, err)
	res, err = Generate(tree, Options{Overrides: reviewed})
	require.NoError(t, err)
	assert.Empty(t, res.Loaded.Warnings, "every hint now set by a person")
	assert.True(t, tool(t, res, "repo_list").Hints.ReadOnly)
}
