package find

import (
	"slices"
	"strings"
)

// A word the CLI uses in two senses, for aeat_mcp_find (rank.go): English
// "file" is a document on disk ("import a CSV file", the --file that
// `ledger import` and `censo file` read) and the act of filing a return
// ("ready to file", `work file`, Spanish "presentar"). The lexicon
// (lexicon.go) has it in both synonym groups, so a request in one sense
// found the tools of the other: "presentar el modelo 303" found
// `reconcile file`, which reads a PDF, first. A word is told its sense
// by the words next to it — in a request and in a tool's texts alike —
// and a tool's own command word by what the tool takes (a param of that
// name: a thing) or what its texts say (other words of one sense: "filed",
// "presentada"); a word of only one of the two groups has that group's
// sense. Two senses that are both known and differ never match; an
// unknown sense matches either, as before.

// senseThing names, for each word used in two senses, a word of the group
// that is its sense as a thing; the word's other group is its sense as an
// act. "Record" is both: a record kept ("what the agency has on record",
// registro) and to record one ("record this expense", anotar) — the act
// asks for a tool that writes (rankquery.go's asksToRecord), the thing
// does not.
var senseThing = map[string]string{"file": "fichero", "log": "bitacora", "record": "registro"}

// A two-sense word right after a thingCue, or one word later ("a CSV
// file"), is a thing; right after an actCue, or the first of several words
// ("file the 303"), an act.
var (
	thingCues = &wordSet{words: []string{"a", "an", "the", "this", "that", "these", "those", "each", "every", "one", "my", "your",
		"our", "their", "his", "her", "its", "some", "any", "which", "whose", "another"}}
	actCues = &wordSet{words: []string{"to", "i", "we", "you", "they", "can", "could", "should", "must", "will", "would", "may",
		"might", "need", "please", "not", "t", "already"}}
)

// A sense is a synonym group's index in synonymGroups, plus one; 0 is not
// known.
type senses struct {
	// thing and act are each two-sense word's senses.
	thing, act map[string]int
	// fixed is the sense of each word of only one of those groups.
	fixed map[string]int
	// groups are each word's synonym groups, by index.
	groups map[string][]int
}

// wordSenses is built from synonymGroups at the first query.
var wordSenses = &lazy[senses]{build: func() senses {
	s := senses{thing: map[string]int{}, act: map[string]int{}, fixed: map[string]int{}, groups: map[string][]int{}}
	for i, g := range synonymGroups {
		for _, w := range g {
			s.groups[w] = append(s.groups[w], i)
		}
	}
	for w, thing := range senseThing {
		for _, i := range s.groups[w] {
			if slices.Contains(synonymGroups[i], thing) {
				s.thing[w] = i + 1
			} else {
				s.act[w] = i + 1
			}
		}
	}
	for w := range senseThing {
		for _, sense := range []int{s.thing[w], s.act[w]} {
			for _, o := range synonymGroups[sense-1] {
				if _, twoSenses := senseThing[o]; !twoSenses {
					s.fixed[o] = sense
				}
			}
		}
	}
	return s
}}

// inTexts is the sense each two-sense word has in texts, from the words
// next to it: none where nothing tells it, 0 where two places tell two.
func (s senses) inTexts(texts ...string) map[string]int {
	var out map[string]int
	conflicting := map[string]bool{}
	for _, text := range texts {
		if !mentionsTwoSense(text) {
			continue // most texts: not worth cutting into words again
		}
		ts := tokens(text)
		for i, w := range ts {
			if _, ok := senseThing[w]; !ok || conflicting[w] {
				continue
			}
			sense := 0
			switch {
			case i > 0 && actCues.has(ts[i-1]), i == 0 && len(ts) > 1:
				sense = s.act[w]
			case i > 0 && thingCues.has(ts[i-1]), i > 1 && thingCues.has(ts[i-2]):
				sense = s.thing[w]
			default:
				continue
			}
			if out == nil {
				out = map[string]int{}
			}
			if prev, seen := out[w]; seen && prev != sense {
				conflicting[w], sense = true, 0
			}
			out[w] = sense
		}
	}
	return out
}

// mentionsTwoSense reports whether text may hold a two-sense word.
func mentionsTwoSense(text string) bool {
	lower := strings.ToLower(text)
	for w := range senseThing {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// of is w's sense where the words next to it told inTexts.
func (s senses) of(w string, inTexts map[string]int) int {
	if sense, ok := s.fixed[w]; ok {
		return sense
	}
	return inTexts[w]
}

// mark gives each of ws its sense where the words next to it told inTexts.
func (s senses) mark(ws []rankWord, inTexts map[string]int) []rankWord {
	for i := range ws {
		ws[i].sense = s.of(ws[i].word, inTexts)
	}
	return ws
}

// ofTool is the sense a tool gives its command's two-sense words: a thing
// when it takes a param of that name, else the one sense its texts' other
// words have (work file: "filed", "presentada"), else not known.
func (s senses) ofTool(command, paramNames []string, texts ...string) map[string]int {
	if !slices.ContainsFunc(command, func(w string) bool { _, ok := senseThing[w]; return ok }) {
		return nil
	}
	out := map[string]int{}
	var said []int
	for _, text := range texts {
		for _, w := range words(text) {
			if sense, ok := s.fixed[w]; ok && !slices.Contains(said, sense) {
				said = append(said, sense)
			}
		}
	}
	for w := range senseThing {
		switch {
		case slices.Contains(paramNames, w):
			out[w] = s.thing[w]
		case slices.Contains(said, s.thing[w]) != slices.Contains(said, s.act[w]):
			out[w] = s.act[w]
			if slices.Contains(said, s.thing[w]) {
				out[w] = s.thing[w]
			}
		}
	}
	return out
}

// things is each two-sense word's sense as a thing.
func (s senses) things() map[string]int {
	return s.thing
}

// synonymsIn are w's synonyms (lexicon.go) with their senses, those of
// its groups that are its sense when it has one (sense, 0: all): "file"
// as an act is "presentar" and "submit", not "fichero".
func (s senses) synonymsIn(w string, sense int) []rankWord {
	var out []rankWord
	for _, i := range s.groups[w] {
		if sense != 0 && (i+1 == s.thing[w] || i+1 == s.act[w]) && i+1 != sense {
			continue
		}
		for _, o := range synonymGroups[i] {
			if o == w {
				continue
			}
			osense := s.fixed[o]
			if _, twoSenses := senseThing[o]; twoSenses {
				osense = i + 1
			}
			if j := slices.IndexFunc(out, func(r rankWord) bool { return r.word == o }); j >= 0 {
				if out[j].sense != osense {
					out[j].sense = 0
				}
				continue
			}
			out = append(out, rankWord{word: o, stem: stem(o), sense: osense})
		}
	}
	return out
}
