package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCall_ManifestChangedSinceStart: a tool's params are read from the
// manifest cache at its first call; when the cache file is gone by then
// and the manifest was edited since the start, the params this server
// listed cannot be had. The call is refused — reason manifest_changed,
// nothing run — with the remedy (restart), not reported as a fault of
// ours ("internal", "please report this").
func TestCall_ManifestChangedSinceStart(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	raw, err := os.ReadFile(testManifestPath(t))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, raw, 0o600))
	c := &annotations.Cache{Dir: filepath.Join(dir, "cache"), Version: "test"}
	_, err = c.Load(path) // validated, and the cache file written
	require.NoError(t, err)
	m, err := c.Load(path) // read back: the params stay in the file
	require.NoError(t, err)

	require.NoError(t, os.RemoveAll(c.Dir))
	require.NoError(t, os.WriteFile(path, append(raw, '\n'), 0o600))

	s := newServer(t, func(cfg *Config) { cfg.Manifest = m })
	res := callTool(t, connect(t, s, "", nil), "read_echo", map[string]any{"text": "hello"})
	require.True(t, res.IsError, text(res))
	o := outcome(t, res)
	assert.Equal(t, CodeRefused, o.Code)
	assert.Equal(t, ReasonManifestChanged, o.Reason)
	assert.Nil(t, o.TreeDead, "nothing was started")
	assert.Contains(t, text(res), "its manifest changed since aeat-mcp started")
	assert.Contains(t, text(res), "Restart aeat-mcp")
	assert.NotContains(t, text(res), "report")
}
