package find

import (
	"slices"
	"strings"
	"unicode"
)

// What aeat_mcp_find (rank.go) reads in a request besides its words: the
// words that mean the same or nearly, and whether it asks to know
// something or to have something done.

// rankQuery is a request as the ranking reads it.
type rankQuery struct {
	// terms are the request's words, each followed by the words that mean
	// the same (lexicon.go) and those that ask for nearly the same.
	terms [][]rankTerm
	// whole is the request's words joined as a tool's name joins them.
	whole string
	// stems are its words' stems, each once: what it is compared with the
	// examples by (rankexamples.go).
	stems []string
	// asks: the request is a question that wants an answer, not an action
	// ("am I logged in?", "¿qué casillas tiene el modelo 130?"); not one
	// that asks how to act ("how do I import…", "¿cómo importo…?").
	asks bool
	// records: the request asks to write a thing down ("anótalo", "record
	// this expense", "¿cómo lo apunto?"), which a tool that only reads
	// cannot do.
	records bool
	// asked is the index in terms of the thing a which-question asks for
	// ("¿en qué casilla va el alquiler?", "which modelos can aeat export"),
	// -1 when none.
	asked int
}

// rankTerm is one word a query word may be found as.
type rankTerm struct {
	rankWord
	// strength is what finding it is worth: 1 for the query's own word,
	// matchSynonym for a word that means the same, matchRelated for one
	// that asks for nearly the same.
	strength float64
	// number: the word is all digits. A number in a request is what a tool
	// takes as an argument (a modelo, a casilla, a year, an amount), so it
	// finds only a tool named by it ("borrador 100"), never a text that
	// mentions it ("…from local Modelo 303 history").
	number bool
	// param: the term is the name of the argument a query word gives (the
	// period of "Q2" or "segundo trimestre", the year of "2025"): it finds
	// only a tool that takes that argument, by its param's name.
	param bool
}

func newRankQuery(text string) rankQuery {
	said, paths := withoutPaths(text)
	ws := words(said)
	q := rankQuery{whole: strings.Join(ws, "_"), stems: stemsOf(ws), asks: asksToKnow(text), terms: make([][]rankTerm, len(ws))}
	s := wordSenses.get()
	told := s.inTexts(said)
	for j, w := range ws {
		number := allDigits(w)
		add := func(strength float64, alts []rankWord) {
			for _, a := range alts {
				q.terms[j] = append(q.terms[j], rankTerm{rankWord: a, strength: strength, number: number})
			}
		}
		sense := s.of(w, told)
		q.records = q.records || !q.asks && asksToRecord(w, sense)
		add(1, []rankWord{{word: w, stem: stem(w), sense: sense}})
		// A word of a sense-told group takes the fellows of its sense; any
		// other its lexicon's, by itself, its singular or its stem.
		syn := s.synonymsIn(w, sense)
		if len(syn) == 0 {
			syn = s.mark(stemmed(synonymsOf(w)), nil)
		}
		add(matchSynonym, syn)
		add(matchRelated, s.mark(stemmed(relatedOf(w)), nil))
		if arg := argumentOf(w); arg != "" {
			q.terms[j] = append(q.terms[j], rankTerm{rankWord: rankWord{word: arg, stem: stem(arg)}, strength: matchRelated, param: true})
		}
	}
	q.asked = -1
	if q.asks {
		q.asked = slices.Index(ws, thingAsked(said))
	}
	if paths > 0 {
		q.terms = append(q.terms, pathTerm())
	}
	if asksWhen(text) {
		q.terms = append(q.terms, whenTerm())
	}
	if sharePercent(text) {
		q.terms = append(q.terms, shareTerm())
	}
	return q
}

// sharePercent: text gives a percentage ("solo el 70 % es del trabajo",
// "70% business") — a part of a thing, which words() reads as the bare
// number, a number that finds only a tool named by it.
func sharePercent(text string) bool {
	for i := 1; i < len(text); i++ {
		if text[i] != '%' {
			continue
		}
		j := i - 1
		if text[j] == ' ' && j > 0 {
			j-- // "70 %", as Spanish writes it
		}
		if text[j] >= '0' && text[j] <= '9' {
			return true
		}
	}
	return false
}

