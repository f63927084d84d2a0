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
// compiledAtInit is read in package init, right after pkgRE is made: the
// test's first run compiles pkgRE, and a second (-count) would see that.
var (
	pkgRE          = New(`^b+$`)
	compiledAtInit = pkgRE.re != nil
)

func TestNew_PackageLevelIsNotCompiledBeforeGet(t *testing.T) {
	assert.False(t, compiledAtInit, "compiled in package init")
	assert.True(t, pkgRE.Get().MatchString("bb"))
	assert.NotNil(t, pkgRE.re, "compiled by its first Get")
}
