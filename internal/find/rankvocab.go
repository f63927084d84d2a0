package find

import (
	"slices"
	"sort"
	"strings"
)

// The words of a rankIndex, each once (its vocab), and what a query finds
// among them: a query word's match with a tool's word depends on the two
// words alone (rankTerm.match), so a query is compared with each distinct
// word once, and only with those that could match it (vocabLookup).

// vocabulary gives each distinct word an id as an index is built.
type vocabulary struct {
	ids   map[rankWord]wordID
	words []rankWord
}

// intern is ws's ids, in order: a command's words and a paraphrase's are
// counted (unmatchedCommandWords, phraseSaid), each as often as said.
func (v *vocabulary) intern(ws []rankWord) []wordID {
	out := make([]wordID, len(ws))
	for i, w := range ws {
		id, ok := v.ids[w]
		if !ok {
			id = wordID(len(v.words))
			v.ids[w] = id
			v.words = append(v.words, w)
		}
		out[i] = id
	}
	return out
}

// internSet is ws's ids, each once: a field matches by its best word, so
// a word said twice in it is worth what it is once.
func (v *vocabulary) internSet(ws []rankWord) []wordID {
	ids := v.intern(ws)
	slices.Sort(ids)
	return slices.Compact(ids)
}

// queryScores are the words of an index's vocab a query's words match.
type queryScores struct {
	// hits[j][k]: the vocab words alternative k of query word j matches,
	// with how well (rankTerm.match of that word alone).
	hits [][][]vocabHit
	// said[id]: a word of the query, not an argument's name, finds vocab
	// word id (unmatchedCommandWords, phraseSaid).
	said []bool
}

// vocabHit is a vocab word a query's word matches, and how well.
type vocabHit struct {
	id wordID
	m  float64
}

// scoreVocab compares each of q's alternatives with every word of the
// vocab, once — an alternative two query words share (a synonym of both),
// once for both.
func (idx rankIndex) scoreVocab(q rankQuery) queryScores {
	type key struct {
		rankWord
		number bool
	}
	seen := map[key][]vocabHit{}
	qs := queryScores{hits: make([][][]vocabHit, len(q.terms)), said: make([]bool, len(idx.vocab))}
	for j, alts := range q.terms {
		qs.hits[j] = make([][]vocabHit, len(alts))
		for k, t := range alts {
			hits, ok := seen[key{t.rankWord, t.number}]
			if !ok {
				for _, id := range idx.lookup.candidates(t) {
					if m := t.match([]rankWord{idx.vocab[id]}); m > 0 {
						hits = append(hits, vocabHit{id, m})
					}
				}
				seen[key{t.rankWord, t.number}] = hits
			}
			qs.hits[j][k] = hits
			for _, h := range hits {
				qs.said[h.id] = qs.said[h.id] || !t.param
			}
		}
	}
	return qs
}

// vocabLookup finds the vocab words that may match a query word.
type vocabLookup struct {
	all            []wordID
	byWord, byStem map[string][]wordID
	// sorted: every id, by its word (bytewise), so that the words that
	// start alike are one run.
	sorted []wordID
	words  []rankWord
}

func newVocabLookup(vocab []rankWord) vocabLookup {
	l := vocabLookup{byWord: map[string][]wordID{}, byStem: map[string][]wordID{}, words: vocab}
	for i, w := range vocab {
		id := wordID(i)
		l.all = append(l.all, id)
		l.byWord[w.word] = append(l.byWord[w.word], id)
		l.byStem[w.stem] = append(l.byStem[w.stem], id)
	}
	l.sorted = slices.Clone(l.all)
	slices.SortFunc(l.sorted, func(a, b wordID) int { return strings.Compare(vocab[a].word, vocab[b].word) })
	return l
}

// candidates are the vocab words t may match, each once, by id: every word
// for a number (it may end any: "036" in "m036"); else those bestMatch may
// find — t's word or stem, a word it starts (minWordPrefix) or that starts
// it (minStart), or one it shares minShared letters with.
func (l vocabLookup) candidates(t rankTerm) []wordID {
	if t.number {
		return l.all
	}
	q := t.word
	out := append(slices.Clone(l.byWord[q]), l.byStem[t.stem]...)
	for n := minStart; n < len(q); n++ {
		out = append(out, l.byWord[q[:n]]...)
	}
	switch {
	case len(q) >= minShared:
		out = append(out, l.startingWith(q[:minShared])...)
	case len(q) >= minWordPrefix:
		out = append(out, l.startingWith(q)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// startingWith are the vocab words that start with prefix.
func (l vocabLookup) startingWith(prefix string) []wordID {
	i := sort.Search(len(l.sorted), func(i int) bool { return l.words[l.sorted[i]].word >= prefix })
	j := i
	for j < len(l.sorted) && strings.HasPrefix(l.words[l.sorted[j]].word, prefix) {
		j++
	}
	return l.sorted[i:j]
}
