package server

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
		"they kept 15 % back": {"they", "withhold", "15"},
		"hand 303 in":         {"submit", "303"},
		"look 303 up":         {"show", "303"},
		"pull 2024 up":        {"show", "2024"},
		"copia de seguridad":  {"backup"},
	} {
		assert.Equal(t, want, words(s), s)
	}
}
