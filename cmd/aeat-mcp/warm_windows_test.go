package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWarmPool_WindowsHasNoFork: on Windows a manifest's cli.warm does
// nothing, and doctor says why — not that aeat.exe "is not a script" and
// cli.warm.interpreter should be set, which changes nothing there.
// Compiled on Linux by CI; runs on Windows.
func TestWarmPool_WindowsHasNoFork(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "aeat.exe")
	require.NoError(t, os.WriteFile(exe, []byte("MZ"), 0o755))
	m := &annotations.Manifest{CLI: annotations.CLI{Warm: &annotations.Warm{Entry: "cadrumo.cli:main"}}}
	pool, cleanup := warmPool(&options{warm: true, sys: &system{}}, m, exe, nil, slog.New(slog.DiscardHandler))
	defer cleanup()
	require.NotNil(t, pool)
	defer pool.Close()
	reason := pool.Status().Reason
	assert.Contains(t, reason, "no fork")
	assert.NotContains(t, reason, "cli.warm.interpreter")
	assert.NotContains(t, reason, "not a script")
}
