package find

import (
	"slices"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullAeatManifest is the whole real aeat, 300 tools.
const fullAeatManifest = "../../examples/aeat.full.manifest.json"

func rankNames(rs []ranked, n int) []string {
	var out []string
	for i, r := range rs {
		if i == n {
			break
		}
		out = append(out, r.tool.Name)
	}
	return out
}

// TestRank: aeat_mcp_find's ranking over the whole aeat finds a verb by the
// words a model would use — in its name, its title, a param, in Spanish
// with or without accents, by the start of a word or its plural — and a
// tool that matches more of the words comes first.
func TestRank(t *testing.T) {
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := NewIndex(m.Tools, m.CLI.Command).idx
	for _, tc := range []struct {
		query string
		top   string // the first tool
		in    int    // … or among the first in
	}{
		{"ledger categories", "app_ledger_categories", 1},
		{"app_ledger_categories", "app_ledger_categories", 1},
		{"LEDGER Categ", "app_ledger_categories", 1},
		{"remove a ledger transaction", "ledger_remove", 1},
		{"notifications pull", "notifications_pull", 1},
		{"notificación", "notifications_pull", 5},
		{"justificante", "justificante_pull", 3},
		{"certificate secret", "certificate_secret_set", 3},
	} {
		got := idx.rank(tc.query)
		require.NotEmpty(t, got, tc.query)
		assert.Contains(t, rankNames(got, tc.in), tc.top, "%q: %v", tc.query, rankNames(got, 5))
	}

	assert.Empty(t, idx.rank("the of a"), "stop words find nothing")
	assert.Empty(t, idx.rank("  --- "), "nor punctuation")
	assert.Empty(t, idx.rank("zzzqqq"))

	// Coverage first: a tool with both words beats one with either, even
	// when one word weighs more in the other's name.
	small := newRankIndex([]*annotations.Tool{
		{Name: "ledger_list", Title: "List the ledger"},
		{Name: "ledger_view", Title: "View one entry", Description: "Shows a transaction with its categories."},
		{Name: "categories", Title: "Categories"},
	}, nil)
	assert.Equal(t, []string{"ledger_view", "categories", "ledger_list"}, rankNames(small.rank("ledger categories"), 3))
}

// TestRank_Intent: what a request asks besides its words reorders the
// tools that match them (issue 28 item 5, round two): a tool is found by
// its command path as well as its (maybe shortened) name; a number finds
// only a tool named by it; a question that wants an answer prefers a tool
// that only reads; a request to act, a tool whose verb is that action; of
// tools that match alike, the one with the fewest words not asked for; and
// "show" asks nearly for a list.
func TestRank_Intent(t *testing.T) {
	read := annotations.Hints{ReadOnly: true}
	for _, tc := range []struct {
		name  string
		tools []*annotations.Tool
		query string
		want  []string // the first tools, in order
	}{
		{"the command path, not only the shortened name", []*annotations.Tool{
			{Name: "app_modelo_rp_encrypt_for_recipient", Command: []string{"app", "modelo", "review-package", "encrypt-for-recipient"}},
			{Name: "app_modelo_review_package_build", Command: []string{"app", "modelo", "review-package", "build"}},
		}, "encrypt the review package", []string{"app_modelo_rp_encrypt_for_recipient"}},
		{"a fixed option is not a word of the path", []*annotations.Tool{
			{Name: "config_login", Command: []string{"config", "login", "--secrets-stdin"}},
		}, "secrets stdin", nil},
		{"a number finds a tool named by it", []*annotations.Tool{
			{Name: "app_live_borrador_100_list", Command: []string{"app", "live", "borrador", "100", "list"}},
			{Name: "app_modelo_iva_wallet_balance", Title: "Balance computed from local Modelo 100 and 303 history"},
		}, "100", []string{"app_live_borrador_100_list"}},
		{"a number finds the form it numbers", []*annotations.Tool{
			{Name: "app_modelo_list", Title: "List the modelos, such as 036"},
			{Name: "app_modelo_m036_alta", Command: []string{"app", "modelo", "m036", "alta"}},
		}, "036", []string{"app_modelo_m036_alta"}},
		{"a number a text mentions finds nothing", []*annotations.Tool{
			{Name: "app_modelo_iva_wallet_balance", Title: "Balance computed from local Modelo 303 history"},
		}, "303", nil},
		{"a question wants a tool that reads", []*annotations.Tool{
			{Name: "profile_delete", Title: "Delete a profile", Command: []string{"config", "profile", "delete"}},
			{Name: "profile_show", Title: "Show a profile", Command: []string{"config", "profile", "show"}, Hints: read},
		}, "is there a profile?", []string{"profile_show", "profile_delete"}},
		{"¿…? is a question too", []*annotations.Tool{
			{Name: "app_ledger_add", Title: "Añade un movimiento", Command: []string{"app", "ledger", "add"}},
			{Name: "app_ledger_count", Title: "Cuenta los movimientos", Command: []string{"app", "ledger", "count"}, Hints: read},
		}, "¿movimientos?", []string{"app_ledger_count", "app_ledger_add"}},
		{"how to act is not a question that wants an answer", []*annotations.Tool{
			{Name: "profile_delete", Title: "Delete a profile", Command: []string{"config", "profile", "delete"}},
			{Name: "profile_drop", Title: "Remove a profile", Command: []string{"config", "profile", "drop"}},
			{Name: "profile_show", Title: "Show a profile", Command: []string{"config", "profile", "show"}, Hints: read},
			{Name: "profile_view", Title: "View a profile", Command: []string{"config", "profile", "view"}, Hints: read},
		}, "how do I delete a profile?", []string{"profile_delete", "profile_drop"}},
		{"a request to act wants the tool whose verb it is", []*annotations.Tool{
			{Name: "app_modelo_iva_wallet_balance", Command: []string{"app", "modelo", "iva-wallet", "balance"}},
			{Name: "app_modelo_iva_wallet_seed", Command: []string{"app", "modelo", "iva-wallet", "seed"}},
			{Name: "app_modelo_work_calculate", Command: []string{"app", "modelo", "work", "calculate"}},
			{Name: "app_modelo_work_compute", Command: []string{"app", "modelo", "work", "compute"}},
		}, "calcular el IVA", []string{"app_modelo_work_calculate", "app_modelo_work_compute"}},
		{"a verb only one tool has is not an action", []*annotations.Tool{
			{Name: "app_overview_backlog", Title: "List past-due obligations", Command: []string{"app", "overview", "backlog"}},
			{Name: "debts_list", Title: "List saved deudas snapshots", Command: []string{"app", "live", "deudas", "list"}},
		}, "deudas pendientes", []string{"debts_list", "app_overview_backlog"}},
		{"the tool that is what was asked and no more", []*annotations.Tool{
			{Name: "config_auth_apoderado_check", Command: []string{"config", "auth", "apoderado", "check"}},
			{Name: "config_check", Command: []string{"config", "check"}},
		}, "check config", []string{"config_check", "config_auth_apoderado_check"}},
		{"show asks nearly for a list", []*annotations.Tool{
			{Name: "invoice_add", Title: "Add an invoice", Command: []string{"app", "invoice", "add"}},
			{Name: "invoice_list", Title: "List invoices", Command: []string{"app", "invoice", "list"}},
		}, "show my invoices", []string{"invoice_list", "invoice_add"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := newRankIndex(tc.tools, nil).rank(tc.query)
			if tc.want == nil {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tc.want, rankNames(got, len(tc.want)))
		})
	}
}

// aeatTools are the named tools of the whole real aeat, with their own
// help, params and command paths.
func aeatTools(t *testing.T, names ...string) []*annotations.Tool {
	t.Helper()
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	var out []*annotations.Tool
	for _, n := range names {
		i := slices.IndexFunc(m.Tools, func(tool *annotations.Tool) bool { return tool.Name == n })
		require.GreaterOrEqual(t, i, 0, n)
		out = append(out, m.Tools[i])
	}
	return out
}

// aeatRankCase is a ranking over some of the real aeat's tools, with
// their own help, params and paths, and where paraphrases says so their
// paraphrases: want are the first tools, in order.
type aeatRankCase struct {
	name        string
	tools       []string
	paraphrases bool
	query       string
	want        []string
}

func runAeatRankCases(t *testing.T, cases []aeatRankCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var p map[string]verbParaphrases
			if tc.paraphrases {
				p = paraphrasesFor("aeat")
			}
			got := newRankIndex(aeatTools(t, tc.tools...), p).rank(tc.query)
			assert.Equal(t, tc.want, rankNames(got, len(tc.want)), "%q: %v", tc.query, rankNames(got, 3))
		})
	}
}

// TestRank_EverydayWords: how a person's everyday words meet the CLI's
// verbs (issue 28 item 5, round seven), each mechanism over real aeat
// tools — their own help, params and paths, and where a case says so
// their paraphrases — where, without it, the other tool comes first or
// the one wanted is not found.
func TestRank_EverydayWords(t *testing.T) {
	runAeatRankCases(t, []aeatRankCase{
		// ledger_list's paraphrase: "what did I spend money on".
		{"an irregular past is its plain verb",
			[]string{"app_ledger_add", "ledger_list"}, true,
			"everything I spent", []string{"ledger_list"}},
		// Split's help says "Divide una transacción…", merge's "Fusiona de
		// nuevo transacciones hijas divididas"; separar means split.
		{"a verb in any person finds its synonyms, by its stem",
			[]string{"app_ledger_merge", "app_ledger_split"}, false,
			"separa la transacción en dos", []string{"app_ledger_split", "app_ledger_merge"}},
		{"a pronoun written on a verb, then its synonyms",
			[]string{"app_ledger_merge", "app_ledger_split"}, false,
			"sepáralo en dos", []string{"app_ledger_split"}},
		// Tax periods and years are arguments: justificante pull takes
		// modelo, year and period; a borrador view only a snapshot id.
		{"a quarter finds the tools that take a period",
			[]string{"app_live_borrador_100_view", "justificante_pull"}, false,
			"Q2", []string{"justificante_pull"}},
		{"a quarter said in words is a period too",
			[]string{"app_live_borrador_100_view", "justificante_pull"}, false,
			"el segundo trimestre", []string{"justificante_pull"}},
		{"a year finds the tools that take one",
			[]string{"app_live_borrador_100_view", "justificante_pull"}, false,
			"2025", []string{"justificante_pull"}},
		// Question forms: explain "Decompose[s] a modelo's applicability".
		{"do I need to: what applies, and why: the explanation",
			[]string{"app_overview_explain", "filed_list"}, false,
			"Do I need to file the 349? Why?", []string{"app_overview_explain", "filed_list"}},
		{"do I need to: what applies, not the list of modelos",
			[]string{"modelo_list", "app_overview_explain"}, false,
			"do I need to do this modelo", []string{"app_overview_explain", "modelo_list"}},
		{"¿tengo que…?: what applies",
			[]string{"modelo_list", "app_overview_explain"}, false,
			"¿tengo que hacer este modelo?", []string{"app_overview_explain", "modelo_list"}},
		{"¿por qué…?: the explanation",
			[]string{"app_overview_explain", "filed_list"}, false,
			"¿por qué tengo el 349 presentado?", []string{"app_overview_explain", "filed_list"}},
		// Everyday phrases: a borrador view "Show[s] one Modelo 100
		// borrador snapshot"; justificante pull "Pull[s] the AEAT
		// justificante".
		{"to pull up a thing is to show it",
			[]string{"justificante_pull", "app_live_borrador_100_view"}, false,
			"pull up the justificante or the borrador", []string{"app_live_borrador_100_view", "justificante_pull"}},
		{"how many asks for the list",
			[]string{"app_ledger_invoice_add", "app_ledger_invoice_list"}, false,
			"how many invoices?", []string{"app_ledger_invoice_list", "app_ledger_invoice_add"}},
		{"¿cuántos? asks for the list",
			[]string{"app_ledger_invoice_add", "app_ledger_invoice_list"}, false,
			"¿cuántas facturas?", []string{"app_ledger_invoice_list", "app_ledger_invoice_add"}},
		{"the last day is the deadline",
			[]string{"ledger_list", "overview_agenda"}, true,
			"the last day for the 130", []string{"overview_agenda"}},
		{"a power of attorney is an apoderado",
			[]string{"config_auth_configure", "config_auth_apoderado_configure"}, false,
			"set up a power of attorney", []string{"config_auth_apoderado_configure", "config_auth_configure"}},
		{"to switch to a profile is to log in to it",
			[]string{"config_profile_edit", "config_login"}, false,
			"cambia al perfil de mi madre", []string{"config_login", "config_profile_edit"}},
	})

	// A word in no group by itself is in its stem's; a plural is its
	// singular's first: "cargos" are charges (cargo), not loading
	// (cargar), though the three share a stem.
	assert.Contains(t, synonymsOf("separa"), "split")
	assert.Contains(t, synonymsOf("cargos"), "charge")
	assert.NotContains(t, synonymsOf("cargos"), "import")
}

