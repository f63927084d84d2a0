//go:build !windows

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDoctor_HealthTimeout: a health command that does not answer within
// its tier's ceiling is a problem that says what timed out, the ceiling,
// and what to do — not an empty line (issue 28, item 1c). The built binary,
// a CLI that hangs.
func TestDoctor_HealthTimeout(t *testing.T) {
	dir := t.TempDir()
	cli := proctest.Build(t, "testdata/fakecli")
	manifest := filepath.Join(dir, "m.json")
	require.NoError(t, os.WriteFile(manifest, []byte(`{"version": 1, "cli": {"command": "`+cli+`", "health": {"command": ["hang"]}},
	  "tools": [{"name": "a", "title": "A", "description": "d", "command": ["ok"],
	   "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`), 0o644))
	code, report, _ := runBinary(t, "--manifest", manifest, "--timeout-read", "1s", "--kill-grace", "100ms", "doctor")
	assert.Equal(t, exitFailure, code, report)
	assert.Contains(t, report, "PROBLEM  `"+cli+" hang` did not answer within 1s, the ceiling of read tools (--timeout-read), so aeat-mcp stopped it and everything it had started")
	assert.Contains(t, report, "fix: run `"+cli+" hang` in a terminal: if it answers, only slowly (a Python CLI on a loaded machine), raise --timeout-read")
}
