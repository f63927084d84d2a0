package find

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWords_NumberBetweenPhraseKept: an amount may stand between a
// phrase's two words ("they kept 15 % back"), and it is still a word of
// the request: "hand 303 in" asks to submit the 303, and a number finds
// the tool named by it ("borrador 100") — joined into the phrase, it was
// lost, where before round eleven "hand 303 in" kept it.
func TestWords_NumberBetweenPhraseKept(t *testing.T) {
	for s, want := range map[string][]string{
		"they kept 15 % back": {"withhold", "15"},
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
