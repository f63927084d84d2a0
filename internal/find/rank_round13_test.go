package find

import (
	"slices"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRank_RoundThirteen: the how-to guides' steps and headings for the
// verbs round twelve left out, and the help's own job for the rest (issue
// 28 item 5, round thirteen) — not sets 14 and 15's requests, the same
// jobs said otherwise; each wanted verb was outside the first three before
// its paraphrases said them.
func TestRank_RoundThirteen(t *testing.T) {
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := NewIndex(m.Tools, m.CLI.Command).idx
	for query, want := range map[string][]string{
		// correct-ledger-entries.md "Split one transaction into parts":
		// "When one payment covers two different things".
		"that charge covered two different things, separate them": {"app_ledger_split"},
		// ledger-evidence.md: evidence add registers "purchase invoice
		// evidence from a PDF or image"; "List every stored record",
		// "update its details".
		"las facturas de proveedores que he fotografiado, ¿dónde las veo?":   {"app_ledger_evidence_list"},
		"I scanned a supplier invoice and the amount came out wrong, fix it": {"app_ledger_evidence_update"},
		// bienes-inversion declare: "one capital good tracked for IVA
		// regularización" — over the years that follow (LIVA art. 107).
		"my new van has to be followed for VAT regularisation over the next years": {"app_ledger_bienes_inversion_declare"},
		// inventory valuation preview: "closing stock and cost of sales".
		"how much stock do I have left at the end of the year?": {"app_ledger_inventory_valuation_preview"},
		// filing-calendar.md "What are my filing obligations?" (agenda)
		// and "What upcoming modelos will I have to file?" (calendar).
		"¿qué modelos me tocan a partir de ahora?": {"overview_agenda", "app_overview_agenda", "app_overview_calendar"},
		// filing-record import: "an externally-filed return as a
		// baseline filing record" (modelo-390.md's records audit).
		"usar como punto de partida el 303 que presenté por mi cuenta": {"app_modelo_filing_record_import"},
		// modelo-349.md "Prepare a Modelo 349 recapitulative
		// declaration", "Create, calculate, and verify".
		"prepare my recapitulative statement for the first quarter": {"app_modelo_work_create", "app_modelo_work_calculate", "app_modelo_work_wizard"},
		// config profile create: "Initialize a new active profile" —
		// its --spouse-* facts are the spouse's in one's own profile, a
		// spouse who files is a profile of their own.
		"quiero dar de alta a mi marido con su propio perfil": {"config_profile_create"},
	} {
		got := rankNames(idx.rank(query), 3)
		assert.True(t, slices.ContainsFunc(want, func(w string) bool { return slices.Contains(got, w) }), "%q: %v, want one of %v", query, got, want)
	}
}

// TestDeber_GerundIsToOwe: deber's gerund is to owe as its other forms are —
// "¿le sigo debiendo algo a Hacienda?" said nothing but Hacienda (stem
// keeps "debiend", no group has it), a miss of set 15.
func TestDeber_GerundIsToOwe(t *testing.T) {
	assert.Contains(t, words("¿sigo debiendo algo del 303?"), "deber")
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := NewIndex(m.Tools, m.CLI.Command).idx
	got := rankNames(idx.rank("¿estoy debiendo algo a Hacienda todavía?"), 3)
	assert.True(t, slices.ContainsFunc(got, func(w string) bool { return strings.Contains(w, "deudas") || w == "debts_list" }), "%v", got)
}

// TestStem_PreteriteInI: the preterite of an -er or -ir verb ends in -í
// (-ió, its -o taken) and kept it, so "vendí" was not vender's and found
// no sale (lexicon.go's buy and sell); "vendí mercancía…, apúntalo en el
// stock" put the valuation preview before the movement that records a
// sale (it failed before).
func TestStem_PreteriteInI(t *testing.T) {
	for _, w := range []string{"vendi", "vendio", "vendido", "vende"} {
		assert.Equal(t, stem("vender"), stem(w), w)
	}
	assert.Contains(t, synonymsOf("vendi"), "sale")
	assert.Equal(t, stem("cambiar"), stem("cambio"), "a verb and its noun in -io stay joined")
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := NewIndex(m.Tools, m.CLI.Command).idx
	assert.Equal(t, "app_ledger_inventory_movement_add", rankNames(idx.rank("vendí mercancía a otra tienda, apúntalo en el stock"), 1)[0])
}
