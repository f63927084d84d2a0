package find

import (
	"strings"
	"testing"
)

// FuzzRankQuery: any request — empty, punctuation only, one word, very
// long, invalid UTF-8 — is read without a panic, and twice alike.
func FuzzRankQuery(f *testing.F) {
	for _, s := range []string{"", "¿?¡!", "debo", "deber presentar", "bájame", "kept 15 back", "cuándo", "\xff\xfe", strings.Repeat("debo ir a ", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, b := newRankQuery(s), newRankQuery(s)
		if a.whole != b.whole || len(a.terms) != len(b.terms) || a.asks != b.asks {
			t.Fatalf("%q read two ways", s)
		}
	})
}