// TestRank_RoundEight: what the CLI and a person's way of writing say that
// the ranking did not hear (issue 28 item 5, round eight), each mechanism
// over real aeat tools — their own help, params and paths, and where a
// case says so their paraphrases — where, without it, another tool comes
// first or the one wanted is not among the first three.
func TestRank_RoundEight(t *testing.T) {
	runAeatRankCases(t, []aeatRankCase{
		// ledger import takes --file; the pull verbs download ("descargar").
		{"a path's folders are not words of the request",
			[]string{"justificante_pull", "filed_pull", "ledger_import"}, false,
			"lee /home/ana/Descargas/enero.csv", []string{"ledger_import"}},
		// Both are evidence verbs; batch takes a directory.
		{"a path asks for a tool that takes a file",
			[]string{"app_ledger_evidence_list", "app_ledger_evidence_batch"}, false,
			"evidence ~/facturas/2026", []string{"app_ledger_evidence_batch"}},
		// pull folder "Bulk-fetch[es] every PDF/image invoice in a Drive
		// folder"; ledger import "Import[s] bank statements or records
		// into the accounting ledger" (an N26 PDF among them).
		{"a verb and its particle say one act",
			[]string{"app_ledger_pull_folder", "ledger_import"}, false,
			"pull in this PDF", []string{"ledger_import"}},
		// filed list is "app live filed list"; readiness "Report[s]
		// whether the active profile is ready to file one modelo".
		{"a word the lexicon knows does not find another it knows apart",
			[]string{"filed_list", "app_modelo_readiness"}, false,
			"am I ready to file the 130?", []string{"app_modelo_readiness"}},
		// ledger add's paraphrase: "record an expense by hand"; repair
		// logs: "Show the log file path and recent lines".
		{"to log an expense is to record it",
			[]string{"config_repair_logs", "app_ledger_add"}, true,
			"log a taxi ride as an expense", []string{"app_ledger_add"}},
		{"the log is the log file",
			[]string{"app_ledger_add", "config_repair_logs"}, true,
			"show me the log", []string{"config_repair_logs"}},
	})

	assert.True(t, falseFriends("listo", "list"), "ready is not list")
	assert.True(t, falseFriends("cargos", "cargar"), "charges are not loading")
	assert.False(t, falseFriends("importar", "import"))
	assert.False(t, falseFriends("movimientos", "movimiento"))
	assert.False(t, falseFriends("listo", "listing"), "a word the lexicon does not have")

	// Over the whole aeat: the login session most descriptions say a verb
	// needs is not a word of every tool (it was of 280 of 300).
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	assert.True(t, commonSentences(m.Tools)["Needs the user's aeat login session (`aeat config login`)."])
	found := len(newRankIndex(m.Tools, nil).rank("login"))
	assert.Less(t, found, len(m.Tools)/4, "tools that have the word login")
}

// TestWithoutPaths: a path in a request is cut to its file's name.
func TestWithoutPaths(t *testing.T) {
	for text, want := range map[string]string{
		"importa ~/Downloads/n26-march.pdf, por favor":   "importa n26-march.pdf por favor",
		"lee /Users/lucia/Descargas/extracto_enero.xlsx": "lee extracto_enero.xlsx",
		`usa C:\certs\me.p12`:                            "usa me.p12",
		"todas las de la carpeta ~/facturas/2026":        "todas las de la carpeta ",
		"Descargas/extracto.csv":                         "extracto.csv",
	} {
		got, n := withoutPaths(text)
		assert.Equal(t, want, got, text)
		assert.Equal(t, 1, n, text)
	}
	for _, text := range []string{"IVA y/o IRPF", "70/30 trabajo", "el 1/2 del gasto", "www.agenciatributaria.es"} {
		got, n := withoutPaths(text)
		assert.Equal(t, text, got)
		assert.Zero(t, n, text)
	}
}

// TestAsksToKnow: which requests are questions that want an answer.
func TestAsksToKnow(t *testing.T) {
	for q, want := range map[string]bool{
		"am I logged in?":                        true,
		"what does box 27 of modelo 303 mean":    true,
		"which obligations haven't I filed yet":  true,
		"how much disk space does aeat use":      true,
		"¿tengo deudas pendientes con Hacienda?": true,
		"¿qué casillas tiene el modelo 130?":     true,
		"cuándo vence el plazo":                  true,
		"list my invoices":                       false,
		"how do I import a bank statement?":      false,
		"how to log in":                          false,
		"¿cómo importo un extracto?":             false,
		"can you delete a profile?":              false,
		"¿puedo borrar un movimiento?":           false,
		"tengo un certificado nuevo":             false, // a Spanish verb opens no question by itself
		"¿tengo deudas?":                         true,
		"hay notificaciones?":                    true,
		"borrar un movimiento duplicado":         false,
		"":                                       false,
	} {
		assert.Equal(t, want, asksToKnow(q), q)
	}
}

// TestWords: what a query and a tool are cut into.
func TestWords(t *testing.T) {
	assert.Equal(t, []string{"pull", "modelo", "303", "notificacion"}, words("Pull a modelo-303 notificación, notificación"))
	assert.Equal(t, []string{"app", "ledger", "categories"}, words("app_ledger_categories"))
	assert.Empty(t, words("de la the"))
	assert.Equal(t, []string{"ready", "file"}, words("is everything ready to file"), "everything says nothing of a tool")
	assert.Equal(t, []string{"authenticated"}, words("am I logged in?"), "logged in is a state, what the auth verbs tell")
	assert.Equal(t, []string{"authenticated"}, words("¿tengo la sesión iniciada?"))
	assert.Equal(t, []string{"app", "connect"}, words("the app can't connect"), "what is left of a contraction says nothing")
	assert.Equal(t, []string{"sandbox"}, words("¿qué entornos de prueba tengo?"), "the CLI's sandbox, as Spanish says it")
	assert.Equal(t, []string{"borrar", "todos", "datos"}, words("borrar todos los datos"), "todos tells a verb that acts on everything")
	assert.Equal(t, []string{"separar", "dos"}, words("sepáralo en dos"), "a verb with its pronouns written on is the verb")
	assert.Equal(t, []string{"registrar", "factura"}, words("regístrame la factura"))
	assert.Equal(t, []string{"separar"}, words("separarlo"))
	assert.Equal(t, []string{"modelo", "escuela", "regla", "formula", "ficheros", "externos", "convierte", "contraparte", "confirme"},
		words("modelo escuela regla fórmula ficheros externos convierte contraparte confirmé"), "a word that only ends as a pronoun does is left alone")
	assert.Equal(t, []string{"spend", "hacer"}, words("I spent what I hice"), "an irregular form is its plain verb")
	assert.Equal(t, []string{"q3"}, words("the third quarter"), "a quarter said in words is the period")
	assert.Equal(t, []string{"obligado", "file", "why"}, words("do I have to file? why?"))
	assert.Equal(t, []string{"cuentas", "madre"}, words("ahora las cuentas de mi madre"), "now says nothing of a tool")
	assert.Equal(t, []string{"login", "aeat"}, words("inicia sesión en la AEAT"), "a phrase in another form of its verb")
	assert.Equal(t, []string{"login"}, words("inicie sesión"))
	assert.Equal(t, []string{"obligado", "filed"}, words("it needs to be filed"))
	assert.Equal(t, []string{"import", "statement"}, words("pull in the statement"), "a verb and its particle")
	assert.Equal(t, []string{"submit", "303"}, words("hand in the 303"))
	assert.Equal(t, []string{"reach", "sede"}, words("can't get to the Sede"))
	// Round nine (sets 9 and 10's misses).
	assert.Equal(t, []string{"hacer", "303", "q2"}, words("hazme el 303 del segundo trimestre"), "a one-syllable imperative with its pronouns, unaccented, is its verb")
	assert.Equal(t, []string{"switch", "wife", "profile"}, words("switch over to my wife's profile"), "switch over is to switch")
	assert.Equal(t, []string{"queda", "pendiente", "antes"}, words("qué me queda por hacer antes"), "what is left por hacer is pending, not to make")
}

// TestStem: the forms of one word share its stem — built from the
// CLI's help ("Classify one ledger transaction", "Aplica las reglas de
// clasificación", "Descarga …", "Importar extractos bancarios",
// "reconciliation catalogue invoices") and the forms a person says them in:
// an English past in -ied, a Spanish past that spells its consonant
// before -e, a Spanish gerund, a British spelling.
func TestStem(t *testing.T) {
	for _, forms := range [][]string{
		{"classify", "classified", "classifies"},
		{"verify", "verified"},
		{"apply", "applied"},
		{"clasificar", "clasifico", "clasifique", "clasificado"},
		{"aplicar", "aplica", "aplique"},
		{"descargar", "descarga", "descargue", "descargando"},
		{"importar", "importando", "importe", "import"},
		{"catalogue", "catalog"},
		// A Spanish verb in the plural persons and the preterite: "faltan",
		// "importamos", "presentaron", "cambiaron", "clasifiquen".
		{"importar", "importan", "importamos", "importaron", "importen"},
		{"presentar", "presentaron", "presentemos"},
		{"cambiar", "cambiaron", "cambian"},
		{"clasificar", "clasifiquen"},
		{"faltar", "faltan"},
	} {
		for _, f := range forms[1:] {
			assert.Equal(t, stem(forms[0]), stem(f), "%s, %s", forms[0], f)
		}
	}
	// … and no more: a derivation keeps its own stem.
	assert.NotEqual(t, stem("borrar"), stem("borrador"))
	assert.NotEqual(t, stem("alta"), stem("alto"))
}

// TestRank_Inflected: over the whole aeat, the help's own words said in
// another form of the verb find the verb first.
func TestRank_Inflected(t *testing.T) {
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := NewIndex(m.Tools, m.CLI.Command).idx
	for query, want := range map[string]string{
		// "Aplica las reglas de clasificación almacenadas …"
		"apliqué las reglas de clasificación": "app_ledger_rule_apply",
		// "Classify one ledger transaction in the active profile"
		"I classified one ledger transaction": "app_ledger_classify",
	} {
		assert.Equal(t, want, rankNames(idx.rank(query), 1)[0], "%q: %v", query, rankNames(idx.rank(query), 3))
	}
}

