package find

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// How aeat_mcp_find (rank.go) cuts a query and a tool's texts into words:
// lower case, without accents, phrases joined, stop words dropped, each
// word with its stem.

// stopWords say nothing about a tool, in the languages its users ask in:
// articles, prepositions, pronouns, question words and auxiliaries. Not
// "all", "every", "todos": they tell the verbs that act on everything at
// once ("Discard every sandbox", "reinicio … de todos los perfiles").
var stopWords = &wordSet{words: []string{
	// English
	"a", "an", "the", "of", "to", "for", "and", "or", "in", "on", "at", "as", "by", "from", "with", "into", "about",
	"my", "me", "i", "we", "our", "you", "your", "it", "its", "this", "that", "these", "those", "there", "here",
	"they", "them", "their", "he", "him", "his", "she", "her", "us",
	"is", "are", "was", "were", "be", "been", "am", "do", "does", "did", "have", "has", "had", "can", "could",
	"should", "would", "will", "shall", "may", "might", "must",
	"what", "which", "who", "whom", "whose", "how", "when", "where",
	"any", "some", "each", "so", "if", "then", "than", "not", "no", "please", "up", "out",
	"everything", "anything", "something", "nothing",
	// What is left of a contraction: "can't", "what's", "I'll", "you're".
	"t", "s", "d", "ll", "m", "re", "ve",
	// Spanish
	"de", "del", "la", "el", "lo", "los", "las", "un", "una", "unos", "unas", "y", "e", "o", "u", "ni",
	"en", "a", "al", "ante", "bajo", "con", "contra", "desde", "entre", "hacia", "hasta", "para", "por",
	"sin", "sobre", "tras", "que", "quien", "cual", "cuales", "como", "cuando", "donde", "cuanto", "cuanta",
	"mi", "mis", "tu", "tus", "su", "sus", "me", "te", "se", "le", "les", "nos", "yo", "nuestro", "nuestra",
	"es", "son", "esta", "estan", "este", "estos", "estas", "ese", "esa", "eso", "hay", "ha", "han", "he",
	"tengo", "tiene", "tienen", "ser", "estar", "ya", "muy", "mas", "si", "no", "puedo", "quiero",
	"algo", "nada", "ahora", "now",
}}

// wordSet is a set of words built at its first use: the ranker's word
// tables are read by aeat_mcp_find alone, and a table built in package
// init is paid by every start before a host's initialize is answered. It
// is written as a composite literal of constant words, as a lazy is, for
// the same reason (a setOf(words...) function, as it was, allocated the
// words' slice and sync.OnceValue's closure and state at every start).
type wordSet struct {
	words []string
	once  sync.Once
	set   map[string]bool
}

// lazy is a value built at its first get, as sync.OnceValue's — but
// written as a composite literal (&lazy[T]{build: func() T {…}}), which
// the compiler lays out in the binary's data: package init allocates
// nothing for it, where each sync.OnceValue allocated its closure and
// state at every start, aeat_mcp_find used or not.
type lazy[T any] struct {
	build func() T
	once  sync.Once
	v     T
}

// get is l's value, built by the first call.
func (l *lazy[T]) get() T {
	l.once.Do(func() { l.v = l.build() })
	return l.v
}

// has reports whether w is in s.
func (s *wordSet) has(w string) bool {
	s.once.Do(func() {
		s.set = make(map[string]bool, len(s.words))
		for _, w := range s.words {
			s.set[w] = true
		}
	})
	return s.set[w]
}

// words are s's words, lowercased and without accents, phrases joined
// (lexicon.go), without stop words and repeats: "Pull a modelo-303
// notificación" is pull, modelo, 303, notificacion; "log in" is login.
// Underscores and hyphens separate words.
func words(s string) []string {
	tokens := withDeber(tokens(s))
	var out []string
	for i := 0; i < len(tokens); i++ {
		w, between := tokens[i], ""
		switch {
		case i+1 < len(tokens) && phraseOf(w, tokens[i+1]) != "" && !prepositionIn(tokens, i):
			w = phraseOf(w, tokens[i+1])
			i++
		case i+2 < len(tokens) && inPhrase(tokens[i+1]) && phraseOf(w, tokens[i+2]) != "":
			w, between = phraseOf(w, tokens[i+2]), tokens[i+1]
			i += 2
		}
		// An amount between a phrase's words is still said: "hand 303 in"
		// asks for the 303.
		for _, w := range []string{w, between} {
			if w != "" && !stopWords.has(w) {
				out = append(out, w)
			}
		}
	}
	return dedupe(out)
}

