package nonce

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		prefix string
		n      int
		want   string
	}{
		{"r-", 8, `^r-[0-9a-f]{16}$`},
		{"q-", 16, `^q-[0-9a-f]{32}$`},
	} {
		a, b := New(tc.prefix, tc.n), New(tc.prefix, tc.n)
		assert.Regexp(t, regexp.MustCompile(tc.want), a)
		assert.NotEqual(t, a, b, "two nonces alike")
	}
}