// TestRank_FileSenses: "file" is a document and the act of filing a
// return (ranksense.go); the words next to it tell which, in a request and
// in a tool's help, and a tool's own "file" is a thing when it takes a
// param of that name (reconcile file, censo file) and an act when its help
// says it in other words (work file: "internally filed", "presentada").
func TestRank_FileSenses(t *testing.T) {
	s := wordSenses.get()
	assert.Equal(t, s.thing["file"], s.inTexts("Register a portable profile bundle from a file")["file"])
	assert.Equal(t, s.thing["file"], s.inTexts("import a CSV file")["file"], "one word between")
	assert.Equal(t, s.act["file"], s.inTexts("Report whether the active profile is ready to file one modelo")["file"])
	assert.Equal(t, s.act["file"], s.inTexts("file the 303")["file"])
	assert.NotContains(t, s.inTexts("file"), "file", "one word alone tells nothing")
	assert.Zero(t, s.inTexts("the file I have to file")["file"], "two senses in one text: not known")

	// The CLI's three "file" verbs, as the full manifest has them.
	workFile := (&annotations.Tool{Name: "app_modelo_work_file", Command: []string{"app", "modelo", "work", "file"}}).WithDetail(
		map[string]string{"en": "Mark a verified revision as internally filed. Does NOT submit to AEAT",
			"es": "Marcar una revisión verificada como internamente presentada. NO envía a la AEAT"},
		annotations.Param{Name: "calculation_revision_id"}, annotations.Param{Name: "modelo"})
	reconcileFile := (&annotations.Tool{Name: "app_modelo_reconcile_file", Command: []string{"app", "modelo", "reconcile", "file"}}).WithDetail(
		map[string]string{"en": "Reconcile a work unit against a local justificante or declaración PDF. Local-only; never contacts AEAT.",
			"es": "Concilia una unidad de trabajo contra un PDF de justificante o declaración local. Solo local; nunca contacta con AEAT."},
		annotations.Param{Name: "file"}, annotations.Param{Name: "modelo"})
	censoFile := (&annotations.Tool{Name: "config_profile_censo_file", Command: []string{"config", "profile", "censo", "file"}}).WithDetail(
		map[string]string{"en": "Read a downloaded Certificado de Situación Censal and preview or enroll its censal facts.",
			"es": "Lee un Certificado de Situación Censal descargado y previsualiza o registra sus datos censales."},
		annotations.Param{Name: "file"}, annotations.Param{Name: "apply"})
	idx := newRankIndex([]*annotations.Tool{workFile, reconcileFile, censoFile}, nil)
	for _, query := range []string{"presentar la declaración del modelo", "file the return"} {
		assert.Equal(t, "app_modelo_work_file", rankNames(idx.rank(query), 1)[0], query)
	}
	assert.ElementsMatch(t, []string{"app_modelo_reconcile_file", "config_profile_censo_file"}, rankNames(idx.rank("leer un fichero"), 3),
		"a file read is not the act of filing")

	// Over the whole aeat: to file a form is not to read a file.
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	full := NewIndex(m.Tools, m.CLI.Command).idx
	for _, query := range []string{"presentar el modelo 303", "file the 303"} {
		top := rankNames(full.rank(query), 3)
		assert.Equal(t, "app_modelo_work_file", top[0], "%q: %v", query, top)
		assert.NotContains(t, top, "app_modelo_reconcile_file", query)
		assert.NotContains(t, top, "config_profile_censo_file", query)
	}
}

// heldOut are requests a person makes of aeat_mcp_find, in the two
// languages the CLI speaks, written before the ranking was tuned and never
// tuned to since (issue 28 item 5): each with the tools that answer it —
// any of them in the first three is a hit. What the request means was
// checked against the CLI's own help (testdata/aeat-cli), not against the
// ranking.
var heldOut = []rankRequest{
	{"importar extracto bancario", []string{"ledger_import"}},
	{"what tax deadlines are coming up", []string{"overview_agenda", "app_overview_calendar"}},
	{"borrar un movimiento duplicado", []string{"ledger_remove"}},
	{"¿tengo deudas pendientes con Hacienda?", []string{"debts_list", "app_live_deudas_latest", "app_live_deudas_view"}},
	{"descargar mis notificaciones de la AEAT", []string{"notifications_pull"}},
	{"log in to the tax agency", []string{"config_login", "config_auth_login"}},
	{"cerrar sesión", []string{"config_logout", "config_auth_logout"}},
	{"crear un perfil nuevo", []string{"config_profile_create"}},
	{"export the ledger to a file", []string{"app_ledger_export"}},
	{"añadir una factura de compra", []string{"app_ledger_evidence_add", "app_ledger_invoice_add"}},
	{"list my invoices", []string{"app_ledger_invoice_list"}},
	{"descargar el justificante de presentación", []string{"justificante_pull", "app_modelo_reconcile_pull"}},
	{"which tax returns have I already filed", []string{"filed_list", "app_live_filed_pull_all", "app_modelo_filing_record_list"}},
	{"clasificar un movimiento", []string{"app_ledger_classify"}},
	{"check the VAT number of an EU supplier", []string{"app_live_verify_nif_iva"}},
	{"hacer una copia de seguridad del perfil", []string{"config_profile_archive_export"}},
	{"attach a receipt to a transaction", []string{"app_ledger_attach", "app_ledger_evidence_add"}},
	{"marcar el modelo 303 como presentado", []string{"app_modelo_work_file"}},
	{"am I logged in?", []string{"auth_status", "config_auth_test"}},
	{"delete a profile", []string{"config_profile_delete"}},
	{"dar de alta un certificado digital", []string{"config_auth_certificate_register"}},
	{"historial de un movimiento", []string{"app_ledger_history"}},
	{"what does box 27 of modelo 303 mean", []string{"app_modelo_casilla"}},
	{"dividir un movimiento en varios", []string{"app_ledger_split"}},
	{"how much disk space does aeat use", []string{"config_storage_list", "config_storage_show", "config_storage_reclaim", "config_profile_sandbox_usage"}},
	{"leer mis datos censales de la AEAT", []string{"config_profile_censo_pull"}},
	{"calcular la declaración trimestral de IVA", []string{"app_modelo_work_calculate"}},
	{"overdue filings", []string{"app_overview_backlog", "overview_agenda"}},
}

// heldOutLater are more requests of the same kind, written once the
// ranking was done (the first set's misses had been seen while it was
// built) and run against it once, unchanged since: the honest measure of
// how it does on requests it was not tuned to.
var heldOutLater = []rankRequest{
	{"quiero ver mis movimientos bancarios", []string{"ledger_list"}},
	{"show details of one transaction", []string{"ledger_view"}},
	{"descargar mis declaraciones presentadas", []string{"filed_pull", "app_live_filed_pull_all"}},
	{"what is the status of my profile", []string{"profile_show", "config_profile_status", "overview_status"}},
	{"change the profile name", []string{"config_profile_rename", "config_profile_edit"}},
	{"list the supported tax forms", []string{"modelo_list", "app_modelo_support_matrix"}},
	{"¿qué casillas tiene el modelo 130?", []string{"app_modelo_casillas"}},
	{"comprobar que la configuración está bien", []string{"config_check"}},
	{"revisar la cola de revisión", []string{"app_review_queue"}},
	{"add a child to my tax profile", []string{"config_profile_descendiente_add"}},
	{"lista de hijos a cargo", []string{"config_profile_descendiente_list"}},
	{"encrypt the review package for my accountant", []string{"app_modelo_rp_encrypt_for_recipient"}},
	{"restaurar una copia de seguridad", []string{"config_profile_archive_import"}},
	{"set up Google Drive sync", []string{"config_google_register", "config_google_folder_set", "config_google_login", "config_google_sync_push"}},
	{"verificar una firma", []string{"app_modelo_rp_verify_signature", "app_modelo_review_package_verify"}},
	{"what's my VAT balance to compensate", []string{"app_modelo_iva_wallet_balance"}},
	{"ver las notificaciones guardadas", []string{"app_live_notifications_list"}},
	{"delete an invoice", []string{"app_ledger_invoice_remove"}},
	{"importar facturas", []string{"app_ledger_invoice_import"}},
	{"preparar la declaración del trimestre", []string{"app_overview_prepare", "app_modelo_work_create"}},
	{"rotate the recovery code", []string{"config_recovery_rotate"}},
	{"liberar espacio de almacenamiento", []string{"config_storage_reclaim"}},
	{"remove a certificate", []string{"config_auth_certificate_remove"}},
	{"log out of google", []string{"config_google_logout"}},
	{"exportar los movimientos a CSV", []string{"app_ledger_export"}},
	{"which obligations haven't I filed yet", []string{"app_overview_backlog"}},
	{"validar el perfil", []string{"config_profile_validate"}},
	{"list saved debt snapshots", []string{"debts_list"}},
}

// heldOutSealed are 30 requests written for issue 28 item 5's second
// round, before any change to the ranking of that round and committed
// apart, then measured once with the ranking as it was and once with the
// ranking that round made — never looked at in between, never tuned to.
// The other sets (tunedTo, heldOut, heldOutLater) were the tuning set of
// that round. Each request's tools were decided from the real CLI's own
// help (testdata/aeat-cli/help.json) and its command tree, never from the
// ranking: any of them in the first three is a hit.
var heldOutSealed = []rankRequest{
	// Spanish
	{"¿cuándo vence el próximo modelo 130?", []string{"overview_agenda", "app_overview_calendar"}},
	{"¿me toca presentar el modelo 349?", []string{"app_overview_explain"}},
	{"crear una regla para clasificar automáticamente los pagos de Amazon", []string{"app_ledger_rule_add"}},
	{"ver el borrador de la renta", []string{"app_live_borrador_100_latest", "app_live_borrador_100_list", "app_live_borrador_100_view"}},
	{"¿qué casillas tengo que rellenar a mano en el 303?", []string{"app_modelo_requires"}},
	{"presentar una complementaria del 130", []string{"app_modelo_work_amend", "app_modelo_work_amend_wizard"}},
	{"tengo un certificado digital nuevo y quiero usarlo", []string{"config_auth_certificate_register", "config_auth_certificate_select"}},
	{"borrar todos los datos locales y empezar de cero", []string{"config_reset_start"}},
	{"preparar un paquete para que lo revise mi gestor", []string{"app_modelo_review_package_build"}},
	{"leer los datos de una factura en PDF", []string{"app_ledger_evidence_extract", "app_ledger_evidence_add"}},
	{"deshacer la división de un movimiento", []string{"app_ledger_merge"}},
	{"recuperar un movimiento archivado", []string{"app_ledger_restore"}},
	{"¿nos sale mejor hacer la declaración conjunta o individual?", []string{"app_modelo_work_compare_taxation"}},
	{"ver los expedientes abiertos con Hacienda", []string{"app_live_expedientes_list", "app_live_expedientes_latest", "app_live_expedientes_view", "app_live_expedientes_pull"}},
	{"¿está dado de alta en el ROI este NIF?", []string{"app_live_verify_tgvi"}},
	// English
	{"import my bank transactions from a CSV file", []string{"ledger_import"}},
	{"show transactions that still need a category", []string{"ledger_list", "app_ledger_preflight"}},
	{"apply my categorisation rules", []string{"app_ledger_rule_apply"}},
	{"do I owe the tax office anything", []string{"debts_list", "app_live_deudas_latest", "app_live_deudas_view"}},
	{"start working on form 130 for the second quarter", []string{"app_modelo_work_create", "app_overview_prepare", "app_modelo_work_wizard"}},
	{"check the calculation is complete before filing", []string{"app_modelo_work_verify", "app_modelo_readiness"}},
	{"compare this year's return with last year's", []string{"app_modelo_compare"}},
	{"when does my digital certificate expire", []string{"config_auth_certificate_check"}},
	{"connect my Google account", []string{"config_google_login", "config_google_register"}},
	{"where are the log files", []string{"config_repair_logs"}},
	{"the app can't reach the AEAT website", []string{"config_repair_connectivity"}},
	{"add my accountant's public key", []string{"config_collab_recipient_add"}},
	{"is there a new letter from Hacienda?", []string{"notifications_pull", "app_live_notifications_latest", "app_live_notifications_list"}},
	{"set 50% business use for my car expenses", []string{"app_ledger_ratios_set", "app_ledger_allocate"}},
	{"export all my personal data (GDPR request)", []string{"config_profile_subject_access_request"}},
}

