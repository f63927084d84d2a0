//go:build aeatmcp_testkeychain

package keychain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTestStore(t *testing.T) {
	t.Setenv(TestKeychainVar, t.TempDir()+"/k.json")
	s := OS(nil)
	_, err := s.Get("A")
	assert.ErrorIs(t, err, ErrNotFound)
	require.NoError(t, s.Set("A", "v"))
	v, err := OS(nil).Get("A")
	require.NoError(t, err)
	assert.Equal(t, "v", v)
	t.Setenv(TestKeychainVar, "unavailable")
	_, err = OS(nil).Get("A")
	var ue *UnavailableError
	assert.ErrorAs(t, err, &ue)
}
