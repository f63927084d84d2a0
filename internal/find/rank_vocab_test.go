package find

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/require"
)

// The ranking compares a query with the index's distinct words once
// (rankIndex.scoreVocab); before, it compared every query word with every
// word of every field of every tool (refMatch, kept here as it was). The
// two must rank alike, bit for bit.

// refMatch is how every tool matched q, pair by pair: the ranking's match
// before the vocab.
func refMatch(idx rankIndex, q rankQuery) []toolMatch {
	out := make([]toolMatch, len(idx.entries))
	for i, e := range idx.entries {
		m := toolMatch{best: make([]float64, len(q.terms)), verb: make([]float64, len(q.terms))}
		for j, alts := range q.terms {
			m.best[j], m.verb[j] = refMatchTerm(idx, e, alts)
		}
		for _, w := range idx.wordsOf(e.command) {
			if !refMatches(q, w) {
				m.extra++
			}
		}
		for _, p := range e.phrases {
			n := 0
			for _, w := range idx.wordsOf(p) {
				if refMatches(q, w) {
					n++
				}
			}
			if n >= minPhraseWords {
				m.phrase = max(m.phrase, float64(n)/float64(len(p)))
			}
		}
		out[i] = m
	}
	return out
}

func refMatchTerm(idx rankIndex, e rankEntry, alts []rankTerm) (best, verb float64) {
	for _, alt := range alts {
		for f := 0; f < fieldCount; f++ {
			if alt.number && f != fieldName || alt.param && f != fieldParams {
				continue
			}
			best = max(best, alt.match(idx.wordsOf(e.words[f]))*alt.strength*fieldWeights[f])
		}
		if !alt.param && alt.match(idx.wordsOf(e.verb)) >= matchInflected {
			verb = max(verb, alt.strength)
		}
	}
	return best, verb
}

// refMatches reports whether any of q's words finds w.
func refMatches(q rankQuery, w rankWord) bool {
	for _, alts := range q.terms {
		for _, t := range alts {
			if !t.param && t.match([]rankWord{w}) > 0 {
				return true
			}
		}
	}
	return false
}

// wordsOf are the words of ids.
func (idx rankIndex) wordsOf(ids []wordID) []rankWord {
	out := make([]rankWord, len(ids))
	for i, id := range ids {
		out[i] = idx.vocab[id]
	}
	return out
}

// requireSameAsReference: idx ranks query as refMatch does — the same
// tools, in the same order, with the same coverage and score, bit for bit.
func requireSameAsReference(t *testing.T, idx rankIndex, query string) {
	t.Helper()
	q := newRankQuery(query)
	got, want := idx.match(q), refMatch(idx, q)
	require.Equal(t, want, got, "%q: the matches", query)
	a, b := idx.rankMatches(q, got), idx.rankMatches(q, want)
	require.Equal(t, len(b), len(a), "%q", query)
	for i := range b {
		require.Same(t, b[i].tool, a[i].tool, "%q: place %d", query, i)
		require.Equal(t, math.Float64bits(b[i].coverage), math.Float64bits(a[i].coverage), "%q: %s's coverage", query, b[i].tool.Name)
		require.Equal(t, math.Float64bits(b[i].score), math.Float64bits(a[i].score), "%q: %s's score", query, b[i].tool.Name)
	}
}

// allRankRequests are every request of every held-out set.
func allRankRequests() []string {
	var out []string
	for _, set := range [][]rankRequest{
		tunedTo, heldOut, heldOutLater, heldOutSealed, heldOutSealed2, heldOutSealed3, heldOutSealed4, heldOutSealed5,
		heldOutSealed6, heldOutSealed7, heldOutSealed8, heldOutSealed9, heldOutSealed10, heldOutSealed11, heldOutSealed12, heldOutSealed13,
	} {
		for _, r := range set {
			out = append(out, r.query)
		}
	}
	return out
}

// rankFuzzSeeds are requests of every kind the ranking reads apart: empty,
// stop words, numbers, periods, years, paths, questions, two-sense words,
// long, invalid UTF-8.
var rankFuzzSeeds = []string{
	"", "the of a", "  --- ", "zzzqqq", "¿?¡!", "ledger categories", "notificación pull", "certificate secret set",
	"modelo 303 review package verify", "036", "m036 borrador 100", "Q2 2025", "segundo trimestre de 2026",
	"import ~/Downloads/n26.pdf", `C:\certs\me.p12 certificado`, "¿cuándo tengo que pagar el 130?",
	"file the 303", "a CSV file", "listo list", "cargos cargar", "notif", "notificationsx", "am I logged in?",
	"how do I import movimientos", "\xff\xfe", strings.Repeat("debo ir a ", 50),
}

func TestRank_VocabSameAsReference(t *testing.T) {
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	full := NewIndex(m.Tools, m.CLI.Command).idx
	bare := newRankIndex(m.Tools, nil)
	queries := append(allRankRequests(), rankFuzzSeeds...)
	for _, query := range queries {
		requireSameAsReference(t, full, query)
	}
	for _, query := range slices.Concat(heldOutSealed13, tunedTo) {
		requireSameAsReference(t, bare, query.query) // no paraphrases: no phrases to say
	}
	for _, query := range rankFuzzSeeds {
		requireSameAsReference(t, bare, query)
	}
	// Requests made of the tools' own words and the held-out sets', in
	// random order and number: every kind of pair the vocab holds.
	var pool []string
	for _, w := range full.vocab {
		pool = append(pool, w.word)
	}
	for _, query := range queries {
		pool = append(pool, strings.Fields(query)...)
	}
	r := rand.New(rand.NewPCG(53, 53))
	for range 200 {
		ws := make([]string, 1+r.IntN(8))
		for i := range ws {
			ws[i] = pool[r.IntN(len(pool))]
		}
		requireSameAsReference(t, full, strings.Join(ws, " "))
	}
}

// FuzzRank_SameAsReference: any request ranks as the reference ranks it.
func FuzzRank_SameAsReference(f *testing.F) {
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(f, err)
	idx := NewIndex(m.Tools, m.CLI.Command).idx
	for _, s := range rankFuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { requireSameAsReference(t, idx, s) })
}