// heldOutSealed2 are 30 more requests, written once heldOutSealed had
// been measured (and so had become part of the tuning set) and before any
// change the ranking made after it; committed apart, measured once before
// and once after those changes, never tuned to. Their tools were decided
// as heldOutSealed's were, from the CLI's own help.
var heldOutSealed2 = []rankRequest{
	// Spanish
	{"registrar el modelo 036 de alta que presenté en la sede", []string{"app_modelo_m036_alta"}},
	{"¿cuánto me está costando el LLM?", []string{"app_ledger_llm_diagnostics", "app_diagnostics_llm_usage"}},
	{"descargar el modelo de IA para leer facturas", []string{"config_provision_pull"}},
	{"¿qué entornos de prueba tengo?", []string{"config_profile_sandbox_list"}},
	{"excluir un movimiento de la declaración", []string{"app_ledger_exclude"}},
	{"vincular un movimiento con su factura", []string{"app_ledger_link", "app_ledger_attach"}},
	{"¿qué leyes respaldan este cálculo?", []string{"app_registry_citations_list", "app_registry_citations_view"}},
	{"cambiar el nombre de una unidad de trabajo", []string{"app_modelo_work_rename"}},
	{"descartar el borrador del modelo 303 que empecé", []string{"app_modelo_work_discard"}},
	{"cotejar el justificante con mi cálculo", []string{"app_modelo_reconcile_file", "app_modelo_reconcile_pull"}},
	{"¿en qué punto está la preparación del trimestre?", []string{"app_overview_pipeline", "app_overview_prepare", "app_modelo_readiness"}},
	{"quitar la proporción del coche", []string{"app_ledger_ratios_unset"}},
	{"guardar los datos del pagador en el modelo 145", []string{"app_modelo_m145_create"}},
	{"apartar un movimiento para revisarlo luego", []string{"app_ledger_stash"}},
	{"consultar el NIF de un proveedor en el registro de operadores intracomunitarios", []string{"app_live_verify_tgvi", "app_live_verify_nif_iva"}},
	// English
	{"which returns am I working on right now", []string{"app_modelo_work_list"}},
	{"what changed in the 303 rules between 2024 and 2025", []string{"app_registry_diff_revisions"}},
	{"show me the formula for each box of form 130", []string{"app_modelo_formulas"}},
	{"which invoices are still waiting for me to review", []string{"app_ledger_evidence_review_list", "app_review_queue"}},
	{"which Google Drive folder is it using", []string{"config_google_folder_get"}},
	{"bulk import invoices from a Drive folder", []string{"app_ledger_pull_folder", "app_ledger_evidence_batch"}},
	{"record that I changed my tax address with the 036", []string{"app_modelo_m036_modificacion"}},
	{"is my recovery code set up?", []string{"config_recovery_status"}},
	{"remove my accountant from trusted recipients", []string{"config_collab_recipient_remove"}},
	{"delete all sandboxes", []string{"config_profile_sandbox_prune"}},
	{"the active profile seems broken, repair it", []string{"config_repair_profile"}},
	{"open the encrypted package my client sent me", []string{"app_modelo_review_package_decrypt", "app_modelo_rp_import_feedback"}},
	{"sign the review package before sending it", []string{"app_modelo_review_package_sign"}},
	{"which modelos can aeat export to a BOE file", []string{"app_modelo_support_matrix"}},
	{"how many transactions did I import last quarter", []string{"ledger_list", "ledger_status"}},
}

// heldOutSealed3 are 30 more, written once heldOutSealed2 had been
// measured and before any change made after it; committed apart, measured
// once before and once after, never tuned to.
var heldOutSealed3 = []rankRequest{
	// Spanish
	{"¿qué modelos tengo que presentar este año?", []string{"app_overview_explain", "overview_agenda", "app_overview_calendar"}},
	{"poner una regla para que los pagos de Netflix sean personales", []string{"app_ledger_rule_add"}},
	{"ver los pasos que faltan para el modelo 130", []string{"app_overview_prepare", "app_modelo_requires"}},
	{"guardar un apunte manual de un pago en efectivo", []string{"app_ledger_add"}},
	{"cambiar la categoría de un movimiento", []string{"app_ledger_classify", "app_ledger_update"}},
	{"ver el detalle de una factura", []string{"app_ledger_invoice_view", "app_ledger_evidence_view"}},
	{"declarar la prorrata general de este año", []string{"app_ledger_prorrata_elect_general"}},
	{"iniciar sesión con mi perfil", []string{"config_login"}},
	{"reanudar un cálculo que se cortó", []string{"app_modelo_work_resume"}},
	{"eliminar un hijo del perfil", []string{"config_profile_descendiente_remove"}},
	{"seleccionar qué certificado usar", []string{"config_auth_certificate_select"}},
	{"quitar la contraseña guardada del certificado", []string{"config_auth_certificate_secret_remove"}},
	{"descargar las declaraciones de años anteriores", []string{"app_live_filed_pull_all", "filed_pull"}},
	{"marcar el 145 como entregado a la empresa", []string{"app_modelo_m145_mark_delivered_to_payer"}},
	{"comprobar la integridad de los ficheros cifrados", []string{"config_repair_integrity_objects"}},
	// English
	{"show the last 20 lines of the log", []string{"config_repair_logs"}},
	{"which profile is active", []string{"profile_list", "config_profile_status", "profile_show"}},
	{"make a copy of my profile for testing", []string{"config_profile_duplicate", "config_profile_sandbox_create"}},
	{"list the accounting categories for expenses", []string{"app_ledger_categories"}},
	{"record an expense I paid in cash", []string{"app_ledger_add"}},
	{"what has to be filled in by hand on the 111", []string{"app_modelo_requires"}},
	{"archive a sandbox I'm not using", []string{"config_profile_sandbox_archive"}},
	{"merge the sandbox back into my real profile", []string{"config_profile_sandbox_merge"}},
	{"check whether AEAT's PDF receipt matches my numbers", []string{"app_modelo_reconcile_file", "app_modelo_reconcile_pull"}},
	{"export the calculation to Google Sheets", []string{"config_google_sync_calc_export"}},
	{"see the full history of a tax form", []string{"app_modelo_history", "app_modelo_work_history"}},
	{"which legal article defines this box", []string{"app_modelo_casilla", "app_registry_citations_view"}},
	{"update an invoice's amount", []string{"app_ledger_invoice_update", "app_ledger_evidence_update"}},
	{"how much space do the sandboxes take", []string{"config_profile_sandbox_usage"}},
	{"disconnect Google Drive", []string{"config_google_logout"}},
}

// heldOutSealed4 are 30 more (issue 28 item 5, round five), written the
// way a taxpayer or an accountant talks, each checked against the CLI's
// help (testdata/aeat-cli/help.json) — committed before the verbs'
// paraphrases (paraphrases.json) and measured once before and once after.
var heldOutSealed4 = []rankRequest{
	// Spanish
	{"¿tengo alguna carta nueva de Hacienda?", []string{"notifications_pull", "app_live_notifications_latest", "app_live_notifications_list"}},
	{"¿cuánto le debo a Hacienda?", []string{"app_live_deudas_latest", "debts_list", "app_live_deudas_view"}},
	{"subir el extracto del banco de octubre", []string{"ledger_import"}},
	{"¿cuándo vence lo próximo que tengo que pagar?", []string{"overview_agenda", "app_overview_calendar"}},
	{"apuntar que ya me di de alta en el censo con el 036", []string{"app_modelo_m036_alta"}},
	{"borrar una factura que metí dos veces", []string{"app_ledger_invoice_remove", "app_ledger_evidence_remove"}},
	{"partir un cargo de Amazon en dos, una parte personal y otra del negocio", []string{"app_ledger_split", "app_ledger_allocate"}},
	{"¿qué datos me faltan en el perfil para hacer el 303?", []string{"config_profile_preflight", "app_modelo_readiness"}},
	{"hacer una copia de seguridad cifrada de todo", []string{"config_profile_archive_export"}},
	{"cambiar la contraseña del certificado digital", []string{"certificate_secret_set"}},
	{"¿cuánto IVA me queda por compensar?", []string{"app_modelo_iva_wallet_balance", "app_live_iva_wallet_pull"}},
	{"¿qué tiques de compra están pendientes de revisar?", []string{"app_ledger_evidence_review_list", "app_review_queue"}},
	{"comprobar si el NIF de un cliente europeo vale para operaciones intracomunitarias", []string{"app_live_verify_nif_iva", "app_live_verify_tgvi"}},
	{"dejar de compartir paquetes con mi antigua asesora", []string{"config_collab_recipient_remove"}},
	{"hacer las cuentas del 130 del segundo trimestre", []string{"app_modelo_work_calculate", "app_modelo_work_wizard"}},
	// English
	{"how much do I owe the tax office", []string{"app_live_deudas_latest", "debts_list", "app_live_deudas_view"}},
	{"upload the CSV my bank gave me", []string{"ledger_import"}},
	{"what do I have to file this month", []string{"overview_agenda", "app_overview_calendar", "app_overview_backlog"}},
	{"I forgot to file last quarter, what is overdue", []string{"app_overview_backlog", "overview_agenda"}},
	{"get the receipt for the VAT return I filed", []string{"justificante_pull", "app_live_justificante_list", "app_live_justificante_view"}},
	{"undo splitting a transaction", []string{"app_ledger_merge"}},
	{"leave this payment out of my tax return, it was never business", []string{"app_ledger_exclude"}},
	{"put a transaction aside to deal with later", []string{"app_ledger_stash"}},
	{"bring back a transaction I archived by mistake", []string{"app_ledger_restore"}},
	{"who am I acting on behalf of as a representative", []string{"config_auth_apoderado_status"}},
	{"do I have backup words in case I forget my passphrase", []string{"config_recovery_status", "config_recovery_create"}},
	{"grab all the invoice PDFs sitting in my Drive folder", []string{"app_ledger_pull_folder"}},
	{"when does my digital certificate expire", []string{"config_auth_certificate_check"}},
	{"what changed in the 303 between 2024 and 2025", []string{"app_registry_diff_revisions", "app_modelo_compare"}},
	{"make sure the browser can get to the Sede", []string{"config_repair_connectivity"}},
}

// heldOutSealed5 are 30 more, written once the paraphrases were in and
// frozen, each verb checked against the CLI's help; committed before the
// ranking was run on them, measured once, never tuned to.
var heldOutSealed5 = []rankRequest{
	// Spanish
	{"necesito meter los movimientos de la tarjeta de crédito que me bajé del banco", []string{"ledger_import"}},
	{"¿me ha llegado algo a la dirección electrónica habilitada?", []string{"notifications_pull", "app_live_notifications_latest", "app_live_notifications_list"}},
	{"quiero saber qué modelos me tocan como autónomo", []string{"app_overview_explain", "overview_agenda", "app_overview_calendar"}},
	{"el ordenador que compré para el negocio, ¿cómo lo registro como bien de inversión?", []string{"app_ledger_bienes_inversion_declare"}},
	{"la luz de casa la uso un 30% para trabajar, ¿cómo lo indico?", []string{"app_ledger_allocate", "app_ledger_ratios_set"}},
	{"me he equivocado en el 303 que ya presenté y quiero hacer una complementaria", []string{"app_modelo_work_amend", "app_modelo_work_amend_wizard"}},
	{"asociar el recibo de Endesa al cargo del banco", []string{"app_ledger_link", "app_ledger_attach"}},
	{"¿cuánto tengo que pagar de IRPF este trimestre?", []string{"app_modelo_work_calculate", "app_modelo_work_wizard"}},
	{"dar de baja en Hacienda la actividad que ya cerré", []string{"app_modelo_m036_baja"}},
	{"añadir a mi hija recién nacida para la deducción", []string{"config_profile_descendiente_add"}},
	{"¿la aplicación tiene acceso a Google Drive?", []string{"config_google_status", "config_google_sync_probe"}},
	{"pasar los gastos del año a un fichero", []string{"app_ledger_export"}},
	{"revisar que el 111 está listo antes de mandarlo", []string{"app_modelo_readiness", "app_modelo_work_verify"}},
	{"¿en qué casilla va el alquiler del local?", []string{"app_modelo_casilla", "app_modelo_casillas"}},
	{"borrar todo y volver a empezar desde cero con la aplicación", []string{"config_reset_start"}},
	// English
	{"my accountant sent back comments on the package, how do I read them", []string{"app_modelo_rp_import_feedback"}},
	{"send my advisor the Q3 VAT return to look over", []string{"app_modelo_review_package_build", "app_modelo_rp_encrypt_for_recipient"}},
	{"I changed banks, load the new account's movements", []string{"ledger_import"}},
	{"is my login still valid", []string{"auth_status", "config_auth_test"}},
	{"show me everything I spent on fuel", []string{"ledger_list"}},
	{"remove the transaction I entered twice", []string{"ledger_remove"}},
	{"list the kids on my profile", []string{"config_profile_descendiente_list"}},
	{"make a new profile for my wife", []string{"config_profile_create", "config_profile_duplicate"}},
	{"which invoices still need me to check the extracted data", []string{"app_ledger_evidence_review_list", "app_review_queue"}},
	{"what are the deadlines for form 130", []string{"overview_agenda", "app_overview_calendar"}},
	{"erase the Google credentials from this machine", []string{"config_google_logout"}},
	{"copy everything to my Drive as a backup", []string{"config_google_sync_push", "config_profile_archive_export"}},
	{"the program crashed halfway through, can I pick up where it stopped", []string{"app_modelo_work_resume", "app_modelo_work_runs"}},
	{"is the local AI model installed and working", []string{"config_provision_verify", "config_provision_report"}},
	{"which countries have I confirmed my suppliers are in", []string{"app_ledger_counterparty_show"}},
}