// shareTerm is what a percentage asks for besides its number: a tool that
// takes a share — ledger allocate's business_pct ("Business-use share
// from 0 to 1"), ratios set's ratio ("Applicable ratio between 0 and 1"),
// the prorrata's percentage — in the words the CLI's help says them.
func shareTerm() []rankTerm {
	var out []rankTerm
	for _, w := range []string{"porcentaje", "percentage"} {
		out = append(out, rankTerm{rankWord: rankWord{word: w, stem: stem(w)}, strength: matchRelated})
	}
	return out
}

// asksToRecord: w, of sense (ranksense.go), asks to write a thing down —
// a word of log's act group (lexicon.go: record, anotar, apuntar; log as
// an act) or a form of one the lexicon does not hold ("anota", "apunto",
// "apúntame"). Not a past form (pastEndings), nor a plural the lexicon
// holds the singular of: "records", "apuntes" are things kept.
func asksToRecord(w string, sense int) bool {
	if endsAny(w, pastEndings...) {
		return false
	}
	s := wordSenses.get()
	act := s.act["log"]
	if _, ok := s.groups[w]; ok {
		return sense == act
	}
	if lexiconGroupsOf(w) != nil {
		return false
	}
	return recordStems.get()[stem(w)]
}

// pastEndings end a verb's past forms, which tell of a thing done, not
// ask for it: "the expense I logged", "lo que apunté", "los gastos
// anotados" are records kept, which a request may ask to see.
var pastEndings = []string{"ed", "ado", "ada", "ados", "adas", "aron", "aste"}

// recordStems are the stems of log's act group's words, built at the
// first query.
var recordStems = &lazy[map[string]bool]{build: func() map[string]bool {
	out := map[string]bool{}
	for _, w := range synonymGroups[wordSenses.get().act["log"]-1] {
		out[stem(w)] = true
	}
	return out
}}

// whichWords ask which of a kind of thing: the word after them is it.
var whichWords = &wordSet{words: []string{"which", "what", "que", "cual", "cuales", "cuantos", "cuantas"}}

// thingAsked is the word a which-question asks for, as words() gives it:
// the one right after an interrogative among the text's first three
// words ("¿en qué casilla…?", "which box…", "what categories…"); "" when
// none, or when a verb follows it ("what am I allowed to do").
func thingAsked(text string) string {
	ts := tokens(text)
	for i := 0; i < min(3, len(ts)-1); i++ {
		if whichWords.has(ts[i]) {
			if ws := words(strings.Join(ts[i+1:], " ")); len(ws) > 0 && !stopWords.has(ts[i+1]) {
				return ws[0]
			}
			return ""
		}
	}
	return ""
}

// asksWhen: text is a question of when ("¿cuándo tengo que pagar el
// 130?", "until when can I file the 303?"), its interrogative among its
// first two words and asked: not "cuando"/"when" opening a statement
// ("cuando calculo el 303 me da error", "when I file, it fails"), which
// says when a thing happens and wants no deadline.
func asksWhen(text string) bool {
	ts := tokens(text)
	i := slices.IndexFunc(ts[:min(2, len(ts))], func(w string) bool { return w == "when" || w == "cuando" })
	return i >= 0 && asked(text, ts, i)
}

// whenAuxiliaries follow an English "when" that asks ("when is the 303
// due", "when do I pay"), where a statement's subject follows one that
// does not ("when I pay").
var whenAuxiliaries = &wordSet{words: []string{"is", "are", "am", "was", "were", "do", "does", "did", "can", "could",
	"should", "must", "will", "would", "shall", "may", "might", "have", "has"}}

