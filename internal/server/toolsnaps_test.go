package server

import (
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the tool snapshots in testdata/toolsnaps")

// shippedManifests are the manifests whose tools users see.
var shippedManifests = []string{"../../examples/aeat.manifest.json", "../demo/demo.manifest.json"}

// TestToolSnapshots pins what hosts see of every tool a server of a
// shipped manifest serves — name, title, description, input schema,
// annotations — in testdata/toolsnaps/<manifest>/<tool>.json (sorted keys):
// the manifest's verbs and the built-ins alike, every entry of the tool
// registry (registry.go), as a server with the shipped defaults (flags'
// --detach-after) on the catalog surface — the one that serves
// aeat_mcp_find and aeat_mcp_call too — advertises them. A change to a
// manifest, to schema generation or to a built-in shows up as a diff; `go
// test ./internal/server -update` rewrites them. A missing snapshot fails.
func TestToolSnapshots(t *testing.T) {
	for _, path := range shippedManifests {
		m, err := annotations.Load(path)
		require.NoError(t, err)
		s := newServer(t, func(c *Config) { c.Manifest, c.Surface, c.DetachAfter = m, SurfaceCatalog, DefaultDetachAfter })
		dir := filepath.Join("testdata", "toolsnaps", trimExt(filepath.Base(path)))
		names := slices.Sorted(maps.Keys(s.table().registry))
		require.Len(t, names, len(m.Tools)+5, "every verb, the run tools, aeat_mcp_find and aeat_mcp_call")
		for _, name := range names {
			t.Run(name, func(t *testing.T) {
				checkSnapshot(t, filepath.Join(dir, name+".json"), snapshot(t, mcpTool(s.table().registry[name].tool)))
			})
		}
		checkNoStale(t, dir, len(names))
	}
}

// checkSnapshot holds got to the snapshot in file (or, with -update,
// writes it there).
func checkSnapshot(t *testing.T, file string, got []byte) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o755))
		require.NoError(t, os.WriteFile(file, got, 0o644))
		return
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err, "no snapshot: run go test ./internal/server -update")
	assert.Equal(t, string(want), string(got), "stale snapshot: run go test ./internal/server -update and review the diff")
}

// checkNoStale fails for a snapshot in dir whose tool is gone: n tools
// have one.
func checkNoStale(t *testing.T, dir string, n int) {
	t.Helper()
	if !*update {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		assert.Len(t, files, n, "snapshots of removed tools in %s", dir)
	}
}

func snapshot(t *testing.T, tool *mcp.Tool) []byte {
	raw, err := json.Marshal(tool)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(raw, &v)) // maps marshal with sorted keys
	out, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	return append(out, '\n')
}

func trimExt(name string) string {
	for ext := filepath.Ext(name); ext != ""; ext = filepath.Ext(name) {
		name = name[:len(name)-len(ext)]
	}
	return name
}