// heldOutSealed6 are 30 more, written once the second round of
// paraphrases (and the share of a paraphrase a request says) was in and
// frozen, each verb checked against the CLI's help; committed before the
// ranking was run on them, measured once, never tuned to.
var heldOutSealed6 = []rankRequest{
	// Spanish
	{"¿qué me queda por hacer antes de presentar el IVA del trimestre?", []string{"app_overview_prepare", "app_modelo_readiness", "app_overview_pipeline", "app_modelo_requires"}},
	{"quiero ver el borrador de la renta que me ha hecho Hacienda", []string{"app_live_borrador_100_latest", "app_live_borrador_100_view", "app_live_borrador_100_list"}},
	{"tengo que actualizar mi dirección fiscal", []string{"config_profile_edit", "app_modelo_m036_modificacion"}},
	{"¿está caducado mi certificado de la FNMT?", []string{"config_auth_certificate_check"}},
	{"guardar el PDF de una factura de un proveedor", []string{"app_ledger_evidence_add"}},
	{"¿qué normativa aplica a esta casilla?", []string{"app_modelo_casilla", "app_registry_citations_view"}},
	{"juntar otra vez las dos partes de un movimiento que dividí", []string{"app_ledger_merge"}},
	{"hacer sitio en el disco", []string{"config_storage_reclaim"}},
	{"cambiar a otro certificado digital para entrar", []string{"config_auth_certificate_select"}},
	{"que se categoricen solos los movimientos que faltan", []string{"app_ledger_rule_apply"}},
	{"¿cuántas facturas tengo registradas?", []string{"app_ledger_invoice_list", "app_ledger_evidence_list"}},
	{"bajar de Hacienda los datos censales para rellenar mi perfil", []string{"config_profile_censo_pull"}},
	{"comparar si presentamos la renta juntos o por separado", []string{"app_modelo_work_compare_taxation"}},
	{"quiero ver los trámites que tengo abiertos con la Agencia", []string{"app_live_expedientes_latest", "app_live_expedientes_pull", "app_live_expedientes_list"}},
	{"dejar aparcado un cargo hasta que hable con el banco", []string{"app_ledger_stash"}},
	// English
	{"what's left to do before I can submit the quarterly VAT", []string{"app_overview_prepare", "app_modelo_readiness", "app_overview_pipeline", "app_modelo_requires"}},
	{"show me the tax office's pre-filled income tax draft", []string{"app_live_borrador_100_latest", "app_live_borrador_100_view", "app_live_borrador_100_list"}},
	{"I moved house, update my address", []string{"config_profile_edit", "app_modelo_m036_modificacion"}},
	{"take a photo of a receipt and store it", []string{"app_ledger_evidence_add"}},
	{"how do I tell the app that Uber rides are always travel expenses", []string{"app_ledger_rule_add"}},
	{"which law says this box is calculated this way", []string{"app_modelo_casilla", "app_registry_citations_view"}},
	{"archive the test copy I made last week", []string{"config_profile_sandbox_archive"}},
	{"print the list of every form the tool knows", []string{"modelo_list", "app_modelo_support_matrix"}},
	{"add my accountant's key so I can send her files", []string{"config_collab_recipient_add"}},
	{"what did the tax agency say in that letter from March", []string{"app_live_notifications_view", "app_live_notifications_list"}},
	{"rename my sole-trader profile", []string{"config_profile_rename"}},
	{"delete the old profile of my late father", []string{"config_profile_delete"}},
	{"apply my auto-categorize rules now", []string{"app_ledger_rule_apply"}},
	{"download the proof that I filed the 130", []string{"justificante_pull"}},
	{"what am I allowed to do on behalf of my clients", []string{"config_auth_apoderado_scopes_list", "config_auth_apoderado_status"}},
}

// tunedTo are the requests the ranking was tuned on (issue 28 item 5):
// kept apart from heldOut, which says how well it does on requests it was
// not tuned to.
var tunedTo = []rankRequest{
	{"show the ledger", []string{"ledger_list"}},
	{"listar mis perfiles", []string{"profile_list"}},
	{"configurar un apoderado", []string{"config_auth_apoderado_configure"}},
	{"rename a profile", []string{"config_profile_rename"}},
	{"exportar el modelo en fichero BOE", []string{"app_modelo_export"}},
	{"verificar el almacenamiento", []string{"config_storage_check"}},
	{"reglas de clasificación", []string{"app_ledger_rule_list"}},
	{"add a manual transaction", []string{"app_ledger_add"}},
	{"which categories can I use", []string{"app_ledger_categories"}},
	{"subir los datos a Google Drive", []string{"config_google_sync_push"}},
	{"crear un código de recuperación", []string{"config_recovery_create"}},
	{"descartar un sandbox", []string{"sandbox_discard"}},
	{"compare joint and individual taxation", []string{"app_modelo_work_compare_taxation"}},
	{"ver una factura", []string{"app_ledger_invoice_view"}},
	{"is everything ready to file", []string{"overview_status", "ledger_status", "app_modelo_readiness"}},
}

// rankRequest is one request of aeat_mcp_find and the tools that answer
// it: any of them in the first three is a hit.
type rankRequest = struct {
	query string
	want  []string
}

// firstThree counts the requests whose tool idx ranks in the first three,
// logging the others.
func firstThree(t *testing.T, idx rankIndex, set string, reqs []rankRequest) int {
	t.Helper()
	hits := 0
	for _, tc := range reqs {
		top := rankNames(idx.rank(tc.query), 3)
		if slices.ContainsFunc(tc.want, func(w string) bool { return slices.Contains(top, w) }) {
			hits++
		} else {
			t.Logf("%s: miss: %q: first three %v, want one of %v", set, tc.query, top, tc.want)
		}
	}
	t.Logf("%s: %d of %d in the first three", set, hits, len(reqs))
	return hits
}

