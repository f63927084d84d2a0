package annotations_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const cautious = `"annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}`

func guessedTool(name, command, guessed string) string {
	return `{"name": "` + name + `", "title": "T", "description": "D", "command": ` + command + `, ` + cautious +
		`, "hints_guessed": ` + guessed + `}`
}

// TestHintsGuessed: the marker generate writes loads, and validate's
// warning names every marked tool, one warning per set of guessed hints,
// grouped by the command the verb belongs to.
func TestHintsGuessed(t *testing.T) {
	m, err := annotations.Parse(manifestWith(
		guessedTool("app_ledger_list", `["app", "ledger", "list"]`, `["destructiveHint"]`),
		guessedTool("app_ledger_view", `["app", "ledger", "view"]`, `["destructiveHint"]`),
		guessedTool("app_diag_runs", `["app", "diag", "runs"]`, `["destructiveHint"]`),
		guessedTool("secret_set", `["config", "secret", "set", "--secrets-stdin"]`, `["openWorldHint", "readOnlyHint", "destructiveHint", "idempotentHint"]`),
		guessedTool("version", `["version"]`, `["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]`),
		tool("checked"),
	), "m.json")
	require.NoError(t, err)
	assert.Equal(t, []string{"destructiveHint"}, m.Tools[0].HintsGuessed)
	assert.Empty(t, m.Tools[5].HintsGuessed)
	require.Len(t, m.Warnings, 2, strings.Join(m.Warnings, "\n"))
	assert.Equal(t, `hints guessed for 3 tools (destructiveHint): cautious values, not the CLI's word — check each against the CLI and set its annotations (generate --overrides):
  app diag: app_diag_runs
  app ledger: app_ledger_list, app_ledger_view`, m.Warnings[0])
	assert.Equal(t, `hints guessed for 2 tools (readOnlyHint, destructiveHint, idempotentHint, openWorldHint): cautious values, not the CLI's word — check each against the CLI and set its annotations (generate --overrides):
  (top level): version
  config secret: secret_set`, m.Warnings[1], "the hints in the manifest's order; a fixed option is not part of the group")

	for _, tc := range []struct{ name, guessed, want string }{
		{"not a list", `"destructiveHint"`, "hints_guessed: must be a list of hint names"},
		{"empty", `[]`, "hints_guessed: is empty"},
		{"unknown hint", `["destructive"]`, `hints_guessed[0]: "destructive" is not a hint`},
		{"twice", `["openWorldHint", "openWorldHint"]`, `hints_guessed[1]: "openWorldHint" is listed twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := manifestWith(guessedTool("a", `["a"]`, tc.guessed))
			_, err := annotations.Parse(data, "m.json")
			require.Error(t, err)
			assert.Contains(t, err.Error(), `m.json: tool "a": `+tc.want)
			var v any
			require.NoError(t, json.Unmarshal(data, &v))
			assert.Error(t, manifestSchema(t).Validate(v), "the schema refuses it too")
		})
	}
	var v any
	require.NoError(t, json.Unmarshal(manifestWith(guessedTool("a", `["a"]`, `["idempotentHint"]`)), &v))
	assert.NoError(t, manifestSchema(t).Validate(v))
}
