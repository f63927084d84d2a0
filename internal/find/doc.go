// Package find ranks a CLI's tools against a request in a person's words:
// how aeat_mcp_find, the catalog surface's search (docs/catalog.md),
// chooses the tools it answers with. It knows nothing of MCP: the server
// (internal/server, catalog.go) keeps the tool, its schema and limit, the
// answer's text and when the index is built; this package is only the
// order.
//
// # What it reads
//
// Each [annotations.Tool]'s own words — its name and command path, title,
// param names, description and the CLI's help in every language it speaks
// (cli_help) — and, for the real aeat only, what a person says when they
// want each of its verbs: paraphrases.json, a few phrases per verb in
// Spanish and English, keyed by command path and held to the CLI's pinned
// tree (rankparaphrases.go); and what people asked of it, with the tools
// that answered: examples.json, the requests of every set the ranking is
// measured on (rankexamples.go). [NewIndex] reads them once; [Index.Rank]
// orders the tools for one request; [HasWords] tells a request from one of
// only stop words.
//
// # How
//
// A small scoring function over words, no index service (rank.go): a word
// counts once, at the best field it matches, by how rare it is among the
// tools; tools that match more of the request come first. Words are cut,
// folded and stemmed in rankwords.go; lexicon.go holds the synonyms across
// the two languages, the phrases ("log in") and the irregular forms;
// ranksense.go tells the two senses of a word apart by its neighbours ("a
// CSV file", "file the 303"); rankquery.go reads what a request asks
// besides its words (a question, a request to write down or to act, a
// which-question's thing, a path, a period); rankexamples.go raises the
// tools an example near the request wanted; rankvocab.go keeps each
// distinct word once so that a request is compared with it once.
//
// # Where it is measured
//
// Requests with the tools that answer them: rank_test.go holds the set
// the ranking was tuned to (tunedTo) and the first held-out and sealed
// sets (heldOut … heldOutSealed6);
// rank_sealed7_test.go to rank_sealed24_test.go the sets written blind by
// people who never saw the ranker, each request's reasons in
// testdata/find/. TestRank_HeldOut holds each set's floor (the share
// found in the first three), each set ranked with every other set's
// examples and never its own; examples.json is those sets as data
// (TestExamples_AreTheMeasuredSets, -update writes it: a new set is
// measured once, then added to measuredSets and the file); TestRank_Folds (rank_folds_test.go, run with
// -v) logs the two folds of the blind sets a ranking change is judged by,
// one made from a fold's misses measured on the other. TestRank_*,
// TestLexicon_* and TestWords_* hold each rule to the requests it was
// made for; TestRank_VocabSameAsReference and FuzzRank_SameAsReference
// hold the vocab index to the match it replaced, every word with every
// word, bit for bit. Its speed, with the tool's round trip around it, is
// internal/server's BenchmarkFind.
package find
