package find

import (
	_ "embed"
	"encoding/json"
	"path"
	"strings"
)

// What a person says when they want a verb of the real aeat, for
// aeat_mcp_find (rank.go): paraphrases.json holds, for each of the 303
// verbs of its pinned tree (testdata/aeat-cli/commands.json), a few
// phrases in each language the CLI speaks, keyed by the verb's command
// path ("app ledger import"). The CLI's help says what a verb does in the
// CLI's words ("Import bank statements or records into the accounting
// ledger"); a person asks in theirs ("upload the CSV my bank gave me",
// "¿cuánto le debo a Hacienda?"), and most requests the ranking missed
// used words the help never does. Each phrase was written from the verb's
// help (testdata/aeat-cli/help.json) and, where that was unclear, the
// CLI's source, and must be true of that verb: a phrase that points to
// the wrong verb sends a model to it.
//
// The phrases are about aeat only, so they are read only for a manifest
// whose program is aeat: another CLI's "config login" is not aeat's.

//go:embed paraphrases.json
var paraphrasesJSON []byte

// verbParaphrases are one verb's phrases, per language.
type verbParaphrases struct {
	ES []string `json:"es"`
	EN []string `json:"en"`
}

// all is every phrase of the verb, in both languages.
func (p verbParaphrases) all() []string {
	return append(append([]string(nil), p.ES...), p.EN...)
}

// phraseWords are the words of phrases, each phrase cut apart (a phrase's
// last word and the next's first never join as "log" "in" would).
func phraseWords(phrases []string) []string {
	var out []string
	for _, p := range phrases {
		out = append(out, words(p)...)
	}
	return dedupe(out)
}

// aeatParaphrases is paraphrases.json read, at the first query (not at
// package init, which every start pays before it can answer initialize).
// The file is part of the binary and held to the tree by a test, so a
// broken one is a bug of the build: it panics.
var aeatParaphrases = &lazy[map[string]verbParaphrases]{build: func() map[string]verbParaphrases {
	var m map[string]verbParaphrases
	if err := json.Unmarshal(paraphrasesJSON, &m); err != nil {
		panic("find: paraphrases.json: " + err.Error())
	}
	return m
}}

// paraphrasesFor are the phrases of the verbs of the CLI a manifest runs
// (its cli.command: a bare name or a path, on any OS): aeat's for aeat,
// none for any other program.
func paraphrasesFor(command string) map[string]verbParaphrases {
	name := path.Base(strings.ReplaceAll(command, `\`, "/"))
	name = strings.TrimSuffix(strings.ToLower(name), ".exe")
	if name != "aeat" {
		return nil
	}
	return aeatParaphrases.get()
}
