//go:build linux

package server

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAskToExtend: at the ceiling, a person who can be asked is asked once;
// only a yes gives the run as long again.
func TestAskToExtend(t *testing.T) {
	yes := func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"extend": true}}, nil
	}
	for _, tc := range []struct {
		name     string
		tool     string
		answer   func(*mcp.ElicitRequest) (*mcp.ElicitResult, error)
		code     string
		says     string
		minTime  time.Duration
		ceilingS float64
	}{
		{"yes: it finishes", "live_quick", yes, CodeOK, "", 1400 * time.Millisecond, 0},
		{"no: stopped at once", "live_quick", func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}, CodeTimeout, "did not say yes", 0, 1},
		{"unticked", "live_quick", func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"extend": false}}, nil
		}, CodeTimeout, "did not say yes", 0, 1},
		{"no answer: stopped after the wait, running meanwhile", "live_quick", func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			time.Sleep(3 * time.Second)
			return nil, context.Canceled
		}, CodeTimeout, "did not say yes", 1300 * time.Millisecond, 1},
		{"yes, and the extra time runs out too", "live_pull", yes, CodeTimeout, "already been given 1 s more", 2 * time.Second, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(c *Config) {
				c.AskToExtend = true
				c.Ceilings.Live = time.Second
			})
			s.askWait = 300 * time.Millisecond
			var asked atomic.Int32
			var prompt atomic.Value
			cs := connect(t, s, "2025-11-25", &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked.Add(1)
					prompt.Store(req.Params.Message)
					return tc.answer(req)
				},
			})
			start := time.Now()
			res := callTool(t, cs, tc.tool, nil)
			o := outcome(t, res)
			assert.Equal(t, tc.code, o.Code, text(res))
			assert.Equal(t, int32(1), asked.Load(), "asked once")
			assert.Contains(t, prompt.Load(), "of its 1 s ceiling")
			assert.Contains(t, text(res), tc.says)
			assert.GreaterOrEqual(t, time.Since(start), tc.minTime)
			if tc.ceilingS > 0 {
				assert.Equal(t, tc.ceilingS, o.TimeoutSeconds)
			}
			if o.Code == CodeTimeout {
				require.NotNil(t, o.TreeDead)
				assert.True(t, *o.TreeDead)
			}
		})
	}
	t.Run("nobody to ask", func(t *testing.T) {
		for _, era := range eras {
			s := newServer(t, func(c *Config) {
				c.AskToExtend = true
				c.Ceilings.Live = time.Second
			})
			cs := connect(t, s, era, nil) // no elicitation
			res := callTool(t, cs, "live_quick", nil)
			// It would finish at 1.5 s: a timeout means it was stopped at
			// its ceiling, unasked.
			assert.Equal(t, CodeTimeout, outcome(t, res).Code)
			assert.NotContains(t, text(res), "did not say yes")
		}
	})
}