// asked: the interrogative ts[i] of text asks. Spanish writes the
// question: an accent on "cuándo" or an opening "¿"; a closing "?" alone
// does when no comma shows a main clause after a "cuando" one ("cuando
// cobro una factura, ¿tengo que…?" asks, but not when). English asks by
// the auxiliary after "when" or the same closing "?".
func asked(text string, ts []string, i int) bool {
	trimmed := strings.TrimSpace(text)
	closing := strings.HasSuffix(trimmed, "?") && !strings.Contains(trimmed, ",")
	if ts[i] == "when" {
		return closing || (i+1 < len(ts) && whenAuxiliaries.has(ts[i+1]))
	}
	return strings.Contains(strings.ToLower(text), "cuándo") || strings.HasPrefix(trimmed, "¿") || closing
}

// whenTerm is what a question of when asks for besides its words: a date
// by which a thing is due — the CLI's deadline verbs (agenda: "upcoming
// and past-due obligations", calendar: "the deadline calendar"). "When" is
// a stop word, and without it "¿cuándo tengo que pagar el 130?" asked
// only to pay the 130.
func whenTerm() []rankTerm {
	return []rankTerm{{rankWord: rankWord{word: "deadline", stem: stem("deadline")}, strength: matchRelated}}
}

// pathParams are the names of the params a path is given as.
var pathParams = []string{"file", "path", "directory", "folder"}

// pathTerm is what a path in a request asks for: a tool that takes a
// file, a path or a directory, as a year asks for one that takes --year.
func pathTerm() []rankTerm {
	var out []rankTerm
	for _, w := range pathParams {
		out = append(out, rankTerm{rankWord: rankWord{word: w, stem: stem(w)}, strength: matchRelated, param: true})
	}
	return out
}

