package server

import (
	"context"
	"errors"
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
		code     Code
		says     string
		minTime  time.Duration
		ceilingS float64
	}{
		{"yes: it finishes", "live_quick", yes, CodeOK, "", 1400 * time.Millisecond, 0},
		{"no: stopped at once", "live_quick", func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}, CodeTimeout, "The person was asked whether to give it more time and said no.", 0, 1},
		{"unticked", "live_quick", func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"extend": false}}, nil
		}, CodeTimeout, "and said no.", 0, 1},
		{"dismissed", "live_quick", func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}, CodeTimeout, "and closed the question without answering.", 0, 1},
		{"the question fails", "live_quick", func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("no dialog available")
		}, CodeTimeout, "aeat-mcp tried to ask the person whether to give it more time, but the MCP host could not put the question.", 0, 1},
		{"no answer: stopped after the wait, running meanwhile", "live_quick", func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			time.Sleep(3 * time.Second)
			return nil, context.Canceled
		}, CodeTimeout, "and did not answer within", 1300 * time.Millisecond, 1},
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
				assert.Equal(t, treeDeadConfirmed, *o.TreeDead)
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
			assert.NotContains(t, text(res), "was asked")
			assert.NotContains(t, text(res), "tried to ask")
		}
	})
}

// TestE2E_ExtendRefusalSaysWhatHappened: the refusal after the question at
// the ceiling says what the person did — said no, closed the question — or
// that the host could not put it; never that "you" (the model) were asked.
// Against the built binary, over stdio.
func TestE2E_ExtendRefusalSaysWhatHappened(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func() (*mcp.ElicitResult, error)
		says   string
	}{
		{"declined", func() (*mcp.ElicitResult, error) { return &mcp.ElicitResult{Action: "decline"}, nil }, "The person was asked whether to give it more time and said no."},
		{"dismissed", func() (*mcp.ElicitResult, error) { return &mcp.ElicitResult{Action: "cancel"}, nil }, "closed the question without answering."},
		{"could not be asked", func() (*mcp.ElicitResult, error) { return nil, errors.New("no dialog") }, "but the MCP host could not put the question."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return tc.answer() },
			})
			cmd := serverCmd(t, []string{"AEAT_MCP_LANG=en"}, "--timeout-live", "1s", "--kill-grace", "200ms")
			cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			require.NoError(t, err)
			defer cs.Close()
			res := callTool(t, cs, "live_pull", nil)
			assert.Equal(t, CodeTimeout, outcome(t, res).Code)
			assert.Contains(t, text(res), tc.says)
			assert.NotContains(t, text(res), "You were asked")
		})
	}
}
