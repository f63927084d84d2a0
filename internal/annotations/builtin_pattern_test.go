package annotations

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewBuiltin_PatternAtFirstUse: a built-in's pattern is compiled when
// an argument is first checked against it, not when the tool is built —
// a server builds its built-ins before initialize, which checks none.
func TestNewBuiltin_PatternAtFirstUse(t *testing.T) {
	b := NewBuiltin("aeat_mcp_x", "X", "Does x.", Hints{ReadOnly: true, Idempotent: true},
		Param{Name: "id", Type: "string", Required: true, Pattern: `^r-[0-9]$`})
	require.NotNil(t, b.Params()[0].pattern)
	assert.Nil(t, b.Params()[0].pattern.re, "compiled when the tool was built")
	_, err := b.Validate(json.RawMessage(`{"id":"x"}`))
	assert.EqualError(t, err, `argument "id": "x" does not match the pattern ^r-[0-9]$`)
	assert.NotNil(t, b.Params()[0].pattern.re, "compiled at its first use")
}
