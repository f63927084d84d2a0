package generate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEncode(t *testing.T) {
	v, err := decodeJSON([]byte(`{
		"tools": [{"params": [{"flag": "--a", "type": "string", "name": "a", "zz_later": 1}],
		           "annotations": {"openWorldHint": false, "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true},
		           "command": ["x", "y"], "description": "<b>&</b>", "name": "x_y", "title": "T",
		           "exit_codes": {"10": {"meaning": "m"}, "2": {"meaning": "n"}}}],
		"cli": {"params": [], "command": "x", "env": {"set": {"B": "1", "A": "2"}, "pass": ["P_*"]}},
		"version": 1, "$schema": "s", "surface": {"core": ["x_y"]}}`))
	require.NoError(t, err)
	want := `{
  "$schema": "s",
  "version": 1,
  "cli": {
    "command": "x",
    "env": {
      "pass": ["P_*"],
      "set": {
        "A": "2",
        "B": "1"
      }
    },
    "params": []
  },
  "surface": {
    "core": ["x_y"]
  },
  "tools": [
    {
      "name": "x_y",
      "title": "T",
      "description": "<b>&</b>",
      "command": ["x", "y"],
      "annotations": {
        "readOnlyHint": true,
        "destructiveHint": false,
        "idempotentHint": true,
        "openWorldHint": false
      },
      "params": [
        {
          "name": "a",
          "type": "string",
          "flag": "--a",
          "zz_later": 1
        }
      ],
      "exit_codes": {
        "2": {
          "meaning": "n"
        },
        "10": {
          "meaning": "m"
        }
      }
    }
  ]
}
`
	assert.Equal(t, want, string(Encode(v)), "known keys in a person's order, others sorted (numbers by value), no HTML escaping")
	again, err := decodeJSON(Encode(v))
	require.NoError(t, err)
	assert.Equal(t, want, string(Encode(again)), "stable")

	long := []any{}
	for i := 0; i < 20; i++ {
		long = append(long, "a-long-enough-word")
	}
	assert.Contains(t, string(Encode(map[string]any{"args": long})), "[\n    \"a-long-enough-word\",\n", "a long list is one item a line")
}

func TestDiff(t *testing.T) {
	fresh := []byte(`{"version": 1, "cli": {"command": "x", "params": [{"name": "p", "type": "string", "flag": "--p"}]},
		"tools": [{"name": "a", "title": "A", "params": [{"name": "n", "type": "integer", "minimum": 1}, {"name": "m", "type": "string"}]},
		          {"name": "b", "title": "B"}]}`)
	for _, tc := range []struct {
		name, disk string
		want       []string
	}{
		{"the same, written otherwise", `{"tools": [{"title": "B", "name": "b"}, {"params": [{"minimum": 1.0, "type": "integer", "name": "n"}, {"name": "m", "type": "string"}], "name": "a", "title": "A"}],
			"cli": {"params": [{"flag": "--p", "name": "p", "type": "string"}], "command": "x"}, "version": 1, "$schema": "../schema.json"}`, nil},
		{"changes", `{"version": 1, "cli": {"command": "y", "params": [{"name": "p", "type": "string", "flag": "--p"}]},
			"tools": [{"name": "a", "title": "A2", "params": [{"name": "m", "type": "string"}, {"name": "n", "type": "integer"}]},
			          {"name": "c", "title": "C"}]}`, []string{
			`cli.command: the manifest has "y"; a fresh generation has "x"`,
			`tool a: params: the order differs: the manifest has m, n, a fresh generation n, m`,
			`tool a: params[n].minimum: not in the manifest; a fresh generation has 1`,
			`tool a: title: the manifest has "A2"; a fresh generation has "A"`,
			`tool b: only in a fresh generation (new in the CLI or the overrides)`,
			`tool c: only in the manifest (gone from the CLI, or left out by the overrides)`,
		}},
		{"a param gone", `{"version": 1, "cli": {"command": "x"}, "tools": [{"name": "a", "title": "A", "params": [{"name": "n", "type": "integer", "minimum": 1}]}, {"name": "b", "title": "B"}]}`, []string{
			`cli.params: not in the manifest; a fresh generation has [{"flag":"--p","name":"p","type":"string"}]`,
			`tool a: params[m]: not in the manifest; a fresh generation has {"name":"m","type":"string"}`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Diff([]byte(tc.disk), fresh)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	_, err := Diff([]byte(`{"version": `), fresh)
	assert.ErrorContains(t, err, "the manifest is not JSON")
}