// TestRank_HeldOut: over the whole aeat, the right tool is among the first
// three for most requests, in Spanish and in English. The goal is 9 in 10
// on requests not tuned to (issue 28 item 5); what each set measured when
// it was last not tuned to:
//
//   - round one tuned to tunedTo; heldOut and heldOutLater: 23 of 56
//     before the CLI's help and the bilingual ranking, 49 (87.5 %) after;
//   - round two tuned to those 71 (the intent of a request, the command
//     path, numbers as arguments): 55 of 56; heldOutSealed, written before
//     it, 24 of 30 before and 23 (76.7 %) after;
//   - round three tuned to all 101 (questions in Spanish need ¿?, "new"
//     names no action, lexicon): heldOutSealed 27 of 30; heldOutSealed2,
//     written before it, 22 of 30 before and 22 (73.3 %) after (19 with
//     round one's ranking);
//   - round four tuned to all 131 (a number finds "m036", all = every,
//     lexicon): heldOutSealed2 27 of 30; heldOutSealed3, written before
//     it, 25 of 30 before and 25 (83.3 %) after (25 with round one's).
//
// So on the 90 sealed requests, each set measured with round one's
// ranking (main before round two) and with the ranking of the round it
// was held out from: 68 of 90, then 70 of 90 (77.8 %) — short of 9 in 10;
// the misses left are mostly words the CLI's help never uses
// ("disconnect", "paid in cash", "ficheros cifrados").
//
// Then paraphrases, what a person says for each verb (paraphrases.json),
// written after all the sets above had been seen, so those are tuned to:
//
//   - round five (the paraphrases, weight 3, a whole one said counts 1.5×):
//     heldOutSealed4, written and committed before it, 21 of 30 before and
//     27 (90 %) after; heldOutSealed5, written after it, 19 of 30 (the
//     ranking before paraphrases: 15);
//   - round six tuned to all 221 (198 more everyday phrases, a paraphrase
//     said in part counts in part): heldOutSealed6, written before it was
//     run, 28 of 30 (93.3 %) (round five's ranking 27, the ranking before
//     paraphrases 20).
//
// So on the 90 requests of sets 4 to 6, each measured with the ranking it
// was held out from: 74 of 90 (82.2 %), against 56 of 90 (62.2 %) for
// the ranking before paraphrases. Every set was written by the engineer
// who wrote the paraphrases, which flatters them; set 5 (63.3 %) is the
// fairest sign of what a request in words nobody foresaw finds.
//
// Then a set by someone else, and a round tuned to it:
//
//   - heldOutSealed7, 40 requests written by an engineer who had never
//     seen the phrases, the ranker or any earlier set: blind, 29 of 40
//     (72.5 %) on 0aa697f — the honest measure of words nobody foresaw;
//   - round seven tuned to all 291 (Spanish clitics and irregular
//     verbs, synonyms by stem, tax periods and years as arguments, "why"
//     and "need to", everyday words in the lexicon): set 7 38 of 40 on
//     the paraphrases reviewed twice (main c4991f5 alone: 28), sets 1–6
//     as many or more than before it. A second pass rewarding a verb
//     whose group and help both match was measured and left out (it
//     gained nothing, and lost one to four requests as its bonus grew).
//     Merged with the second review's phrases and its "file" senses,
//     set 7 holds 36 of 40: the debts readers' phrases now say they cannot
//     tell what one owes (0.2.2 never captures a debts snapshot,
//     _app_live_deudas_cli.py:8-13), and "¿Le debo algo a Hacienda?" no
//     longer finds them — true phrases, on purpose.
//   - heldOutSealed8, 40 more by another engineer who had never seen the
//     phrases, the ranker or any earlier set (nor set 7), never tuned to:
//     36 of 40 on main before the reviews (ee323d8), 34 after the reviews
//     (1a971a2), 34 with round seven too. So on the 80 requests written
//     independently, each measured blind: 29 + 34 = 63 of 80 (78.8 %) —
//     short of 9 in 10; round seven's words did not carry to set 8.
//
// Then a round tuned to neither set's words, only to mechanisms, chosen
// from why set 8 missed:
//
//   - round eight (a sentence five or more tools' descriptions share is
//     the catalog's and counts for none — "Needs the user's aeat login
//     session" had put "login" in 280 of 300 tools; a file path in a
//     request is its file's name and asks for a tool that takes a file;
//     a lexicon phrase in any form of its words, "inicia sesión"; "log"
//     a thing and an act, as "file"; two words the lexicon has in no
//     group together never match by their stems, "listo" is not "list";
//     an English verb and its particle, "pull in", "hand in", "get to";
//     a Spanish verb's plural persons and preterite, "faltan",
//     "presentaron"): on main 73fb802 before it, tuned to 14 of 15,
//     heldOut 28/28, heldOutLater 27/28, sealed 30, sealed2 29, sealed3
//     30, sealed4 28, sealed5 28, sealed6 29, sealed7 36, sealed8 34 (313
//     of 351); after it, the same but sealed4 29 of 30 and sealed8 38 of
//     40 (318). Set 8 is now a tuning set too: its misses chose the
//     mechanisms. A param's help and choices
//     as a field of its own was measured and left out: at weight 1 or
//     0.5, with or without its shared sentences, it lost 1 to 4 of 351
//     ("Filing period as an AEAT token: 1T-4T…" pulls "submit the
//     quarterly VAT" to the verbs that take a period); its choices alone
//     changed nothing.
//
// Then two more sets by two more engineers who had never seen the phrases,
// the ranker or any earlier set, measured once each, blind, on both rounds:
//
//   - heldOutSealed9 (first-year autónomos, a landlord, a retiree, a young
//     family): round seven 29 of 40, round eight 28;
//   - heldOutSealed10 (a gestor with clients, a scripter, a broken install,
//     a letter from Hacienda): round seven 33 of 40, round eight 32.
//
// Round eight lost "anótalo" (the rent received) and "record … that I'm
// acting for him" (the power of attorney), found nothing round seven did
// not: its mechanisms carried no better than round seven's words. On the
// 160 requests written independently, each measured blind with the
// ranking it was held out from: 29 + 34 + 28 + 32 = 123 (76.9 %).
//
// Then a round tuned to sets 9 and 10 (so they are tuning sets too):
//
//   - round nine (the jobs users name for a verb, from the CLI's how-to
//     sequences: config login is how one switches to another profile or
//     client — profile-setup-multiple runs "config login my-other-profile";
//     profile status says which is active; project is the year's income
//     tax from the quarters filed; the review queue is what needs one's
//     attention; "hacer el 303" is work create. And morphology: a
//     one-syllable imperative with its pronouns, "hazme", is its verb;
//     "switch over" is to switch; "por hacer" is pending, not to make):
//     on main 0701067 before it, tuned to 14 of 15, heldOut 28/28,
//     heldOutLater 27/28, sealed 30, sealed2 29, sealed3 30, sealed4 29,
//     sealed5 28, sealed6 29, sealed7 36, sealed8 38, sealed9 28,
//     sealed10 32 (378 of 431); after it, the same but sealed7 37, sealed9
//     31 and sealed10 36 (386). "To do" as pending was tried and dropped:
//     it took "what am I allowed to do on behalf of my clients" (set 6)
//     away from the apoderado. Left missing: "anótalo" (the rent), the
//     power of attorney "record", a child for the 145, the joint
//     taxation "juntos", and others — see the test's log.
//
// Then set 11, by a fifth engineer who had never seen the phrases, the
// ranker or any earlier set (a salaried worker with a side business, an
// autónomo selling to the EU, a bookkeeper's short commands, a first Renta
// alone, a worry about a deadline or a penalty), measured once, blind:
// round seven 36 of 40, round eight 38, round nine 38 — round nine's
// phrases neither won nor lost a request of it; its two misses are "¿le
// debo algo a Hacienda?" (true phrases, on purpose: see set 7) and a
// letter "I have to answer" (notifications). On the 200 requests written
// independently, each measured blind with the ranking it was held out
// from: 29 + 34 + 28 + 32 + 38 = 161 (80.5 %).
//
// Then a round tuned to the misses left on every set (so all of them are
// tuning sets now), by mechanisms rather than their words, each checked
// against the CLI's source or how-to guides:
//
//   - round ten ("deber" is to owe, and must before an infinitive — its
//     forms share no stem, so "¿le debo algo a Hacienda?", missed in four
//     sets, said only Hacienda; a to-do list is the review queue,
//     classify-transactions.md's own words; the tax office is the
//     agency, a requerimiento and an escrito notifications, and the DEHu
//     pull reads what one must answer; invoice add records an invoice
//     sent or received, manage-invoices.md; config check says what is
//     missing, workstation-setup.md; a question of when asks for the
//     deadline verbs; past, previous, anteriores, and last year is past,
//     not the latest; an imperative in -a is an -ar verb, "bájame" is
//     bajar and not the census baja; a short -ar verb's participle is
//     its verb, "pagado"; "forgot" is forget; joint taxation said
//     together, juntos; a child said niña, son, baby): on main 3343587 before it, tuned to 14 of
//     15, heldOut 28/28, heldOutLater 27/28, sealed 30, sealed2 29,
//     sealed3 30, sealed4 29, sealed5 28, sealed6 29, sealed7 37,
//     sealed8 38, sealed9 31, sealed10 36, sealed11 38 (424 of 451);
//     after it, the same but sealed4 30, sealed7 39, sealed8 40, sealed9
//     37 and sealed11 40 (437). Tried and dropped: add as a verb related
//     to record and anotar (found nothing more, lost a set-8 request to
//     evidence add); "pasado" out of the past group (lost three requests
//     for the backlog that say "del año pasado"); "logged" as recording
//     an expense ("logged in the first quarter" is the phrase logged in);
//     clear as remove; a paraphrase of expedientes pull for "what the
//     agency has on record" (no gain). Left missing: "expense I logged
//     in the first quarter", the 145 for a new child, a folder of
//     receipts (set 9); a new client as a profile, the power of
//     attorney "record", the 303 credit to offset (set 10); the Google
//     credentials, "que se categoricen solos", and others — see the
//     test's log. Set 12, written blind, is the measure of this round.
//
// Then set 12, by a sixth engineer who had seen neither the ranker nor
// its data (persona-driven: Renta with deductions, an autónomo who
// invoices and suffers retenciones, closing a business, a new computer,
// a power of attorney, a phone), measured once, blind: round nine 29 of
// 40, round ten 31 (72 %). Its misses were the jobs users name that the
// CLI's help does not say, and withholding said many ways:
//
//   - round eleven (withholding is one word in both languages and the
//     CLI's: retención, retention — invoice add's retention_rate, profile
//     edit's pays_professionals_with_retencion — "kept back", "holding
//     back", withheld, retuvo, retienen; an amount may stand between a
//     phrase's words, "kept 15 % back". Paraphrases from the CLI's help
//     and guides: invoice list's --kind issued, the invoices one sent;
//     link binds the transaction "that paid or collected" an invoice; a
//     rule classifies "automatically", without doing it each time; the
//     145 is the data a payer asks for the payroll retención; profile
//     edit's flags for paying professionals with retención and for the
//     Art. 109 70 % exception; the 130's applicability if clients
//     already withhold; the Modelo 100's manual inputs, what an
//     employer's certificate says it withheld; backlog's "¿me he dejado
//     algo sin presentar?"): on h48 a9453b4 plus set 12 before it, tuned
//     to 14 of 15, heldOut 28/28, heldOutLater 27/28, sealed 30, sealed2
//     29, sealed3 30, sealed4 30, sealed5 28, sealed6 29, sealed7 39,
//     sealed8 40, sealed9 37, sealed10 36, sealed11 40, sealed12 31 (468
//     of 491); after it, the same but sealed9 38 (the child for the 145)
//     and sealed12 40 (478). Tried and dropped: a request that names no
//     action asking, like a question, for a tool that reads (no set
//     moved, and invoice list is not marked read-only, so "facturas que
//     mandé este trimestre" lost every invoice verb to the pipeline); a
//     backlog paraphrase with "trimestre" (took "what's left to do
//     before I can submit the quarterly VAT", set 6, to the backlog).
//     Left as they were: "I sent in March" is the phrase send in, to
//     submit; "me libro" cannot be to be exempt, libro is the ledger's
//     book.
//
// Then set 13, by a seventh engineer who had seen neither the ranker nor
// its data (an IVA-exempt physiotherapist, a couple one autónomo and one
// salaried, someone newly resident, royalties, a penalty or a letter, a
// terse power user), measured once, blind: round nine 34 of 40, round
// ten 35, round eleven 35 (87.5 %; it found "work out our 2025 income
// tax return" and lost "how do I write up an invoice for a patient?" to
// invoice update). Not yet tuned to. Over the seven sets written
// independently (7 to 13), each measured with the ranking held out from
// it: 29 + 34 + 28 + 32 + 38 + 31 + 35 = 227 of 280 (81 %).
//
// Then a round tuned to set 13 (so it is a tuning set too), 62 phrases
// to 25 verbs and three synonym groups, by the jobs and situations users
// name rather than the CLI's words, each from the CLI's help or how-to
// guides:
//
//   - round twelve (paraphrases: invoice add records an invoice "que le
//     hice" to a customer and one exempt from VAT, its --iva-category
//     domestic_exempt; the prorrata elections are for one who "cannot
//     deduct all input IVA" because the activity mixes exempt and taxed
//     operations, prorrata.md; modelo requires and profile preflight say
//     what to have ready for the Renta, modelo-100.md and
//     filing-readiness.md; counterparty confirm states a customer is a
//     business in another EU country, --scope eu_member; and the guides'
//     own steps and headings for fourteen verbs — "Record who you
//     represent", "Check where your filing stands", "a transaction you are
//     unsure about", "a taxpayer starting this year"; and
//     troubleshooting.md's symptoms and the errors a user quotes, "This
//     operation requires an active profile", for the verb each section
//     runs. Desgravar is deducir; to buy and to sell are purchase and sale,
//     compra and venta. "Cuando"/"when" opening a statement asks for no
//     deadline and no answer — only "¿cuándo…?", an accented cuándo, a
//     closing "?" or "when is/do…" does): on main 3bcfaf7 before it, tuned
//     to 14 of 15, heldOut 28/28, heldOutLater 27/28, sealed 30, sealed2
//     29, sealed3 30, sealed4 30, sealed5 28, sealed6 29, sealed7 39,
//     sealed8 40, sealed9 38, sealed10 36, sealed11 40, sealed12 40,
//     sealed13 35 (513 of 531); after it, the same but sealed10 38 (the
//     power of attorney "record", "requires an active profile") and
//     sealed13 40 (520). Tried and dropped: a prepare phrase "what to have
//     ready before doing a return" (took "¿hacer la renta juntos?" of sets
//     9 and 12, and set 11's "is everything ready to file my Q3 VAT", to
//     prepare); "write up" and "make out" as issue (the invoice list's
//     --kind issued came first); "record"/"apuntar" in the new phrases
//     where the guide says it — each tool more that says record thins
//     anotar's weight, and "me han pagado el alquiler de mayo, anótalo"
//     lost ledger add to ledger_list (TestRank_RoundTen): that request
//     stands on a small margin. Set 14, written blind, is the measure of
//     this round.
//
// Then sets 14 and 15, by an eighth and a ninth engineer who had seen
// neither the ranker nor its data (set 14: a shop under recargo de
// equivalencia, a translator with clients abroad, a content creator,
// books moved from a spreadsheet, a phone's dictation, a careful person
// who checks first; set 15: a bar with staff and card payments, an
// architect in a mutualidad, a room or holiday flat let, one partner
// doing both's papers, a mistake in a filed return, a gestoría scripting
// the CLI), measured once, blind: round eleven 28 and 29 of 40, round
// twelve 30 and 29 (74 %). Their misses: inventory (a sale out of stock,
// the year-end valuation), scanned documents as evidence (list, update,
// a folder of photos), splitting one charge, capital goods said as "a
// camera tracked over the years", what is due this quarter said as "¿me
// toca presentar…?", a draft return as the latest, "¿le sigo debiendo
// algo?" after an error. Over the nine sets written independently (7 to
// 15), each measured with the ranking held out from it, first
// measurement: 227 + 28 + 29 = 284 of 360 (79 %).
//
// Then a round tuned to sets 14 and 15 (so they are tuning sets too):
//
//   - round thirteen (paraphrases from the how-to guides and help for the
//     verbs round twelve left out: correct-ledger-entries.md "When one
//     payment covers two different things" for split; ledger-evidence.md's
//     list and update of the evidence evidence add registers "from a PDF
//     or image" — scanned, photographed — and evidence batch's "every
//     document in a directory"; bienes-inversion declare's "capital good
//     tracked for IVA regularización" over the following years; inventory
//     valuation preview's "closing stock and cost of sales";
//     filing-calendar.md "What are my filing obligations?" (agenda) and
//     "What upcoming modelos will I have to file?" (calendar);
//     filing-record import's "externally-filed return as a baseline";
//     modelo-349.md "Prepare a Modelo 349 recapitulative declaration"
//     (work create); profile create for a spouse with a profile of their
//     own. Deber's gerund, "¿le sigo debiendo algo?", is to owe; stem
//     takes a last -i off, the preterite of an -er/-ir verb, "vendí"): on
//     main 85019fb before it, tuned to 14 of 15, heldOut 28/28,
//     heldOutLater 27/28, sealed 30, sealed2 29, sealed3 30, sealed4 30,
//     sealed5 28, sealed6 29, sealed7 39, sealed8 40, sealed9 38, sealed10
//     38, sealed11 40, sealed12 40, sealed13 40, sealed14 30, sealed15 29
//     (579 of 611); after it, the same but heldOutLater 28, sealed9 39,
//     sealed10 39, sealed14 37 and sealed15 32 (592). Tried and dropped:
//     split's "a card payment that mixes business and personal items"
//     (took set 3's Netflix rule and set 8's "gasto del negocio", and with
//     "payment" lost TestRank_RoundTen's "anótalo" to ledger_list — that
//     request still stands on a small margin); a borrador latest phrase
//     "the draft the tax agency has prepared" (prepared is ready: it took
//     set 11's "is everything ready to file", and "return" there took set
//     11's profile preflight); a photo group (image, foto, snapped) won
//     set 15's folder of phone photos and lost set 6's "take a photo of a
//     receipt" to pull-folder. Left: what is due "this quarter" said as
//     "¿me toca…?", "dime cómo está todo: perfil, movimientos y
//     declaraciones", the categories for "camera gear", a card
//     settlement split into sales and fee, "which box
//     does my mutualidad go in", a partner's profile "complete", the draft
//     "prepared for" someone, a complementaria's justificante, staff
//     withholding (111) as work create, the pipeline's one table. Set 16,
//     written blind, is the measure of this round.
//
// Then set 16, by a tenth engineer who had seen neither the ranker nor its
// data (a farmer at markets, a taxi driver and a driving instructor with a
// work car, a first job with freelance gigs, shares or crypto sold, a move
// abroad mid-year, an office manager keeping an owner's books), measured
// once, blind: round twelve 34 of 40, round thirteen 36 (90 %; it found
// "¿qué impuestos me tocan a mí como agricultor?" and "vendí acciones…
// ¿en qué casilla?"). Left: "empezar el IVA del segundo trimestre" (the
// wallet's seed first), "si ya no vivo en España, ¿sigo teniendo que
// hacer la renta aquí?", "my first job, how do I get set up", "what on the
// annual return do I have to type in myself" after crypto. Over the ten
// sets written independently (7 to 16), each measured with the ranking
// held out from it, first measurement: 284 + 34 = 318 of 400 (79.5 %);
// the two rounds of this stop on sets written after them: 30, 29, 34
// (round twelve on 14, 15, 16) and 36 (round thirteen on 16).
//
// Then a round on how a request is read rather than on its words, from
// the misses the log still listed and TestRank_RoundTen's narrow margin
// (so sets 5 and 9 are tuning sets once more; 13 to 16 were not aimed at
// and are this round's held-out check):
//
//   - round fourteen (a statement that ends asking how to act, "compré
//     un ordenador para trabajar, ¿cómo lo apunto?", asks to act: the
//     question after the last "¿", or after the last comma before a "?",
//     is read as a whole request is; a request to write a thing down —
//     record, anotar, apuntar and their forms, not a past one nor a
//     plural, and "record" now a two-sense word like file and log, so
//     "on record" is a thing kept — makes a read-only tool worth 0.7 of
//     its match, so "me han pagado el alquiler de mayo, anótalo" stands
//     on 47 % over the ledger's list, not 0.1 %; a short -ar verb's past
//     is its verb, "pagaron"; log in, sign in, logged in take no object,
//     so "logged in the first quarter" is a time, and "logged" alone is
//     to log an expense; a which-question's thing, "¿en qué casilla…?",
//     weighs 1.5 times where a tool has it, itself, as its verb; the
//     third person's pronouns are stop words, "read them all in"): on main
//     57c3c18 before it, tuned to 14 of 15, heldOut 28/28, heldOutLater
//     28/28, sealed 30, sealed2 29, sealed3 30, sealed4 30, sealed5 28,
//     sealed6 29, sealed7 39, sealed8 40, sealed9 39, sealed10 39,
//     sealed11 40, sealed12 40, sealed13 40, sealed14 37, sealed15 32,
//     sealed16 36 (628 of 651); after it, the same but sealed5 29 (the
//     casilla for the rent), sealed9 40 (the expense I logged), sealed14
//     38 (the categories for camera gear) and sealed15 33 (the phone's
//     photos "read them all in"), neither of the last two aimed at — 632.
//     First places 527 → 536, none fewer in any set; on sets 13 to 16,
//     145 → 147 in the first three and 117 → 121 first. Tried and
//     dropped: a tool's word that starts a query word counting only when
//     the query word goes on for three letters or fewer ("orden" is not
//     "ordenador"): lost set 11's and set 16's "ready to file my Q3 VAT"
//     on margins of 0.1 %, found nothing. Left: "show the ledger" (a list
//     said as show; ledger view and the inventory's list come first), the
//     BOE export support matrix (export's own verbs win), "which box…"
//     in English (box is casilla only through the lexicon, so no weight),
//     "compré un ordenador… ¿cómo lo apunto?" (now the inventory's
//     movement first, prepare second: "orden" still starts "ordenador"),
//     the Google credentials, the 850 € to offset, and sets 14–16's
//     others. Set 17, written blind, is the measure of this round.
//
// Then sets 17 and 18, by an eleventh and a twelfth engineer who had seen
// neither the ranker nor its data (17: a hairdresser renting a chair, a
// physiotherapist or trainer starting out, a blind designer on a screen
// reader, an older person whose child set the tool up, a small winery
// selling online, an accountant's first-week junior; 18: a plumber with a
// van and a helper, a yoga or music teacher, a Catalan speaker's Spanish,
// a widow handling the late partner's papers, a contractor billing a US
// company, someone stressed after a missed deadline), each measured
// blind with round thirteen (main 57c3c18) and round fourteen: 33 and 34
// of 40 with both (82.5 % and 85 %) — round fourteen moved none of them.
// Left, shared by both sets: a recurring charge filed "on its own" or
// "categorised on their own from now on" (a classification rule, not
// classify); "what changed" in an entry (its history); a box "worked
// out" (the formula); a return amended after filing; the official inbox;
// the partner's death as a profile edit; set-up said as "set myself up".
// Over the twelve sets written independently (7 to 18), first
// measurement: 318 + 33 + 34 = 385 of 480 (80.2 %). Rounds tuned to the
// older sets' misses no longer move a new set: the ranking's words are
// near what words alone can do.
//
// Then a way to estimate, without a new blind set, what a change does on
// requests it was not made from (h69): cross-validation by set. The twelve
// blind sets are two folds fixed before any candidate was measured
// (rank_folds_test.go: A the odd sets 7 to 17, B the even 8 to 18; 225
// and 227 of 240 on main 1d7fe6a); a change, and any number in it, is made
// from one fold's misses and measured on the other, then the other way
// round. Of the 28 misses left, 13 say the need with no word of the CLI
// (the goal: "what changed and when", "my wife passed away… still has me
// as married"), 7 want a word or phrase the lexicon lacks, 3 are
// debatable, the rest a wrong sense, intent, context or a tool's text.
// Measured: a param's help as a field (as in round eight) lost on both
// folds at every weight, A 225 → 221 and B 227 → 226 — and, not counting
// toward a word's rarity, gained nothing on the fold that did not pick its
// weight (B's pick lost 2 on A); the headings of the how-to guides over
// each verb they run, as its paraphrases, lost on both (A 226 → 222 or
// 216, B 228 → 227 or 224); "set myself up" as a profile's creation found
// nothing, not even the request it came from. Kept: "on its own", "on
// their own" is automatically — made from set 17's rule request, it found
// set 18's, said otherwise (A 225 → 226, B 227 → 228, 452 → 454 of 480,
// nothing fewer in any set). One request in 240 a fold is what a change
// made from a set's misses carries to a set it was not made from.
//
// Then set 19, by a thirteenth engineer who had seen neither the ranker
// nor its data (a dentist or vet with staff, a delivery rider paid by
// app, a photographer selling prints at fairs, a retired teacher letting
// an inherited flat, a founder who is also an autónomo consultant, an
// English-only reader unsure of Spanish tax words), outside both folds,
// measured once on round fourteen (main 1d7fe6a) and then on the fold
// change above: 38 of 40 with both (95 %). Left: a motorbike used 70 %
// for deliveries (the business share, said as "solo el 70% es del
// trabajo"), and "everything left to do before the clinic can file this
// quarter, in one place" (the pipeline). Over the thirteen sets written
// independently (7 to 19), first measurement: 385 + 38 = 423 of 520
// (81.3 %).
//
// Then set 20, by a fourteenth engineer who had seen neither the ranker
// nor its data (a tattoo artist, a baker with one employee, a DJ paid by
// venues and weddings, a student who tutors and plays gigs, an estate
// agent on commission, a Latin American Spanish speaker new to Spain, a
// person with dyslexia who misspells), measured once on main 32cccc9
// (round fourteen and the fold change): 32 of 40 (80 %). Left: two
// misspelt requests ("a bakup … incase my laptop brakes", "the programm
// keeps throwing an eror"), Latin American words ("la boleta de la
// computadora … para laburar"), a van used 60 % for gigs (the business
// share again), a capital good kept four years for VAT, commission
// invoices asked as "sácame las facturas", a year's payments "from venues
// and weddings", and last year's renta "as AEAT has it on record". Over
// the fourteen sets written independently (7 to 20), first measurement:
// 423 + 32 = 455 of 560 (81.3 %).
//
// Then set 21, by a fifteenth (a freelance journalist paid per article, a
// mechanic with two employees, a nurse with home visits beside a hospital
// salary, a lorry driver under módulos, a cleaner for households and an
// office, a night-call locksmith, a person whose long messages bury the
// request), measured once on main 536c4d4: 35 of 40 (87.5 %). Left: a
// second mechanic hired, asked as telling the program "que ahora tengo
// trabajadores"; what is still missing to file the fourth quarter's IVA
// (readiness); the payments "that came in from the newspapers" (the
// income list, missed as set 20's "from venues and weddings" was); and two
// long messages whose request — a copy of everything locked with a
// password, a correction of a filed 130 — sits among a laptop's fan and a
// mother in hospital. Over the fifteen sets written independently (7 to
// 21), first measurement: 455 + 35 = 490 of 600 (81.7 %).
//
// Then a round by mechanisms, from the misses sets 19 to 21 share with
// the older sets, each checked against the CLI's help (help.json) and
// measured on the folds (rank_folds_test.go) and every set:
//
//   - round fifteen (a percentage asks for a share, porcentaje or
//     percentage, the words ledger allocate's business_pct and ratios
//     set's ratio are said in — "solo el 70 % es del trabajo" was its
//     bare number; money that came in is income, the ledger's list by
//     direction; Latin American and colloquial Spanish words the DLE
//     gives for the CLI's: laburo, laburar, curro, currar as work,
//     boleta an invoice, celular a mobile, computadora an ordenador,
//     plata money; what the agency has "on record" is filed, not the
//     CLI's registry — rank_round15_test.go): on main 8704ace before it, tuned
//     to 14 of 15, heldOut 28/28, heldOutLater 28/28, sealed 30, sealed2
//     28, sealed3 30, sealed4 30, sealed5 29, sealed6 29, sealed7 39,
//     sealed8 40, sealed9 40, sealed10 39, sealed11 39, sealed12 40,
//     sealed13 40, sealed14 38, sealed15 33, sealed16 36, sealed17 35,
//     sealed18 35, sealed19 38, sealed20 32, sealed21 35 (805 of 851);
//     after it, the same but sealed19 39 (the motorbike's 70 %),
//     sealed20 34 (the van's 60 % "del curro", the renta "AEAT has on
//     record") and sealed21 36 (the payments that came in) — 809. Folds A
//     226 and B 228 unchanged: no fold holds a percentage missed, money
//     that came in or an American word, so the folds could only show that
//     nothing was lost. "On record" was made from set 7 (fold A, still
//     missed: registry verify filed-state says filed too) and found set
//     20's, outside both folds; the rest were made from sets 19 to 21
//     themselves, so on them they are tuning, and set 22 is their
//     measure. Tried and dropped: what the profile holds of a person
//     (employees, spouse, marital status, death and "passed away", from
//     profile edit's has_employees, taxpayer_marital_status,
//     taxpayer_death_date, spouse_*), made from set 18's widow (fold B):
//     B 228 → 229, A unchanged, and set 9 lost a first place ("switch
//     over to my wife's profile": the spouse found profile create);
//     "se me ha pasado el plazo" as overdue, made from set 11 (fold A):
//     A 226 → 227, B unchanged — set 18's "se me pasó el plazo" is a
//     preterite in -ó, which folding leaves as a noun's -o; a readiness
//     paraphrase of what is still missing before filing: in English it
//     lost two on fold A, in Spanish alone it found only set 21's, whose
//     words it repeated; a rent group (rentar, arrendar, alquiler): set
//     15's room let lost its first place to profile create; comprobante
//     as a justificante: nothing found, a first place lost on set 19.
//     And one dropped after set 22 was measured: of a message of three
//     sentences or more, only those that say a want or end as a question
//     were ranked. Made from set 21's two long messages, it found both;
//     on set 22 it lost two — "¿Puedes meterlas todas de una vez…?"
//     without the folder of sixty scanned invoices before it, "¿Está eso
//     ya metido para la renta?" without the "Enséñame qué hijos tengo
//     declarados" after it. Left: a year's payments "I've had from
//     venues", the boleta "¿cómo la subo como comprobante?", the new
//     employees, what is still missing to file, the widow, the two
//     misspelt requests, the capital good kept four years, "sácame las
//     facturas", and set 21's two long messages. Over sets 7 to 21 on
//     this round 563 of 600 (559 on main); the first measurement stays
//     490.
//
// Then set 22, by a sixteenth engineer who had seen neither the ranker
// nor its data (a software freelancer billing a German client, a
// pharmacist, a hotel-apartment owner, a graphic novelist with
// royalties, a VTC driver, a gardener, a person of short commands, a
// foreigner writing Spanish as a second language, a parent of a disabled
// child, an autónomo about to retire, a merchant sailor, a dog groomer),
// written while round fifteen was made and measured once on main 8704ace
// and on round fifteen as it was first made: 35 and 33 of 40; round
// fifteen without the sentence filter (a choice made after that
// measurement, so set 22 is a tuning set for it), 36. Left: the 130's
// payment "¿cuánto me toca adelantar…? Calcúlalo" (work calculate), a
// review package "que pueda abrir" for the gestora, a transfer between
// one's own accounts kept "out of every return" (exclude), and a son
// with a disability added "to my profile" (descendiente add: profile
// create comes first). Over the sixteen sets written independently (7 to
// 22), first measurement: 490 + 35 = 525 of 640 (82.0 %).
//
// Then the examples (rankexamples.go): every measured set's requests, a
// request near one of them raising the tools that one wanted. Measured set
// by set, each with its own requests left out (as this test now ranks
// every set): 845 → 852 of the 865, set 22 36 → 39 of 40. Then sets 23
// and 24, by a seventeenth and an eighteenth engineer who had seen
// neither the ranker nor its data (a yoga teacher, an electrician, a
// veterinarian, a touring musician, a beekeeper, an expat back in Spain,
// a person who pastes an error…; a carpenter, a florist, a wedding
// planner, a lawyer, a fisherman, a person who dictates by voice, a terse
// manager…), written while the examples were made and measured once, on
// main 3d4f869 and with the examples (decided before, on the numbers
// above): 35 and 38 of 40 (73 of 80, 91 %) on main, 37 and 39 (76 of 80,
// 95 %) with the examples — the goal, 9 in 10 on requests nobody tuned
// to, holds on both sets. Left: a navigation error pasted from the
// notifications pull (repair connectivity), a French promoter's VAT
// number "where do I record that?" (counterparty confirm), a renta
// started and left halfway in a long message ("take me through the
// remaining questions": work wizard), and a dictated folder of ticket
// photos to put in "todas de una vez" (evidence batch).
//
// The floors are what held, less a request or two, so that a change which
// loses ground fails.
func TestRank_HeldOut(t *testing.T) {
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := newRankIndex(m.Tools, paraphrasesFor(m.CLI.Command)) // examples per set, below
	for _, set := range measuredSets {
		// A set is ranked with every other set's examples, never its own
		// (rankexamples.go): what a request nobody tuned to meets.
		hits := firstThree(t, idx.withExamples(examplesWithout(set.name)), set.name, set.reqs)
		assert.GreaterOrEqual(t, hits*100, len(set.reqs)*set.floor, "%s: at least %d in 100 find their tool in the first three: %d of %d", set.name, set.floor, hits, len(set.reqs))
	}
}

