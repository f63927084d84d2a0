package annotations

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const globalsManifest = `{
  "version": 1,
  "cli": {
    "command": "app",
    "params": [
      {"name": "profile", "type": "string", "flag": "--profile", "minLength": 1},
      {"name": "lang", "type": "string", "flag": "--lang", "enum": ["es", "en"]},
      {"name": "level", "type": "integer", "flag": "--level", "required": true, "maximum": 3},
      {"name": "tags", "type": "array", "items": "string", "flag": "--tag"},
      {"name": "token", "type": "string", "flag": "--token", "sensitive": true}
    ]
  },
  "tools": [
    {"name": "a", "title": "A", "description": "a", "command": ["a"],
     "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
     "params": [{"name": "n", "type": "integer", "flag": "--n"}]},
    {"name": "b", "title": "B", "description": "b", "command": ["b"],
     "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}
  ]
}`

// TestSetGlobal: a pinned value is every tool's default — in its schema,
// in Validate, on the command line — and a call that gives the param wins.
func TestSetGlobal(t *testing.T) {
	m, err := Parse([]byte(globalsManifest), "")
	require.NoError(t, err)
	require.NoError(t, m.SetGlobal("profile", []string{"work"}))
	require.NoError(t, m.SetGlobal("level", []string{"2"}))
	require.NoError(t, m.SetGlobal("tags", []string{"x", "y"}))

	for _, tool := range m.Tools {
		schema, _ := json.Marshal(tool.InputSchema())
		assert.Contains(t, string(schema), `"profile":{"type":"string","default":"work","minLength":1}`, tool.Name)
		assert.NotContains(t, string(schema), `"required"`, "a required shared param with a default is no longer required")
		args, err := tool.Validate(nil)
		require.NoError(t, err, tool.Name)
		inv, err := tool.Render(args, false)
		require.NoError(t, err)
		assert.Equal(t, []string{"--profile=work", "--level=2", "--tag=x", "--tag=y", tool.Name}, inv.Argv[:5])
	}
	args, err := m.Tools[0].Validate(json.RawMessage(`{"profile": "home", "tags": []}`))
	require.NoError(t, err)
	inv, err := m.Tools[0].Render(args, false)
	require.NoError(t, err)
	assert.Equal(t, []string{"--profile=home", "--level=2", "a"}, inv.Argv, "the call's own values win")
}

func TestSetGlobal_Refuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		texts []string
		says  string
	}{
		{"nope", []string{"x"}, `"nope" is not a shared parameter of this manifest (cli.params: profile, lang, level, tags, token)`},
		{"lang", []string{"fr"}, "lang: must be one of es, en (got fr)"},
		{"profile", []string{""}, "profile: must be at least 1 characters long"},
		{"level", []string{"two"}, `level: expected an integer, got "two"`},
		{"level", []string{"9"}, "level: must be at most 3 (got 9)"},
		{"token", []string{"s3cr3t"}, "token is sensitive"},
	} {
		t.Run(tc.name+"="+tc.texts[0], func(t *testing.T) {
			m, err := Parse([]byte(globalsManifest), "")
			require.NoError(t, err)
			err = m.SetGlobal(tc.name, tc.texts)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.says)
			_, err = m.Tools[1].Validate(nil)
			assert.Error(t, err, "nothing changed: level is still required")
		})
	}
}
