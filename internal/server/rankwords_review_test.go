package server

import (
	"os"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWords_NumberBetweenPhraseKept: an amount may stand between a
// phrase's two words ("they kept 15 % back"), and it is still a word of
// the request: "hand 303 in" asks to submit the 303, and a number finds
// the tool named by it ("borrador 100") — joined into the phrase, it was
// lost, where before round eleven "hand 303 in" kept it.
func TestWords_NumberBetweenPhraseKept(t *testing.T) {
	for s, want := range map[string][]string{
		"they kept 15 % back": {"they", "withhold", "15"},
		"hand 303 in":         {"submit", "303"},
		"look 303 up":         {"show", "303"},
		"pull 2024 up":        {"show", "2024"},
		"copia de seguridad":  {"backup"},
	} {
		assert.Equal(t, want, words(s), s)
	}
}

// TestWithDeber_AllForms: "deber" in the forms a request says besides
// the present — the future's first person ("¿deberé declarar…?"), the
// preterite ("¿debí presentar el 303?") and the subjunctive ("¿hace
// falta que deba algo?") — is told as must or owe like the others;
// "deberé" was left a word of its own that found nothing.
func TestWithDeber_AllForms(t *testing.T) {
	for s, want := range map[string]string{
		"¿deberé declarar el alquiler?": "obligado",
		"¿debí presentar el 303?":       "obligado",
		"¿debió pagar algo?":            "obligado",
		"¿debieron presentar el 303?":   "obligado",
		"no creo que deba nada":         "deber",
		"¿deberéis pagar?":              "obligado",
	} {
		assert.Contains(t, words(s), want, s)
	}
}

// TestAsksWhen_ConjunctionIsNoQuestion: "cuando"/"when" opening a
// statement ("cuando calculo el 303 me da error": when I calculate the
// 303 I get an error) asks for no deadline; with the deadline term work
// calculate fell out of the first three, behind the calendar, which
// "calculo el 303 y me da error" keeps second. A finding of the review
// (h52), not yet fixed: told apart without punctuation or accents only
// by the clause that follows ("cuando caduca mi certificado" is a
// question, held in set 4) — shown with H52_FINDINGS=1.
func TestAsksWhen_ConjunctionIsNoQuestion(t *testing.T) {
	if os.Getenv("H52_FINDINGS") == "" {
		t.Skip("a finding, shown with H52_FINDINGS=1")
	}
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := newRankIndex(m.Tools, paraphrasesFor(m.CLI.Command))
	assert.False(t, asksWhen("cuando calculo el 303 me da error"))
	assert.Contains(t, rankNames(idx.rank("cuando calculo el 303 me da error"), 3), "app_modelo_work_calculate")
}
