package keychain

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
