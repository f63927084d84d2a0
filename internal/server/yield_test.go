package server

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// yieldingStarter serves no tier, and counts the calls it was told run
// beside it (Yield) and those still running.
type yieldingStarter struct{ began, running atomic.Int32 }

func (y *yieldingStarter) Serves(annotations.Tier) bool { return false }
func (y *yieldingStarter) Run(context.Context, callruntime.Spec) (callruntime.Result, error) {
	panic("a tier it does not serve is run by the server")
}
func (y *yieldingStarter) Yield() func() {
	y.began.Add(1)
	y.running.Add(1)
	return func() { y.running.Add(-1) }
}

// TestColdCallsYieldTheStartersPreparation: a call of a tier warm start does
// not serve runs cold beside it, and warm start's own preparation yields to
// it as to its own calls (internal/warm, yield.go): the server says when it
// runs.
func TestColdCallsYieldTheStartersPreparation(t *testing.T) {
	y := &yieldingStarter{}
	s := newServer(t, func(c *Config) { c.Warm = y })
	cs := connect(t, s, "", nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_echo", Arguments: map[string]any{"text": "hola"}})
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	assert.Equal(t, int32(1), y.began.Load(), "the call said it runs")
	assert.Equal(t, int32(0), y.running.Load(), "and that it ended")
}