// measuredSets are the sets of requests the ranking is measured on, each
// with its floor (in 100: what held, less a request or two, so that a
// change which loses ground fails). examples.json is these sets as data
// (TestExamples_AreTheMeasuredSets).
var measuredSets = []struct {
	name  string
	reqs  []rankRequest
	floor int // in 100
}{
	{"tuned to", tunedTo, 85},
	{"held out, written before", heldOut, 90},
	{"held out, written after", heldOutLater, 90},
	{"sealed", heldOutSealed, 90},
	{"sealed2", heldOutSealed2, 90},
	{"sealed3", heldOutSealed3, 90},
	{"sealed4", heldOutSealed4, 93},
	{"sealed5", heldOutSealed5, 90},
	{"sealed6", heldOutSealed6, 85},
	{"sealed7", heldOutSealed7, 92},
	{"sealed8", heldOutSealed8, 95},
	{"sealed9", heldOutSealed9, 87},
	{"sealed10", heldOutSealed10, 85},
	{"sealed11", heldOutSealed11, 95},
	{"sealed12", heldOutSealed12, 95},
	{"sealed13", heldOutSealed13, 95},
	{"sealed14", heldOutSealed14, 87},
	{"sealed15", heldOutSealed15, 75},
	{"sealed16", heldOutSealed16, 85},
	{"sealed17", heldOutSealed17, 80},
	{"sealed18", heldOutSealed18, 82},
	{"sealed19", heldOutSealed19, 95},
	{"sealed20", heldOutSealed20, 82},
	{"sealed21", heldOutSealed21, 87},
	{"sealed22", heldOutSealed22, 87},
	{"sealed23", heldOutSealed23, 87},
	{"sealed24", heldOutSealed24, 92},
}

