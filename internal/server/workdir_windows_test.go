package server

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRemoveScratch_HeldFile: on Windows a file still open (a browser's
// profile held by a process outside the call, an antivirus scan) cannot be
// deleted, so a scratch directory may outlive its call. The failure is
// logged with the directory, never dropped, and a later removal — the next
// start's sweep — succeeds once the file is let go. Compiled everywhere by
// CI; runs on Windows.
func TestRemoveScratch_HeldFile(t *testing.T) {
	var logs bytes.Buffer
	s := &Server{cfg: Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))}}
	dir, err := makeScratch(t.TempDir())
	require.NoError(t, err)
	held, err := os.Create(filepath.Join(dir, "SingletonLock"))
	require.NoError(t, err)

	s.removeScratch(dir)
	assert.DirExists(t, dir, "Windows keeps a directory with an open file")
	assert.Contains(t, logs.String(), "could not remove a call's scratch directory")
	assert.Contains(t, logs.String(), filepath.Base(dir))

	require.NoError(t, held.Close())
	s.removeScratch(dir)
	assert.NoDirExists(t, dir)
}
