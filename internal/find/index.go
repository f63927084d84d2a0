package find

import "github.com/aeat-mcp/aeat-mcp/internal/annotations"

// Index is what the ranking knows of one set of tools: their words, each
// once, and which tools' fields hold each. It is built whole by [NewIndex]
// and never written after, so any number of [Index.Rank] calls may read it
// at once.
type Index struct {
	idx rankIndex
}

// NewIndex indexes tools for [Index.Rank]. cliCommand is the command the
// tools run (a manifest's cli.command: a bare name or a path, on any OS):
// for aeat the index also holds what a person says when they want each
// verb (paraphrases.json) and what people asked of it, with the tools that
// answered (examples.json); for any other program, or "", only the tools'
// own texts. Building it reads every tool's texts once (its cost for
// aeat's 300 is in BENCHMARKS.md), so a caller that may never be asked
// builds it at the first query.
func NewIndex(tools []*annotations.Tool, cliCommand string) *Index {
	return &Index{newRankIndex(tools, paraphrasesFor(cliCommand)).withExamples(examplesFor(cliCommand))}
}

// Rank returns the tools that match at least one of text's words, best
// first; none for a text of only stop words or punctuation ([HasWords]).
func (x *Index) Rank(text string) []*annotations.Tool {
	hits := x.idx.rank(text)
	out := make([]*annotations.Tool, len(hits))
	for i, h := range hits {
		out[i] = h.tool
	}
	return out
}

// HasWords reports whether text has a word the ranking looks for: not
// only stop words ("the of a", "de la") or punctuation. A request
// without one is no request, where one whose words match no tool is a
// request that found nothing.
func HasWords(text string) bool { return len(words(text)) > 0 }