// TestPhrasesByStem_OneMeaningEveryRun: two lexicon phrases that share
// their stems ("sign in" login, "signed in" authenticated) give one phrase
// by stem, the same in every build — the plain one — not whichever the
// map's order put last (a review found "signing in" login in 6 builds of
// 50, authenticated in 44).
func TestPhrasesByStem_OneMeaningEveryRun(t *testing.T) {
	first := byStem(phrases.get())
	for range 50 {
		require.Equal(t, first, byStem(phrases.get()))
	}
	assert.Equal(t, "login", phraseOf("signing", "in"))
	assert.Equal(t, "login", phraseOf("signs", "in"))
	assert.Equal(t, "authenticated", phraseOf("signed", "in"), "the phrase as written wins over its stems")
}

// TestRank_RoundTen: what users say that the CLI's words do not (issue 28
// item 5, round ten), each mechanism over real aeat tools — their own
// help, params and paths, and where a case says so their paraphrases —
// where, without it, another tool comes first or the one wanted is not
// found.
func TestRank_RoundTen(t *testing.T) {
	runAeatRankCases(t, []aeatRankCase{
		// The deudas readers "Show one deudas snapshot and every
		// outstanding liability it holds"; portals list names the sede's
		// pages (Hacienda).
		{"to owe, deber, is to have debts",
			[]string{"app_live_portals_list", "config_auth_login", "app_live_deudas_view"}, false,
			"¿le debo algo a Hacienda?", []string{"app_live_deudas_view"}},
		// explain "Decompose[s] a modelo's applicability".
		{"deber before an infinitive is must, not to owe",
			[]string{"app_live_deudas_view", "app_overview_explain"}, false,
			"¿debo presentar el 349?", []string{"app_overview_explain"}},
	})
	assert.Equal(t, []string{"deber", "aeat"}, words("¿cuánto debemos a la Agencia Tributaria?"))

	// Over the whole aeat: a verb's paraphrases say the jobs the CLI's
	// how-to guides name for it (the tool wanted first).
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := NewIndex(m.Tools, m.CLI.Command).idx
	for query, want := range map[string]string{
		// manage-invoices.md: "Record every invoice with `invoice add`",
		// "Record an invoice you sent to a customer".
		"record an invoice I sent to a client in France":                                "app_ledger_invoice_add",
		"registra la factura que le hice a una clienta de Italia por 500 euros más IVA": "app_ledger_invoice_add",
		// The DEHu notifications the pull reads carry requerimientos, which
		// the taxpayer must act on (core/_notificacion_estado_servicio.py).
		"has the tax office sent anything official I must answer": "notifications_pull",
		"¿tengo algún requerimiento?":                             "notifications_pull",
		// classify-transactions.md: the review queue "is a to-do list".
		"show me my to-do list": "app_review_queue",
		// pull-all "Pull[s] this taxpayer's AEAT filed-declaration
		// history", justificante pull "the AEAT justificante"; m036 baja
		// is the census deregistration.
		"bájame las declaraciones del año pasado": "app_live_filed_pull_all",
		"bájame el justificante del 303":          "justificante_pull",
		// compare-taxation compares "joint (conjunta) vs. individual
		// filing": together, juntos.
		"is it cheaper for us to file together or apart?": "app_modelo_work_compare_taxation",
		"¿hacemos la renta juntos?":                       "app_modelo_work_compare_taxation",
		// ledger add's paraphrases: "anotar un ingreso o un pago en
		// efectivo"; pagado is pagar's.
		"me han pagado el alquiler de mayo, anótalo": "app_ledger_add",
		// workstation-setup.md: config check "lists each extra and prints
		// the exact install command for any that is missing".
		"is something missing that aeat needs to run?": "config_check",
	} {
		assert.Equal(t, want, rankNames(idx.rank(query), 1)[0], "%q: %v", query, rankNames(idx.rank(query), 3))
	}
	assert.Equal(t, []string{"obligado", "presentar", "349"}, words("¿debería presentar el 349?"))
	assert.Equal(t, []string{"obligado", "ir", "oficina"}, words("¿debo ir a la oficina?"))
	// backlog's paraphrase: "what did I forget to file".
	assert.Equal(t, "app_overview_backlog", rankNames(idx.rank("I forgot to file the 303 last quarter"), 1)[0], "forgot is forget")
	assert.Equal(t, []string{"aeat", "write"}, words("the tax office wrote to me"), "the tax office is the agency")
	for _, todo := range []string{"my to-do list", "my to do list", "my todo list", "mi lista de tareas"} {
		assert.Equal(t, []string{"queue"}, words(todo), "a to-do list is the review queue")
	}
	assert.Equal(t, []string{"allowed"}, words("what am I allowed to do"), "to do alone is not")
	assert.Equal(t, []string{"need", "past", "figures"}, words("I need last year's figures"), "last year is past, not the latest")
	assert.Equal(t, []string{"bajar", "303"}, words("bájame el 303"), "an imperative in -a is an -ar verb's")
	assert.Contains(t, synonymsOf("pagado"), "pay", "a participle is its verb's")
	assert.Contains(t, rankNames(idx.rank("nos ha nacido una niña, métela en el perfil"), 3), "config_profile_descendiente_add", "a niña is a descendiente")
	assert.Contains(t, rankNames(idx.rank("¿me ha escrito Hacienda?"), 1)[0], "notifications", "an escrito is a notification")
	// A question of when asks for a date: agenda ranks "upcoming and
	// past-due obligations", calendar renders "the deadline calendar".
	assert.Contains(t, rankNames(idx.rank("¿cuándo tengo que pagar el 130?"), 3), "overview_agenda")
	assert.Contains(t, []string{"overview_agenda", "app_overview_calendar"}, rankNames(idx.rank("¿hasta cuándo puedo presentar la renta?"), 1)[0])
}

// TestRank_RoundEleven: what set 12's misses said that the CLI's words
// did not (issue 28 item 5, round eleven), over the whole aeat — not set
// 12's requests, the same jobs said otherwise; each failed before.
func TestRank_RoundEleven(t *testing.T) {
	// Withholding as a person says it: kept or held back, with an amount
	// between the phrase's words, and retener's irregular forms.
	assert.Contains(t, words("they kept 15% back for tax"), "withhold")
	assert.Contains(t, words("she is holding back 2,400 of my pay"), "withhold")
	assert.Contains(t, words("my employer withheld too much"), "withhold")
	assert.Contains(t, words("el cliente me retuvo el 15 %"), "retener")
	assert.Contains(t, synonymsOf("retencion"), "retention", "invoice add's retention_rate")

	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := NewIndex(m.Tools, m.CLI.Command).idx
	for query, want := range map[string]string{
		// invoice list's --kind issued: "a customer owes you".
		"facturas que mandé el mes pasado": "app_ledger_invoice_list",
		// link binds the transaction "that paid or collected" an invoice
		// (manage-invoices.md).
		"asocia la transferencia de mi cliente a su factura": "app_ledger_link",
		// profile edit's --pays-professionals-with-retencion.
		"I pay a designer and hold back part of her fees for tax": "config_profile_edit",
		// The Art. 109 70 % exception: explain decomposes the 130's
		// applicability.
		"mis clientes ya me retienen casi todo, ¿tengo que hacer pagos fraccionados?": "app_overview_explain",
	} {
		assert.Contains(t, rankNames(idx.rank(query), 3), want, "%q: %v", query, rankNames(idx.rank(query), 3))
	}
	for query, want := range map[string]string{
		// A list, not add: "invoices I sent" are the issued ones list
		// shows, where add's "record an invoice I sent" came first.
		"facturas que mandé el mes pasado": "app_ledger_invoice_list",
	} {
		assert.Equal(t, want, rankNames(idx.rank(query), 1)[0], "%q: %v", query, rankNames(idx.rank(query), 3))
	}
}
