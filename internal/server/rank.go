package server

import (
	"math"
	"sort"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// How aeat_mcp_find ranks tools (docs/catalog.md): a query's words against
// each tool's name, title, param names, description and the CLI's own help
// in every language it speaks (cli_help) — a small scoring function over
// words, no index service. A word counts once, at the best field it
// matches. Tools that match more of the query rank first, each word
// counting by how rare it is among the tools (a word every tool has says
// little); ties go by score, then name.
//
// Across languages: a request in Spanish finds the CLI's Spanish help, one
// in English its English help and the tool's own words; words are compared
// without accents and by their stems, so that "movimientos" finds
// "movimiento", "dividir" finds "divide" and "importar" finds "import".

// fieldWeights are what a word found in each field is worth: the name says
// what the verb is, the description only mentions things.
// The CLI's help in each language is weighed as the tool's own texts
// are: its first sentence as the title (which is, in the manifest's
// language, that very sentence), the rest as the description — so that a
// request in Spanish is worth what the same request in English is.
var fieldWeights = [...]float64{fieldName: 6, fieldTitle: 4, fieldHelpTitle: 4, fieldParams: 2, fieldDescription: 1, fieldHelp: 1}

const (
	fieldName = iota
	fieldTitle
	// fieldHelpTitle is the first sentence of the CLI's own help in every
	// language it speaks (cli_help); fieldHelp the rest.
	fieldHelpTitle
	fieldParams
	fieldDescription
	fieldHelp
	fieldCount
)

// Match strengths of one query word against one word of a tool.
const (
	matchExact = 1.0
	// matchSynonym: what a match of a word that means the same
	// (lexicon.go) is worth, times the strength of that match.
	matchSynonym = 0.8
	// matchInflected: the two words share their stem ("movimientos",
	// "movimiento"; "dividir", "divide"; "importar", "import").
	matchInflected = 0.8
	// matchPrefix: the query word, of minWordPrefix letters or more,
	// starts the tool's ("notif" in "notifications").
	matchPrefix   = 0.7
	minWordPrefix = 4
	// matchStart: the tool's word, of minStart letters or more, starts the
	// query word ("notifications" for "notificationsx").
	matchStart = 0.6
	minStart   = 4
	// matchShared: the two words start alike for minShared letters or
	// more — the same word in the model's language and the tool's
	// ("notificación", "notifications"; "certificado", "certificate").
	matchShared = 0.5
	minShared   = 6
)

// rankWord is a word of a tool or a query, with its stem.
type rankWord struct{ word, stem string }

// rankEntry is one tool as the ranking sees it: its words, per field.
type rankEntry struct {
	tool  *annotations.Tool
	words [fieldCount][]rankWord
}

// rankIndex holds the words of the tools a catalog can reach.
type rankIndex []rankEntry

func newRankIndex(tools []*annotations.Tool) rankIndex {
	idx := make(rankIndex, 0, len(tools))
	for _, t := range tools {
		var e rankEntry
		e.tool = t
		var params, helpTitle, help []string
		for _, p := range t.Params {
			params = append(params, words(p.Name)...)
		}
		for _, h := range t.CLIHelp {
			first, rest := firstSentence(h)
			helpTitle = append(helpTitle, words(first)...)
			help = append(help, words(rest)...)
		}
		for f, ws := range [fieldCount][]string{
			fieldName:        words(t.Name),
			fieldTitle:       words(t.Title),
			fieldHelpTitle:   dedupe(helpTitle),
			fieldParams:      dedupe(params),
			fieldDescription: words(t.Description),
			fieldHelp:        dedupe(help),
		} {
			e.words[f] = stemmed(ws)
		}
		idx = append(idx, e)
	}
	return idx
}

// ranked is a tool that matched, with how well.
type ranked struct {
	tool *annotations.Tool
	// coverage is the query's words the tool matched, each by its weight
	// (how rare it is among the tools).
	coverage float64
	score    float64
}

// rank returns the tools that match at least one of the query's words, best
// first. A query of only stop words or punctuation matches nothing.
func (idx rankIndex) rank(q string) []ranked {
	query := words(q)
	whole := strings.Join(query, "_")
	// Each word of the query, then the words that mean the same.
	terms := make([][]rankWord, len(query))
	for j, w := range query {
		terms[j] = stemmed(append([]string{w}, synonyms[w]...))
	}
	// best[i][j]: how well query word j matches tool i (0: not at all).
	best := make([][]float64, len(idx))
	found := make([]int, len(terms)) // how many tools each word matches
	for i := range idx {
		best[i] = make([]float64, len(terms))
		for j, alts := range terms {
			for a, alt := range alts {
				strength := 1.0
				if a > 0 {
					strength = matchSynonym
				}
				for f := 0; f < fieldCount; f++ {
					best[i][j] = max(best[i][j], bestMatch(alt, idx[i].words[f])*strength*fieldWeights[f])
				}
			}
			if best[i][j] > 0 {
				found[j]++
			}
		}
	}
	weight := make([]float64, len(terms))
	for j, n := range found {
		if n > 0 {
			weight[j] = math.Log(1 + float64(len(idx))/float64(n))
		}
	}
	var out []ranked
	for i := range idx {
		var r ranked
		for j := range terms {
			if best[i][j] > 0 {
				r.coverage += weight[j] * best[i][j]
				r.score += best[i][j]
			}
		}
		if r.coverage == 0 {
			continue
		}
		if whole != "" && strings.Contains(idx[i].tool.Name, whole) {
			r.score += fieldWeights[fieldName] // the words, in order, in the name
		}
		r.tool = idx[i].tool
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.coverage != b.coverage {
			return a.coverage > b.coverage
		}
		if a.score != b.score {
			return a.score > b.score
		}
		return a.tool.Name < b.tool.Name
	})
	return out
}

// bestMatch is how well q matches the best of ws.
func bestMatch(q rankWord, ws []rankWord) float64 {
	best := 0.0
	for _, w := range ws {
		switch {
		case w.word == q.word:
			return matchExact
		case w.stem == q.stem:
			best = max(best, matchInflected)
		case len(q.word) >= minWordPrefix && strings.HasPrefix(w.word, q.word):
			best = max(best, matchPrefix)
		case len(w.word) >= minStart && strings.HasPrefix(q.word, w.word):
			best = max(best, matchStart)
		case sharedPrefix(q.word, w.word) >= minShared:
			best = max(best, matchShared)
		}
	}
	return best
}

// firstSentence cuts a help text after its first sentence (or line), as
// generate makes a title of it.
func firstSentence(s string) (first, rest string) {
	end := len(s)
	if i := strings.Index(s, ". "); i >= 0 {
		end = i + 1
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < end {
		end = i
	}
	return s[:end], s[end:]
}
