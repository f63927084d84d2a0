package server

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
	idx := newRankIndex(m.Tools)
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
	})
	assert.Equal(t, []string{"ledger_view", "categories", "ledger_list"}, rankNames(small.rank("ledger categories"), 3))
}

// TestWords: what a query and a tool are cut into.
func TestWords(t *testing.T) {
	assert.Equal(t, []string{"pull", "modelo", "303", "notificacion"}, words("Pull a modelo-303 notificación, notificación"))
	assert.Equal(t, []string{"app", "ledger", "categories"}, words("app_ledger_categories"))
	assert.Empty(t, words("de la the"))
}

// heldOut are requests a person makes of aeat_mcp_find, in the two
// languages the CLI speaks, written before the ranking was tuned and never
// tuned to since (issue 28 item 5): each with the tools that answer it —
// any of them in the first three is a hit. What the request means was
// checked against the CLI's own help (testdata/aeat-cli), not against the
// ranking.
var heldOut = []struct {
	query string
	want  []string
}{
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

// TestRank_HeldOut: over the whole aeat, the right tool is among the first
// three for at least 9 in 10 of the held-out requests.
func TestRank_HeldOut(t *testing.T) {
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := newRankIndex(m.Tools)
	hits := 0
	for _, tc := range heldOut {
		top := rankNames(idx.rank(tc.query), 3)
		hit := false
		for _, w := range tc.want {
			hit = hit || slices.Contains(top, w)
		}
		if hit {
			hits++
		} else {
			t.Logf("miss: %q: first three %v, want one of %v", tc.query, top, tc.want)
		}
	}
	t.Logf("held out: %d of %d in the first three", hits, len(heldOut))
	assert.GreaterOrEqual(t, hits*10, len(heldOut)*9, "at least 9 in 10 of the held-out requests find their tool in the first three")
}
