package server

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFirstCall: Config.FirstCall is told once, when the first tools/call
// arrives — not by the connect (initialize, the lists), and not again by
// later calls.
func TestFirstCall(t *testing.T) {
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			var told atomic.Int32
			s := newServer(t, func(c *Config) { c.FirstCall = func() { told.Add(1) } })
			cs := connect(t, s, era, nil)
			_, err := cs.ListTools(context.Background(), &mcp.ListToolsParams{})
			require.NoError(t, err)
			assert.Zero(t, told.Load(), "told before any call")
			callTool(t, cs, "read_echo", map[string]any{"text": "one"})
			assert.EqualValues(t, 1, told.Load())
			callTool(t, cs, "read_echo", map[string]any{"text": "two"})
			assert.EqualValues(t, 1, told.Load(), "told again")
		})
	}
}
