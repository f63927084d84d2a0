//go:build !windows

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// preloadObject groups what the verbs loaded: what more than one loaded
// under "*" (after click, in first-loaded order), the rest by path.
func TestPreloadObject(t *testing.T) {
	got := preloadObject(true, []string{"a b", "c", "d"}, map[string][]string{
		"a b": {"x", "y", "only.ab"},
		"c":   {"y", "z", "x"},
		"d":   {"z"},
	})
	assert.Equal(t, map[string][]string{"*": {"click", "x", "y", "z"}, "a b": {"only.ab"}}, got)
	assert.Equal(t, map[string][]string{"a": {"m"}}, preloadObject(false, []string{"a"}, map[string][]string{"a": {"m"}}))
}

// warm record (issue 28, item 4) finds cli.warm.preload from the CLI
// itself: the test CLI's stats verb imports statistics only when it runs,
// which a template that walked the tree has not loaded — whatever the
// manifest preloads already (the record is whole each time). Only read-only
// tools run.
func TestWarmRecord(t *testing.T) {
	dir := filepath.Dir(proctest.WarmCLI(t))
	read := `{"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}`
	write := `{"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}`
	manifest := func(preload string) string {
		p := filepath.Join(t.TempDir(), "m.json")
		m := `{"version": 1, "cli": {"command": "` + filepath.Join(dir, "warmdemo-cli") + `",
		  "env": {"set": {"WARMDEMO_IMPORT_SECONDS": "0"}},
		  "warm": {"python": "warmdemo:main", "preload": ` + preload + `}},
		  "tools": [{"name": "stats", "title": "t", "description": "d", "command": ["stats"], "annotations": ` + read + `},
		            {"name": "hello", "title": "t", "description": "d", "command": ["hello"], "annotations": ` + read + `},
		            {"name": "exit_one", "title": "t", "description": "d", "command": ["exit"], "annotations": ` + write + `}]}`
		require.NoError(t, os.WriteFile(p, []byte(m), 0o644))
		return p
	}

	// --warm everywhere: warm start is off by default on macOS.
	code, stdout, stderr := runCmd(t, "", "--manifest", manifest(`"click"`), "--warm", "warm", "record")
	require.Equal(t, exitOK, code, stderr)
	var got map[string][]string
	require.NoError(t, json.Unmarshal([]byte(stdout), &got), stdout)
	assert.Contains(t, got["stats"], "statistics", "what stats loaded when it ran: %s", stdout)
	assert.Equal(t, []string{"click"}, got["*"])
	assert.Contains(t, stderr, "stats (stats): ")
	assert.NotContains(t, stderr, "exit_one", "a tool that changes state is not run")

	code, stdout, stderr = runCmd(t, "", "--manifest", manifest(`{"*": ["click"], "stats": ["statistics"]}`), "--warm", "warm", "record", "stats")
	require.Equal(t, exitOK, code, stderr)
	got = nil
	require.NoError(t, json.Unmarshal([]byte(stdout), &got), stdout)
	assert.Contains(t, got["stats"], "statistics", "recorded over a template without the manifest's list, so a list recorded again is whole: %s", stdout)

	code, _, stderr = runCmd(t, "", "--manifest", manifest(`"click"`), "--warm", "warm", "record", "exit_one")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "exit_one changes state: only read-only tools are recorded")
}
