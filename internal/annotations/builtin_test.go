package annotations_test

import (
	"encoding/json"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewBuiltin: a built-in's params are checked by Validate in a manifest
// tool's words, its schema is encoded as a manifest tool's, and it may take
// an object — which no manifest param may.
func TestNewBuiltin(t *testing.T) {
	b := annotations.NewBuiltin("aeat_mcp_x", "X", "Does x.", annotations.Hints{ReadOnly: true, Idempotent: true},
		annotations.Param{Name: "id", Type: "string", Required: true, Pattern: `^r-[0-9]$`},
		annotations.Param{Name: "n", Type: "integer", Minimum: new(1.0)},
		annotations.Param{Name: "inner", Type: "object"})
	assert.True(t, b.Builtin())
	assert.JSONEq(t, `{"type":"object","properties":{"id":{"type":"string","pattern":"^r-[0-9]$"},"n":{"type":"integer","minimum":1},
		"inner":{"type":"object"}},"required":["id"],"additionalProperties":false}`, string(b.InputSchemaJSON()))

	args, err := b.Validate(json.RawMessage(`{"id":"r-1","n":3,"inner":{"a":[1]}}`))
	require.NoError(t, err)
	id, ok := args.Text("id")
	assert.True(t, ok)
	assert.Equal(t, "r-1", id)
	n, ok := args.Number("n")
	assert.True(t, ok)
	assert.Equal(t, 3.0, n)
	_, ok = args.Number("absent")
	assert.False(t, ok)

	for raw, want := range map[string]string{
		`{"id":"r-1","inner":"x"}`: `argument "inner": must be an object (got a string)`,
		`{"id":"r-1","n":1.5}`:     `argument "n": must be an integer (got 1.5)`,
		`{"id":"x"}`:               `argument "id": "x" does not match the pattern ^r-[0-9]$`,
		`{}`:                       `argument "id": is required`,
		`{"id":"r-1","m":1}`:       `argument "m": unknown argument; this tool takes id, n, inner`,
	} {
		_, err := b.Validate(json.RawMessage(raw))
		assert.EqualError(t, err, want, raw)
	}

	m, err := annotations.Parse(manifestWith(tool("a", `"params": [{"name": "o", "type": "object", "flag": "--o"}]`)), "m.json")
	assert.Nil(t, m)
	assert.ErrorContains(t, err, `params[0].type: is "object"; must be one of string, integer, number, boolean, array`)

	manifestTool, err := annotations.Parse(manifestWith(tool("a")), "m.json")
	require.NoError(t, err)
	assert.False(t, manifestTool.Tools[0].Builtin())
}
