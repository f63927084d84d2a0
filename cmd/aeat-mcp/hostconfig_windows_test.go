//go:build windows

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/windows"
)

// These run on Windows only (compiled in CI on Linux): MoveFileEx itself.

// TestReplaceFile_ReadOnlyDestination: a destination with the read-only
// attribute is replaced (MoveFileEx alone refuses it with access denied).
// merge refuses such a file before it gets here; replaceFile is the
// primitive.
func TestReplaceFile_ReadOnlyDestination(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
	require.NoError(t, os.Chmod(path, 0o400)) // sets FILE_ATTRIBUTE_READONLY
	require.NoError(t, replaceFile(path, []byte("new"), 0o600))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
}

// TestReplaceFile_OpenDestination: a destination another program holds
// open without FILE_SHARE_DELETE (an indexer, the host reading it) makes
// MoveFileEx fail with a sharing violation until it is closed; the replace
// waits that out.
func TestReplaceFile_OpenDestination(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
	p, err := syscall.UTF16PtrFromString(path)
	require.NoError(t, err)
	h, err := windows.CreateFile(p, windows.GENERIC_READ, windows.FILE_SHARE_READ, nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	require.NoError(t, err)
	released := make(chan struct{})
	go func() {
		time.Sleep(300 * time.Millisecond)
		windows.CloseHandle(h)
		close(released)
	}()
	require.NoError(t, replaceFile(path, []byte("new"), 0o600))
	<-released
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
}

// TestMerge_RefusesReadOnlyWindows: the read-only attribute is what Go
// reports as a mode without 0200, so merge refuses it as on Unix.
func TestMerge_RefusesReadOnlyWindows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	require.NoError(t, os.WriteFile(path, []byte(`{}`), 0o600))
	require.NoError(t, os.Chmod(path, 0o400))
	_, err := merge{path: path, key: "mcpServers", name: "aeat", entry: serverEntry{Command: `C:\x.exe`}, now: mergeNow}.run()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "read-only")
}
