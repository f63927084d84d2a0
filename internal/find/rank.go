package find

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// How aeat_mcp_find ranks tools (docs/catalog.md): a query's words against
// each tool's name, title, param names, description, the CLI's own help
// in every language it speaks (cli_help) and, for aeat, what a person says
// when they want the verb (rankparaphrases.go) — a small scoring function over
// words, no index service. A word counts once, at the best field it
// matches. Tools that match more of the query rank first, each word
// counting by how rare it is among the tools (a word every tool has says
// little); ties go by score, then name.
//
// What a request asks besides its words (rankquery.go) then weighs each
// tool's match: a question that wants an answer prefers the tools that
// only read, a request to write a thing down the tools that write, a
// request to act the tools whose verb is that action, and
// every request the tool that is what it asked for and no more (the
// fewest words of its command not asked for). Last, for aeat, a request
// near one people asked before raises the tools that one wanted
// (rankexamples.go).
//
// Across languages: a request in Spanish finds the CLI's Spanish help, one
// in English its English help and the tool's own words; words are compared
// without accents and by their stems, so that "movimientos" finds
// "movimiento", "dividir" finds "divide" and "importar" finds "import";
// and a word of two senses by the one the words next to it give it
// (ranksense.go): "a CSV file" is not "file the 303". Two words the
// lexicon has in no group together are never joined by their stems
// ("listo" is not "list"), and what the catalog says of most of its
// verbs (commonSentences) finds none of them.

// fieldWeights are what a word found in each field is worth: the name says
// what the verb is, the description only mentions things.
// The CLI's help in each language is weighed as the tool's own texts
// are: its first sentence as the title (which is, in the manifest's
// language, that very sentence), the rest as the description — so that a
// request in Spanish is worth what the same request in English is.
//
// A paraphrase (rankparaphrases.go) says what a person wants when they
// want the verb, so its words weigh as the help's first sentence does,
// less a little: the help is the CLI's own, a paraphrase one way to say it.
var fieldWeights = [...]float64{fieldName: 6, fieldTitle: 4, fieldHelpTitle: 4, fieldParaphrase: paraphraseWeight, fieldParams: 2, fieldDescription: 1, fieldHelp: 1}

const paraphraseWeight = 3

// A request that says the words of one of a verb's paraphrases asks for
// that verb as a person asks for it: its match counts up to phraseWhole
// more, in proportion to the share of the paraphrase's words it says, when
// it says minPhraseWords of them or more (one word in common is not a
// phrase said).
const (
	phraseWhole    = 0.75
	minPhraseWords = 2
)

