package lazyre

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNew_CompilesOnceAtFirstUse(t *testing.T) {
	re := New(`^a+$`)
	first := re.Get()
	require.NotNil(t, first)
	assert.True(t, first.MatchString("aaa"))
	assert.Same(t, first, re.Get(), "compiled once")
}

func TestNew_BadPatternPanicsAtFirstUseNotBefore(t *testing.T) {
	re := New(`(`) // no panic here: nothing is compiled yet
	assert.Panics(t, func() { re.Get() })
	assert.Panics(t, func() { Compiled(New(`^ok$`), re) })
}

// A package-level pattern must not be compiled in package init, nor (the
// reason this is not a sync.OnceValue) cost it an allocation: the
// compiler lays pkgRE out as data. Nothing but the first Get compiles it.
var pkgRE = New(`^b+$`)

func TestNew_PackageLevelIsNotCompiledBeforeGet(t *testing.T) {
	assert.Nil(t, pkgRE.re, "compiled before its first use")
	assert.True(t, pkgRE.Get().MatchString("bb"))
}