// withoutPaths is text with each file path in it ("~/Downloads/n26.pdf",
// "/Users/lucia/Descargas/extracto_enero.xlsx", C:\certs\me.p12)
// cut to its file's name, and how many there were. A path says where a
// thing is, not what is wanted: the folders it passes through ("Downloads",
// "Descargas") are words of the user's disk, not of the request, and
// would find the CLI's download verbs; the file's name and its extension
// ("n26-march.pdf") still say what it is. A directory's path is dropped
// whole.
func withoutPaths(text string) (string, int) {
	fields := strings.Fields(text)
	n := 0
	for i, f := range fields {
		core := strings.Trim(f, ",;:()¿?¡!\"'«»")
		core = strings.TrimRight(core, ".")
		if !isPath(core) {
			continue
		}
		n++
		base := core[strings.LastIndexAny(core, `/\`)+1:]
		if !hasExtension(base) {
			base = ""
		}
		fields[i] = base
	}
	if n == 0 {
		return text, 0
	}
	return strings.Join(fields, " "), n
}

// isPath: f is a file path — it starts as one does ("~/", "/", "./",
// C:\) or its last element, after a separator, is a file's name with
// an extension ("Descargas/extracto.xlsx"). Not "y/o", "IVA/IRPF",
// "70/30".
func isPath(f string) bool {
	sep := strings.LastIndexAny(f, `/\`)
	if sep < 0 {
		return false
	}
	if strings.HasPrefix(f, "~") || strings.HasPrefix(f, "/") || strings.HasPrefix(f, ".") ||
		len(f) > 2 && f[1] == ':' && (f[2] == '\\' || f[2] == '/') {
		return true
	}
	return hasExtension(f[sep+1:])
}

// hasExtension: name ends in a dot and two to four letters or digits, one
// of them a letter ("pdf", "xlsx", "p12").
func hasExtension(name string) bool {
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 {
		return false
	}
	ext := name[dot+1:]
	return len(ext) >= 2 && len(ext) <= 4 &&
		strings.IndexFunc(ext, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) < 0 &&
		strings.IndexFunc(ext, unicode.IsLetter) >= 0
}

// argumentOf is the name of the argument w is a value of, "" when none: a
// tax period ("q2", "2t", "t2"; words() makes "segundo trimestre" and
// "fourth quarter" one), a month, or a year (1900–2099). Modelo verbs take
// them as --period and --year, so a request that names one asks for a
// tool that takes it.
func argumentOf(w string) string {
	switch {
	case periodWords.has(w) || months.has(w) || isQuarter(w):
		return "period"
	case isYear(w):
		return "year"
	}
	return ""
}

// isQuarter: a quarter written short, its letter before or after its
// number ("q2", "t2", "2t", "2q").
func isQuarter(w string) bool {
	if len(w) != 2 {
		return false
	}
	letter := func(c byte) bool { return c == 'q' || c == 't' }
	number := func(c byte) bool { return c >= '1' && c <= '4' }
	return letter(w[0]) && number(w[1]) || number(w[0]) && letter(w[1])
}

// isYear: four digits from 1900 to 2099.
func isYear(w string) bool {
	return len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) &&
		allDigits(w)
}

// periodWords are what words() makes of a quarter said in words.
var periodWords = &wordSet{words: []string{"q1", "q2", "q3", "q4"}}

// months, in both languages ("may" is an English auxiliary, a stop word).
var months = &wordSet{words: []string{
	"january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december",
	"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "setiembre", "octubre", "noviembre", "diciembre",
}}

// match is how well t finds the best of ws: a number only as itself, or
// as the number of a word that is letters then it ("036" in "m036").
func (t rankTerm) match(ws []rankWord) float64 {
	if !t.number {
		return bestMatch(t.rankWord, ws)
	}
	for _, w := range ws {
		letters, ok := strings.CutSuffix(w.word, t.word)
		if ok && strings.IndexFunc(letters, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
			return matchExact
		}
	}
	return 0
}

// A question that wants an answer starts with one of askWords — an
// interrogative, or an English auxiliary, which opens a question by
// itself ("is my code set up") where a Spanish verb does not ("tengo un
// certificado nuevo" is a statement) — or is written as a question (¿…?);
// unless it starts as a request for a way to act (actWords, or "how"
// followed by one of howToWords).
var (
	askWords = &wordSet{words: []string{
		"what", "which", "when", "where", "who", "whose", "why", "is", "are", "am", "was", "were",
		"do", "does", "did", "have", "has", "any",
		"que", "cual", "cuales", "cuando", "donde", "quien", "quienes", "cuanto", "cuanta", "cuantos", "cuantas",
	}}
	actWords   = &wordSet{words: []string{"can", "could", "como", "puedo", "puede", "puedes", "podria", "podemos"}}
	howToWords = &wordSet{words: []string{"do", "does", "can", "could", "should", "would", "to", "i", "we"}}
)

// asksToKnow reports whether text is a question that wants an answer.
func asksToKnow(text string) bool {
	ts := tokens(text)
	if len(ts) == 0 {
		return false
	}
	switch {
	case asksHowTo(ts) || asksHowTo(tokens(lastQuestion(text))):
		return false
	case ts[0] == "when" || ts[0] == "cuando":
		// A clause opening a statement asks nothing ("cuando calculo el
		// 303 me da error"), unless a question follows it.
		return asksWhen(text) || strings.ContainsAny(text, "?¿")
	case ts[0] == "how":
		return len(ts) > 1 // "how much", "how many"
	}
	return askWords.has(ts[0]) || strings.ContainsAny(text, "?¿")
}

// asksHowTo: ts open a request for a way to act — "can you…", "¿puedo…?",
// "¿cómo…?", "how do I…" — not for an answer.
func asksHowTo(ts []string) bool {
	return len(ts) > 0 && (actWords.has(ts[0]) || ts[0] == "how" && len(ts) > 1 && howToWords.has(ts[1]))
}

// lastQuestion is the question a statement ends with, "" when none: what
// follows its last "¿" ("compré un ordenador, ¿cómo lo apunto?"), or the
// clause after its last comma when it ends in "?" ("I bought a laptop,
// how do I record it?"). Such a request tells what happened, then asks
// how to act on it: it wants a tool that acts, as "¿cómo lo apunto?"
// alone does.
func lastQuestion(text string) string {
	if i := strings.LastIndex(text, "¿"); i > 0 {
		return text[i:]
	}
	if trimmed := strings.TrimSpace(text); strings.HasSuffix(trimmed, "?") {
		if i := strings.LastIndex(trimmed, ","); i >= 0 {
			return trimmed[i+1:]
		}
	}
	return ""
}
