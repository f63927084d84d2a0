//go:build linux

package keychain_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/keychain"
	"github.com/aeat-mcp/aeat-mcp/internal/keychain/secretservicetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSecretService_Real: the store against a real Secret Service (GNOME
// Keyring on a private session bus): stored, read, replaced, deleted; found
// through the bus the environment names, or through the user's standard
// socket when it names none.
func TestSecretService_Real(t *testing.T) {
	ss := secretservicetest.SecretService(t)
	for _, env := range [][]string{
		{"DBUS_SESSION_BUS_ADDRESS=" + ss.Addr},
		{"XDG_RUNTIME_DIR=" + ss.RuntimeDir},
	} {
		s := keychain.OS(env)
		_, err := s.Get("CADRUMO_SECRET_PASSPHRASE")
		assert.ErrorIs(t, err, keychain.ErrNotFound, "%v", env)
		require.NoError(t, s.Set("CADRUMO_SECRET_PASSPHRASE", "correct horse"), "%v", env)
		require.NoError(t, s.Set("CADRUMO_SECRET_PASSPHRASE", "correct horse battery"), "replaced, not added")
		v, err := keychain.OS(env).Get("CADRUMO_SECRET_PASSPHRASE")
		require.NoError(t, err)
		assert.Equal(t, "correct horse battery", v)
		require.NoError(t, s.Delete("CADRUMO_SECRET_PASSPHRASE"))
		assert.ErrorIs(t, s.Delete("CADRUMO_SECRET_PASSPHRASE"), keychain.ErrNotFound)
	}
}

// TestSecretService_Unavailable: a bus with no Secret Service on it, and no
// bus at all: unavailable, said for a person.
func TestSecretService_Unavailable(t *testing.T) {
	bus := secretservicetest.Bus(t)
	_, err := keychain.OS([]string{"DBUS_SESSION_BUS_ADDRESS=" + bus.Addr}).Get("X")
	var ue *keychain.UnavailableError
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "the session bus has no Secret Service (org.freedesktop.secrets)")

	if _, err := os.Stat(fmt.Sprintf("/run/user/%d/bus", os.Getuid())); err == nil {
		return // this machine's user has a standard bus: it would be found
	}
	_, err = keychain.OS([]string{"XDG_RUNTIME_DIR=" + t.TempDir()}).Get("X")
	require.ErrorAs(t, err, &ue)
	var nb *keychain.NoBusError
	assert.ErrorAs(t, err, &nb)
}
