package lazyre

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNew_CompilesOnceAtFirstUse(t *testing.T) {
	re := New(`^a+$`)
	first := re()
	require.NotNil(t, first)
	assert.True(t, first.MatchString("aaa"))
	assert.Same(t, first, re(), "compiled once")
}

func TestNew_BadPatternPanicsAtFirstUseNotBefore(t *testing.T) {
	re := New(`(`) // no panic here: nothing is compiled yet
	assert.Panics(t, func() { re() })
	assert.Panics(t, func() { Compiled(New(`^ok$`), re) })
}
