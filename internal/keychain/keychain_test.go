package keychain

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zalando/go-keyring"
)

// The OS store through go-keyring's own in-memory provider: what the
// server and `secret set` see of a keychain that has a secret, lacks one,
// or cannot be reached. (No real keychain runs here: this Linux machine has
// no Secret Service.)
func TestOSStore_Mock(t *testing.T) {
	keyring.MockInit()
	s := osStore{}
	_, err := s.Get("CADRUMO_SECRET_PASSPHRASE")
	assert.ErrorIs(t, err, ErrNotFound)
	require.NoError(t, s.Set("CADRUMO_SECRET_PASSPHRASE", "correct horse"))
	v, err := s.Get("CADRUMO_SECRET_PASSPHRASE")
	require.NoError(t, err)
	assert.Equal(t, "correct horse", v)
	got, err := keyring.Get(Service, "CADRUMO_SECRET_PASSPHRASE")
	require.NoError(t, err)
	assert.Equal(t, "correct horse", got, "stored under the service aeat-mcp and the variable's name")
	require.NoError(t, s.Delete("CADRUMO_SECRET_PASSPHRASE"))
	assert.ErrorIs(t, s.Delete("CADRUMO_SECRET_PASSPHRASE"), ErrNotFound)

	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided by any .service files"))
	_, err = s.Get("X")
	var ue *UnavailableError
	require.ErrorAs(t, err, &ue)
	assert.NotErrorIs(t, err, ErrNotFound, "unavailable is not \"not stored\"")
	assert.Contains(t, err.Error(), "org.freedesktop.secrets")
}

type slowStore struct{ release chan struct{} }

func (s slowStore) Get(string) (string, error) { <-s.release; return "late", nil }
func (slowStore) Set(string, string) error     { return nil }
func (slowStore) Delete(string) error          { return nil }

// TestGet_Bounded: a keychain that waits on a prompt nobody sees is
// unavailable after the bound, and a cancelled call stops waiting.
func TestGet_Bounded(t *testing.T) {
	s := slowStore{release: make(chan struct{})}
	defer close(s.release)
	_, err := Get(context.Background(), s, "X", 50*time.Millisecond)
	var ue *UnavailableError
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "did not answer within 50ms")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Get(ctx, s, "X", time.Hour)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestCheck(t *testing.T) {
	assert.NoError(t, Check("pässwörd with spaces\tand tabs"))
	assert.ErrorIs(t, Check("s3cr\x00t"), ErrNUL)
	assert.NotContains(t, ErrNUL.Error(), "s3cr", "an error never holds the value")
}
