package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestXattr_Quarantine runs on macOS only (compiled in CI on Linux): the
// mark a browser sets is read from the file itself.
func TestXattr_Quarantine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "aeat-mcp")
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755))
	_, ok := xattr(path, quarantineAttr)
	assert.False(t, ok, "a file made here has no mark")
	require.NoError(t, unix.Setxattr(path, quarantineAttr, []byte("0083;674f1a2b;Safari;0B1E9A6C-0A4B-4F66-9E0E-6C1D0B5D2E11"), 0))
	found := findQuarantined("darwin", [][2]string{{"aeat-mcp", path}}, xattr)
	require.Len(t, found, 1)
	assert.Equal(t, "Safari", found[0].agent)
}
