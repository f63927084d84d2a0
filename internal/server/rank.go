package server

import (
	"sort"
	"strings"
	"unicode"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// How aeat_mcp_find ranks tools (docs/catalog.md): a query's words against
// each tool's name, title, param names and description — a small scoring
// function over words, no index service. A word counts once, at the best
// field it matches; a tool that matches more of the words ranks above one
// that matches fewer, whatever the weights; ties go by score, then name.

// fieldWeights are what a word found in each field is worth: the name says
// what the verb is, the description only mentions things.
var fieldWeights = [...]float64{fieldName: 6, fieldTitle: 4, fieldParams: 2, fieldDescription: 1}

const (
	fieldName = iota
	fieldTitle
	fieldParams
	fieldDescription
	fieldCount
)

// Match strengths of one query word against one word of a tool.
const (
	matchExact = 1.0
	// matchPrefix: the query word starts the tool's ("notif" in
	// "notifications").
	matchPrefix = 0.7
	// matchStem: the tool's word, of minStem letters or more, starts the
	// query word ("notifications" for "notification").
	matchStem     = 0.6
	minStem       = 4
	minWordPrefix = 2
	// matchShared: the two words start alike for minShared letters or
	// more — the same word in the model's language and the tool's
	// ("notificación", "notifications"; "certificado", "certificate").
	matchShared = 0.5
	minShared   = 6
)

// stopWords say nothing about a tool, in the languages its users ask in.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "for": true, "and": true, "or": true, "in": true,
	"on": true, "my": true, "is": true, "with": true, "by": true, "from": true,
	"de": true, "del": true, "la": true, "el": true, "los": true, "las": true, "un": true, "una": true, "y": true,
	"o": true, "en": true, "mi": true, "mis": true, "para": true, "por": true, "con": true,
}

// rankEntry is one tool as the ranking sees it: its words, per field.
type rankEntry struct {
	tool  *annotations.Tool
	words [fieldCount][]string
}

// rankIndex holds the words of the tools a catalog can reach.
type rankIndex []rankEntry

func newRankIndex(tools []*annotations.Tool) rankIndex {
	idx := make(rankIndex, 0, len(tools))
	for _, t := range tools {
		var e rankEntry
		e.tool = t
		e.words[fieldName] = words(t.Name)
		e.words[fieldTitle] = words(t.Title)
		e.words[fieldDescription] = words(t.Description)
		var params []string
		for _, p := range t.Params {
			params = append(params, words(p.Name)...)
		}
		e.words[fieldParams] = dedupe(params)
		idx = append(idx, e)
	}
	return idx
}

// ranked is a tool that matched, with how well.
type ranked struct {
	tool    *annotations.Tool
	matched int // query words found
	score   float64
}

// rank returns the tools that match at least one of the query's words, best
// first. A query of only stop words or punctuation matches nothing.
func (idx rankIndex) rank(query string) []ranked {
	terms := words(query)
	whole := strings.Join(terms, "_")
	var out []ranked
	for i := range idx {
		e := &idx[i]
		var r ranked
		for _, q := range terms {
			best := 0.0
			for f := 0; f < fieldCount; f++ {
				if m := bestMatch(q, e.words[f]) * fieldWeights[f]; m > best {
					best = m
				}
			}
			if best > 0 {
				r.matched++
				r.score += best
			}
		}
		if r.matched == 0 {
			continue
		}
		if whole != "" && strings.Contains(e.tool.Name, whole) {
			r.score += fieldWeights[fieldName] // the words, in order, in the name
		}
		r.tool = e.tool
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.matched != b.matched {
			return a.matched > b.matched
		}
		if a.score != b.score {
			return a.score > b.score
		}
		return a.tool.Name < b.tool.Name
	})
	return out
}

// bestMatch is how well q matches the best of ws.
func bestMatch(q string, ws []string) float64 {
	best := 0.0
	for _, w := range ws {
		switch {
		case w == q:
			return matchExact
		case len(q) >= minWordPrefix && strings.HasPrefix(w, q):
			best = max(best, matchPrefix)
		case len(w) >= minStem && strings.HasPrefix(q, w):
			best = max(best, matchStem)
		case sharedPrefix(q, w) >= minShared:
			best = max(best, matchShared)
		}
	}
	return best
}

// sharedPrefix is how many bytes a and b start with alike.
func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// words are s's words, lowercased and without accents, stop words and
// repeats: "Pull a modelo-303 notificación" is pull, modelo, 303,
// notificacion. Underscores and hyphens separate words.
func words(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			if w := b.String(); !stopWords[w] {
				out = append(out, w)
			}
			b.Reset()
		}
	}
	for _, r := range strings.ToLower(s) {
		if f, ok := folded[r]; ok {
			r = f
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else {
			flush()
		}
	}
	flush()
	return dedupe(out)
}

// folded are the accented letters of the sede's languages, without their
// accents: a model asks for "notificacion" as often as "notificación".
var folded = map[rune]rune{
	'á': 'a', 'à': 'a', 'ä': 'a', 'â': 'a', 'é': 'e', 'è': 'e', 'ë': 'e', 'ê': 'e',
	'í': 'i', 'ì': 'i', 'ï': 'i', 'î': 'i', 'ó': 'o', 'ò': 'o', 'ö': 'o', 'ô': 'o',
	'ú': 'u', 'ù': 'u', 'ü': 'u', 'û': 'u', 'ñ': 'n', 'ç': 'c', 'ŀ': 'l',
}

func dedupe(ws []string) []string {
	seen := make(map[string]bool, len(ws))
	out := ws[:0]
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