// prepositionIn: the "in" after ts[i] opens a place or a time of its
// own ("the expense I logged in the first quarter", "signed in March"),
// where it ends a verb that takes no object — log in, sign in, logged in
// — when one of those phrases is what the two words say. Such a verb
// cannot have "the first quarter" after its particle; a verb that takes
// one can ("pull in the statement").
func prepositionIn(ts []string, i int) bool {
	if i+2 >= len(ts) || ts[i+1] != "in" || !intransitivePhrases.has(phraseOf(ts[i], ts[i+1])) {
		return false
	}
	next := ts[i+2]
	return thingCues.has(next) || months.has(next) || isQuarter(next) || next != "" && allDigits(next)
}

// intransitivePhrases are the phrases of verbs that take no object.
var intransitivePhrases = &wordSet{words: []string{"login", "logout", "authenticated"}}

// inPhrase: a word a phrase's two words may have between them — a stop
// word ("copia de seguridad") or an amount ("they kept 15 % back").
func inPhrase(w string) bool {
	return stopWords.has(w) || w != "" && allDigits(w)
}

// allDigits: w has no character but digits (true for "").
func allDigits(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// deberForms are the forms of Spanish "deber" a request says: "¿le debo
// algo a Hacienda?", "¿cuánto debemos?", "¿debo presentar el 349?".
var deberForms = &wordSet{words: []string{
	"deber", "debo", "debes", "debe", "debemos", "debeis", "deben",
	"debia", "debias", "debiamos", "debian", "debere", "debera", "deberas", "deberemos", "debereis", "deberan",
	"deberia", "deberias", "deberiamos", "deberiais", "deberian",
	// The preterite and the present subjunctive ("¿debí presentar el
	// 303?", "no creo que deba nada"); not "debido", which is also "due
	// to" ("debido a").
	"debi", "debiste", "debio", "debimos", "debisteis", "debieron",
	"deba", "debas", "debamos", "debais", "deban",
	// The gerund: "¿le sigo debiendo algo?", "estoy debiendo el 303".
	"debiendo",
}}

// withDeber gives each form of "deber" its sense: before an infinitive it
// is "must" ("debo presentar", "deben volver"), which a request asks as
// "tengo que" and "need to" (lexicon.go's obligado); else it is to owe
// ("le debo algo", "¿cuánto debo?"), which the CLI's verbs call deudas.
// Its forms share no stem (stem keeps four letters: "debo", "debe"), so
// without this "¿le debo algo a Hacienda?" said nothing but Hacienda — a
// miss of sets 4, 7, 8 and 11.
func withDeber(ts []string) []string {
	for i, w := range ts {
		if !deberForms.has(w) {
			continue
		}
		ts[i] = "deber"
		if i+1 < len(ts) && isInfinitive(ts[i+1]) {
			ts[i] = "obligado"
		}
	}
	return ts
}

// isInfinitive: w ends as a Spanish infinitive does, with or without its
// pronouns ("presentar", "ser", "ir", "hacerlo"; withoutClitic took them
// off).
func isInfinitive(w string) bool {
	return w == "ir" || len(w) >= 3 && endsAny(w, "ar", "er", "ir")
}

// phraseOf is the one word a and b say together (lexicon.go's phrases),
// "" when none: as written, or in any other form of its words — a phrase
// is written once, a person says it in every person and tense ("inicia
// sesión", "inicie sesión" of "iniciar sesión"; "needs to", "switching
// to", "pulled up").
func phraseOf(a, b string) string {
	if p := phrases.get()[[2]string{a, b}]; p != "" {
		return p
	}
	return phrasesByStem.get()[[2]string{stem(a), stem(b)}]
}

// phrasesByStem are lexicon.go's phrases by their words' stems, built at
// the first query.
var phrasesByStem = &lazy[map[[2]string]string]{build: func() map[[2]string]string { return byStem(phrases.get()) }}

// byStem is phrases by their words' stems. Where two phrases share their
// stems ("sign in" login, "signed in" authenticated), the one written in
// its words' plain forms says what the others inflect ("signing in" is
// signing in, login), then the first in order — never the map's order,
// which differs between runs.
func byStem(phrases map[[2]string]string) map[[2]string]string {
	keys := slices.SortedFunc(maps.Keys(phrases), func(a, b [2]string) int {
		if pa, pb := isPlain(a), isPlain(b); pa != pb {
			if pa {
				return -1
			}
			return 1
		}
		return cmp.Or(strings.Compare(a[0], b[0]), strings.Compare(a[1], b[1]))
	})
	out := make(map[[2]string]string, len(phrases))
	for _, k := range keys {
		sk := [2]string{stem(k[0]), stem(k[1])}
		if _, taken := out[sk]; !taken {
			out[sk] = phrases[k]
		}
	}
	return out
}

// isPlain reports whether phrase k is written in its words' stems.
func isPlain(k [2]string) bool { return stem(k[0]) == k[0] && stem(k[1]) == k[1] }

// tokens are s's words, lowercased and without accents, all of them in
// order: letters and digits, anything else separates. A Spanish verb with
// its pronouns written on ("sepáralo", "regístrame", "cambiarlo") is the
// verb alone (withoutClitic), an irregular form its plain one
// (irregularForms: "spent" is spend, "hice" hacer).
func tokens(s string) []string {
	var out []string
	var b strings.Builder
	accented := -1 // where the word's written accent is, in b's bytes
	fold, irregular := folded.get(), irregularForms.get()
	flush := func() {
		if b.Len() > 0 {
			w := withoutClitic(b.String(), accented)
			if plain, ok := irregular[w]; ok {
				w = plain
			}
			out = append(out, w)
			b.Reset()
		}
		accented = -1
	}
	for _, r := range strings.ToLower(s) {
		if f, ok := fold[r]; ok {
			if strings.ContainsRune("áéíóú", r) {
				accented = b.Len()
			}
			r = f
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else {
			flush()
		}
	}
	flush()
	return out
}

// clitics are the pronouns Spanish writes onto an imperative, an
// infinitive or a gerund ("sepáralo", "regístrame", "mandárselo"),
// longest first. Not "os", which ends too many nouns ("ficheros").
var clitics = []string{
	"melos", "melas", "selos", "selas", "telos", "telas", "noslos", "noslas",
	"melo", "mela", "selo", "sela", "telo", "tela", "noslo", "nosla",
	"nos", "los", "las", "les", "me", "te", "se", "lo", "la", "le",
}

// objectClitics end the clitics an infinitive takes without an accent that
// are told apart from a word's own ending: "borrarlo", "abrirlos",
// "mandárselo" — not "me", "te", "se", "nos" alone, which end as many
// words as infinitives ("convierte", "contraparte", "confirme",
// "externos").
var objectClitics = []string{"lo", "la", "los", "las", "le", "les"}

// withoutClitic is w without the pronouns written onto its verb. A verb
// takes them in two ways Spanish spells apart: an imperative or a gerund
// moves its stress back and so gets a written accent before them
// ("sepáralo", "prepárame", "haciéndolo": accented is where that accent
// is, -1 when there is none); an infinitive keeps its -ar/-er/-ir
// ("separarlo", "abrirlos"). Without either sign a word that ends as a
// pronoun does is left alone: "modelo", "escuela", "regla", "ficheros".
func withoutClitic(w string, accented int) string {
	for _, c := range clitics {
		rest, ok := strings.CutSuffix(w, c)
		if !ok {
			continue
		}
		switch {
		case accented >= 0 && accented < len(rest) && len(rest) >= minStemLen && endsAny(rest, "a", "e", "ar", "er", "ir", "ando", "iendo"):
			if strings.HasSuffix(rest, "a") {
				// An imperative in -a is of an -ar verb, always: "bájame"
				// is bajar (to download), not "baja" (deregistration).
				return rest + "r"
			}
			return rest
		case len(rest) >= 5 && endsAny(rest, "ar", "er", "ir") && endsAny(c, objectClitics...):
			return rest
		}
	}
	return w
}

func endsAny(w string, suffixes ...string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

// folded are the accented letters of the sede's languages, without their
// accents: a model asks for "notificacion" as often as "notificación".
var folded = &lazy[map[rune]rune]{build: func() map[rune]rune {
	return map[rune]rune{
		'á': 'a', 'à': 'a', 'ä': 'a', 'â': 'a', 'é': 'e', 'è': 'e', 'ë': 'e', 'ê': 'e',
		'í': 'i', 'ì': 'i', 'ï': 'i', 'î': 'i', 'ó': 'o', 'ò': 'o', 'ö': 'o', 'ô': 'o',
		'ú': 'u', 'ù': 'u', 'ü': 'u', 'û': 'u', 'ñ': 'n', 'ç': 'c', 'ŀ': 'l',
	}
}}

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

func stemmed(ws []string) []rankWord {
	out := make([]rankWord, len(ws))
	for i, w := range ws {
		out[i] = rankWord{word: w, stem: stem(w)}
	}
	return out
}

// minStemLen is the shortest stem kept: a shorter one would join words
// that only look alike ("alta", "alto").
const minStemLen = 4

// stemSteps are the inflections stem takes off, in order, each at most
// once and only where what is left is minStemLen letters or more: the
// plurals of Spanish and English and a Spanish verb's -amos, -emos,
// -imos, then an infinitive's ending (-ar, -er, -ir), a participle's
// (-ado, -ido, -ada, -ida, -ed, -ing, and -ied, the past of an English
// verb in -y: "classified", "verified"), a Spanish gerund's (-ando,
// -iendo: "importando", "descargando"), preterite's (-aron, -ieron) or
// third person plural's (-an, -en: "faltan", "clasifiquen"), then a final
// vowel (the gender of a Spanish noun, the -e of an English word or a
// Spanish present or past, the -y of "category" that "categories" loses),
// and last an -i: the preterite of an -er or -ir verb ("vendí", "recibí";
// "vendió" is "vendi" once its -o is gone) is then "vend" as "vender" and
// "vendido" are; a verb in -iar loses it with its noun ("cambiar" and
// "cambio" both "camb"), so the two stay joined.
// Light on purpose: it joins a word's forms in both languages
// ("movimientos", "movimiento"; "dividir", "divide"; "importar",
// "import"), never two words by their derivations ("borrador" is not
// "borrar").
var stemSteps = [][]string{
	{"ies", "amos", "emos", "imos", "es", "s"},
	{"iendo", "ando", "ieron", "aron", "ado", "ada", "ido", "ida", "ing", "ied", "ar", "er", "ir", "ed", "an", "en"},
	{"a", "e", "o", "y"},
	{"i"},
}

// spelledBeforeE are the letters Spanish writes for a stem's last
// consonant before an -e ("clasifiqué" of clasificar, "descargué" of
// descargar), and the letters the stem has: a stem that ends in them,
// its -e gone, is written back as the infinitive's. English words end so
// too ("catalogue"), and are joined to their other spelling ("catalog").
var spelledBeforeE = [][2]string{{"qu", "c"}, {"gu", "g"}}

// stem is w's stem: w without the inflections of stemSteps.
func stem(w string) string {
	for _, step := range stemSteps {
		for _, suffix := range step {
			if rest, ok := strings.CutSuffix(w, suffix); ok && len(rest) >= minStemLen && !strings.HasSuffix(rest, "s") {
				w = rest
				break
			}
		}
	}
	for _, sp := range spelledBeforeE {
		if rest, ok := strings.CutSuffix(w, sp[0]); ok && len(rest)+len(sp[1]) >= minStemLen {
			return rest + sp[1]
		}
	}
	return w
}

// sharedPrefix is how many bytes a and b start with alike.
func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