const (
	fieldName = iota
	fieldTitle
	// fieldHelpTitle is the first sentence of the CLI's own help in every
	// language it speaks (cli_help); fieldHelp the rest.
	fieldHelpTitle
	// fieldParaphrase is what a person says when they want the verb, in
	// each language the CLI speaks (paraphrases.json).
	fieldParaphrase
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
	// matchRelated: what a match of a word that asks for nearly the same
	// (lexicon.go's relatedVerbs) is worth, times the strength of that
	// match.
	matchRelated = 0.5
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

// How a request's intent reorders the tools that match its words
// (rankquery.go tells the intent): each is a factor on a tool's coverage.
const (
	// askNotReadOnly: a question that asks to know ("am I logged in?",
	// "¿qué casillas tiene el 130?") is answered by a tool that reads;
	// one that changes something is worth this much of its match.
	askNotReadOnly = 0.7
	// recordReadOnly: a request to write a thing down ("anótalo",
	// "record this expense") is done by a tool that writes; one that only
	// reads is worth this much of its match — "me han pagado el alquiler
	// de mayo, anótalo" is ledger add, not the ledger's list, though that
	// list's paraphrases say alquiler.
	recordReadOnly = 0.7
	// askedThing: a which-question's thing ("¿en qué casilla…?") is what
	// the answer is: where a tool is named for it, by the word itself (its
	// verb: modelo casilla, ledger categories), worth this many times its
	// weight — not a thing no verb is ("what details…"), nor one a verb
	// means only by the lexicon ("qué parte del IVA…" is not to split).
	askedThing = 1.5
	// verbDisagrees: a request to act names its action ("calcular la
	// declaración", "encrypt the package"); where it does, a tool whose
	// verb (its command's last word) is not that action is worth this much
	// of its match — "calcular la declaración de IVA" is the calculate
	// verb, not the IVA wallet's balance.
	verbDisagrees = 0.7
	// minVerbTools: a query word names an action when at least this many
	// tools have it (or a word that means the same) as their verb: list,
	// show, remove, pull… A verb only one tool has is as often a noun
	// ("backlog", "agenda", "casilla").
	minVerbTools = 2
	// extraWordCost: each word of a tool's command the query did not ask
	// for makes it this much less of a match — of the tools that match
	// equally, the one that is what was asked and no more comes first
	// ("comprobar la configuración": config check, not config auth
	// apoderado check).
	extraWordCost = 0.2
)

// rankWord is a word of a tool or a query, with its stem and, for a word
// of the two senses ranksense.go tells apart, its sense (0: not known).
type rankWord struct {
	word, stem string
	sense      int
}

// rankEntry is one tool as the ranking sees it: its words, per field, each
// as its place in the index's vocabulary.
type rankEntry struct {
	tool  *annotations.Tool
	words [fieldCount][]wordID
	// command is the words of the tool's command path ("app", "modelo",
	// "review", "package", "encrypt", "recipient"); verb those of its last
	// element, what the tool does.
	command, verb []wordID
	// phrases are the words of each of its paraphrases, apart.
	phrases [][]wordID
}

// rankIndex holds the words of the tools a catalog can reach.
//
// A query word's match with a tool's word depends on the two words alone
// (rankTerm.match), and a field's match is the best of its words'. So the
// tools' words are kept once each, in vocab, and a query is compared with
// every distinct word once (scoreVocab) rather than with every word of
// every field of every tool: aeat's 300 tools say far fewer distinct words
// than they say words.
type rankIndex struct {
	entries []rankEntry
	vocab   []rankWord
	lookup  vocabLookup
	// postings[id]: the tools' fields (and verbs) that hold vocab word id.
	postings [][]posting
	// examples: what people asked and which tools answered
	// (rankexamples.go); empty for a CLI that has none.
	examples exampleIndex
}

// posting is one tool's field that holds a word: a field of fieldCount,
// or fieldVerb, the tool's verb.
type posting struct {
	entry int32
	field int8
}

// fieldVerb is a posting's field for a tool's verb (rankEntry.verb).
const fieldVerb = fieldCount

// wordID is a word's place in a rankIndex's vocab.
type wordID int32

// newRankIndex indexes tools; paraphrases are their CLI's verbs' phrases
// (paraphrasesFor), by command path, nil when it has none.
func newRankIndex(tools []*annotations.Tool, paraphrases map[string]verbParaphrases) rankIndex {
	v := vocabulary{ids: map[rankWord]wordID{}}
	entries := make([]rankEntry, 0, len(tools))
	common := commonSentences(tools)
	for _, t := range tools {
		entries = append(entries, newRankEntry(t, paraphrases[strings.Join(commandPath(t.Command), " ")].all(), common, &v))
	}
	idx := rankIndex{entries: entries, vocab: v.words, lookup: newVocabLookup(v.words), postings: make([][]posting, len(v.words))}
	for i, e := range entries {
		for f := range fieldCount + 1 {
			ids := e.verb
			if f < fieldCount {
				ids = e.words[f]
			}
			for _, id := range ids {
				idx.postings[id] = append(idx.postings[id], posting{int32(i), int8(f)})
			}
		}
	}
	return idx
}

// withExamples is idx that also ranks by sets' examples (rankexamples.go).
func (idx rankIndex) withExamples(sets []exampleSet) rankIndex {
	idx.examples = newExampleIndex(sets, idx.entries)
	return idx
}

// minCommonSentence: a sentence that this many tools' descriptions say
// word for word — or all of them, in a catalog of fewer, but never one
// tool alone — is the catalog's, not the tool's.
const minCommonSentence = 5

// commonSentences are the sentences minCommonSentence or more of the
// tools' descriptions say word for word: what a manifest says of most of
// its verbs ("Needs the user's aeat login session (`aeat config login`).",
// "Local: it does not reach the network."). They tell no tool from
// another, and they put their words in nearly every tool: "login" was
// found in 280 of aeat's 300, so a request to log in counted it for
// nothing.
func commonSentences(tools []*annotations.Tool) map[string]bool {
	n := map[string]int{}
	for _, t := range tools {
		for _, s := range dedupe(sentences(t.Description)) {
			n[s]++
		}
	}
	common := map[string]bool{}
	least := max(2, min(minCommonSentence, len(tools)))
	for s, k := range n {
		if k >= least {
			common[s] = true
		}
	}
	return common
}

// sentences are text's sentences, each with its full stop.
func sentences(text string) []string {
	var out []string
	for _, s := range strings.SplitAfter(text, ". ") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// withoutSentences is text without the sentences in drop.
func withoutSentences(text string, drop map[string]bool) string {
	var kept []string
	for _, s := range sentences(text) {
		if !drop[s] {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, " ")
}

// newRankEntry is t's words, each field's with the sense the words next
// to a two-sense word give it there (ranksense.go); phrases are its
// paraphrases; common the sentences its description shares with many
// tools (commonSentences), left out.
func newRankEntry(t *annotations.Tool, phrases []string, common map[string]bool, v *vocabulary) rankEntry {
	e := rankEntry{tool: t}
	description := withoutSentences(t.Description, common)
	s := wordSenses.get()
	path := commandPath(t.Command)
	var command []string
	for _, w := range path {
		command = append(command, words(w)...)
	}
	var params, paramNames, helpTitle, help, firsts, rests []string
	for _, p := range t.Params() {
		params = append(params, words(p.Name)...)
		paramNames = append(paramNames, p.Name)
	}
	texts := []string{t.Title, description}
	for _, h := range t.CLIHelp() {
		first, rest := firstSentence(h)
		firsts, rests, texts = append(firsts, first), append(rests, rest), append(texts, h)
		helpTitle = append(helpTitle, words(first)...)
		help = append(help, words(rest)...)
	}
	own := s.ofTool(command, paramNames, texts...)
	if len(path) > 0 {
		e.verb = v.internSet(s.mark(stemmed(words(path[len(path)-1])), own))
	}
	e.command = v.intern(s.mark(stemmed(dedupe(command)), own))
	for _, p := range phrases {
		if ws := words(p); len(ws) >= minPhraseWords {
			e.phrases = append(e.phrases, v.intern(s.mark(stemmed(ws), s.inTexts(p))))
		}
	}
	told := [fieldCount]map[string]int{
		fieldName:        own,
		fieldTitle:       s.inTexts(t.Title),
		fieldHelpTitle:   s.inTexts(firsts...),
		fieldParaphrase:  s.inTexts(phrases...),
		fieldParams:      s.things(), // a param is a thing the tool takes
		fieldDescription: s.inTexts(description),
		fieldHelp:        s.inTexts(rests...),
	}
	for f, ws := range [fieldCount][]string{
		// The name and the command path: a name may be shortened to
		// fit hosts' limits ("rp" for review-package), the path never.
		fieldName:        dedupe(append(words(t.Name), command...)),
		fieldTitle:       words(t.Title),
		fieldHelpTitle:   dedupe(helpTitle),
		fieldParaphrase:  phraseWords(phrases),
		fieldParams:      dedupe(params),
		fieldDescription: words(description),
		fieldHelp:        dedupe(help),
	} {
		e.words[f] = v.internSet(s.mark(stemmed(ws), told[f]))
	}
	return e
}

// commandPath is a command without the fixed options that may follow the
// verb's path ("--secrets-stdin").
func commandPath(command []string) []string {
	for i, w := range command {
		if strings.HasPrefix(w, "-") {
			return command[:i]
		}
	}
	return command
}

// ranked is a tool that matched, with how well.
type ranked struct {
	tool *annotations.Tool
	// coverage is the query's words the tool matched, each by its weight
	// (how rare it is among the tools), times what the request's intent
	// makes of the tool.
	coverage float64
	score    float64
}

// toolMatch is how one tool matched a query.
type toolMatch struct {
	// best[j]: how well query word j matches the tool (0: not at all).
	best []float64
	// verb[j]: query word j, or one that means the same or nearly, is
	// the tool's verb: the strength of the best that is (0: none).
	verb []float64
	// extra is how many words of the tool's command no query word matched.
	extra int
	// phrase is how much of the best of the tool's paraphrases the query
	// says: the share of its words, when minPhraseWords or more (0: none).
	phrase float64
}

// match is how every tool matched q: each query word's alternatives, by
// the tools' fields that hold the vocab words they match (postings) — in
// any field its kind may match (a number only the name, an argument only
// the params); and the strength of the best that is a tool's verb.
func (idx rankIndex) match(q rankQuery) []toolMatch {
	qs := idx.scoreVocab(q)
	out := make([]toolMatch, len(idx.entries))
	for i := range out {
		out[i] = toolMatch{best: make([]float64, len(q.terms)), verb: make([]float64, len(q.terms))}
	}
	for j, alts := range q.terms {
		for k, alt := range alts {
			for _, h := range qs.hits[j][k] {
				for _, p := range idx.postings[h.id] {
					out[p.entry].add(j, alt, h.m, int(p.field))
				}
			}
		}
	}
	for i, e := range idx.entries {
		out[i].extra = e.unmatchedCommandWords(qs.said)
		out[i].phrase = e.phraseSaid(qs.said)
	}
	return out
}

// add counts that query word j's alternative alt matches a word of field
// f (or the verb) m well.
func (tm *toolMatch) add(j int, alt rankTerm, m float64, f int) {
	switch {
	case f == fieldVerb:
		if !alt.param && m >= matchInflected {
			tm.verb[j] = max(tm.verb[j], alt.strength)
		}
	case alt.number && f != fieldName || alt.param && f != fieldParams:
		// a field its kind does not match
	default:
		tm.best[j] = max(tm.best[j], m*alt.strength*fieldWeights[f])
	}
}

// unmatchedCommandWords is how many words of the tool's command no word
// of the query matched (said: queryScores.said).
func (e rankEntry) unmatchedCommandWords(said []bool) int {
	n := 0
	for _, id := range e.command {
		if !said[id] {
			n++
		}
	}
	return n
}

// phraseSaid is the share of the best of the tool's paraphrases the
// query says, when it says minPhraseWords or more of it (0: none).
func (e rankEntry) phraseSaid(said []bool) float64 {
	best := 0.0
	for _, p := range e.phrases {
		n := 0
		for _, id := range p {
			if said[id] {
				n++
			}
		}
		if n >= minPhraseWords {
			best = max(best, float64(n)/float64(len(p)))
		}
	}
	return best
}

// rank returns the tools that match at least one of the query's words, best
// first. A query of only stop words or punctuation matches nothing.
func (idx rankIndex) rank(text string) []ranked {
	q := newRankQuery(text)
	return idx.rankMatches(q, idx.match(q))
}

// rankMatches orders the tools by how they matched q (match).
func (idx rankIndex) rankMatches(q rankQuery, matches []toolMatch) []ranked {
	weight, verbs := idx.wordWeights(q, matches)
	// The request names an action when, asking for no answer, one of its
	// words (or a synonym: "new" nearly asks to create, but names no
	// action) is a verb of the CLI.
	acts := !q.asks && slices.ContainsFunc(verbs, func(n int) bool { return n >= minVerbTools })
	near := idx.examples.nearExample(q.stems, len(idx.entries))
	var out []ranked
	for i, m := range matches {
		var r ranked
		agrees := false
		for j := range q.terms {
			if m.best[j] > 0 {
				r.coverage += weight[j] * m.best[j]
				r.score += m.best[j]
			}
			agrees = agrees || (m.verb[j] > 0 && verbs[j] >= minVerbTools)
		}
		if r.coverage == 0 {
			continue
		}
		t := idx.entries[i].tool
		r.coverage *= intentFactor(q, t, acts && !agrees)
		r.coverage /= 1 + extraWordCost*float64(m.extra)
		r.coverage *= 1 + phraseWhole*m.phrase
		if near != nil {
			r.coverage *= 1 + exampleWeight*near[i]
		}
		if q.whole != "" && strings.Contains(t.Name, q.whole) {
			r.score += fieldWeights[fieldName] // the words, in order, in the name
		}
		r.tool = t
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

// wordWeights are what each of q's words is worth (how rare it is among
// the tools that match it, a which-question's thing more) and how many
// tools have it, or a word that means the same, as their verb.
func (idx rankIndex) wordWeights(q rankQuery, matches []toolMatch) (weight []float64, verbs []int) {
	found := make([]int, len(q.terms)) // how many tools each word matches
	verbs = make([]int, len(q.terms))  // … and has as its verb, by itself or a synonym
	for _, m := range matches {
		for j := range q.terms {
			if m.best[j] > 0 {
				found[j]++
			}
			if m.verb[j] >= matchSynonym {
				verbs[j]++
			}
		}
	}
	weight = make([]float64, len(q.terms))
	for j, n := range found {
		if n > 0 {
			weight[j] = math.Log(1 + float64(len(idx.entries))/float64(n))
		}
	}
	if q.asked >= 0 && slices.ContainsFunc(matches, func(m toolMatch) bool { return m.verb[q.asked] >= 1 }) {
		weight[q.asked] *= askedThing
	}
	return weight, verbs
}

// intentFactor is what q's intent makes of t's match: a question that
// wants an answer, of a tool that writes; a request to write a thing down,
// of one that only reads; a request that names an action, of a tool whose
// verb is another (disagrees).
func intentFactor(q rankQuery, t *annotations.Tool, disagrees bool) float64 {
	f := 1.0
	if q.asks && !t.Hints.ReadOnly {
		f *= askNotReadOnly
	}
	if q.records && t.Hints.ReadOnly {
		f *= recordReadOnly
	}
	if disagrees {
		f *= verbDisagrees
	}
	return f
}

// bestMatch is how well q matches the best of ws.
func bestMatch(q rankWord, ws []rankWord) float64 {
	best := 0.0
	for _, w := range ws {
		if q.sense != 0 && w.sense != 0 && q.sense != w.sense {
			continue // "file" the document is not "file" the return
		}
		m := 0.0
		switch {
		case w.word == q.word:
			return matchExact
		case w.stem == q.stem:
			m = matchInflected
		case len(q.word) >= minWordPrefix && strings.HasPrefix(w.word, q.word):
			m = matchPrefix
		case len(w.word) >= minStart && strings.HasPrefix(q.word, w.word):
			m = matchStart
		case sharedPrefix(q.word, w.word) >= minShared:
			m = matchShared
		}
		// Asked only of a pair that matches and would count: most do
		// not, and the lexicon's look-up is the costlier test.
		if m > best && !falseFriends(q.word, w.word) {
			best = m // not "listo" (ready) for "list", though they share a stem
		}
	}
	return best
}

// falseFriends: a and b are both words of the lexicon (lexicon.go), as
// written or as their singular, and in no synonym group together — two
// words the table says mean different things, however alike they are
// written ("listo" and "list", "cargos" and "cargar"). Only the table's
// words are told apart so: of any other pair nothing is known.
func falseFriends(a, b string) bool {
	ga := lexiconGroupsOf(a)
	if ga == nil {
		return false
	}
	gb := lexiconGroupsOf(b)
	if gb == nil {
		return false
	}
	return !slices.ContainsFunc(ga, func(i int) bool { return slices.Contains(gb, i) })
}

// lexiconGroupsOf are w's synonym groups, by index, or its singular's;
// nil when the lexicon does not have it.
func lexiconGroupsOf(w string) []int {
	groups := wordSenses.get().groups
	if g, ok := groups[w]; ok {
		return g
	}
	for _, suffix := range []string{"es", "s"} {
		if rest, ok := strings.CutSuffix(w, suffix); ok {
			if g, ok := groups[rest]; ok {
				return g
			}
		}
	}
	return nil
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
