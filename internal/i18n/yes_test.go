package i18n

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every language offered has its yes; nothing else is one.
func TestIsYes(t *testing.T) {
	for _, tag := range Supported {
		assert.NotEmpty(t, yesWords[tag], "%s has no yes-words", tag)
	}
	for _, yes := range []string{"y", "Y", " yes\n", "s", "Sí", "si", "bai", "BAI"} {
		assert.True(t, IsYes(yes), "%q", yes)
	}
	for _, no := range []string{"", "n", "no", "ez", "yess", "sí, pero", "1"} {
		assert.False(t, IsYes(no), "%q", no)
	}
}
