package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAskToExtend: at the ceiling, a person who can be asked is asked once;
// only a yes gives the run as long again. Every run here outlives its
// ceiling however loaded the machine: live_pull never ends by itself, and
// live_await ends only once the test lets it — after the yes extended it.
func TestAskToExtend(t *testing.T) {
	yes := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"extend": true}}, nil
	}
	walkedAway := make(chan struct{}) // the person who never answers comes back at the end
	t.Cleanup(func() { close(walkedAway) })
	for _, tc := range []struct {
		name     string
		tool     string
		ceiling  time.Duration
		answer   func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)
		code     Code
		says     string
		minTime  time.Duration
		ceilingS float64
		// askWait is how long the server waits for the person: the case
		// of nobody answering waits a short while; where the person
		// answers at once the wait only catches a hang — on a loaded
		// machine a question and its answer took longer than 300 ms to
		// go round (seen as "unticked" timing out, asked 0 times).
		askWait time.Duration
	}{
		// Let go once the yes extended it: the ceiling is long enough
		// that what is left of the extension spans its exit, however
		// slow the machine.
		{"yes: it finishes", "live_await", 5 * time.Second, yes, CodeOK, "", 5 * time.Second, 0, 0},
		{"no: stopped at once", "live_pull", time.Second, func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}, CodeTimeout, "The person was asked whether to give it more time and said no.", 0, 1, 0},
		{"unticked", "live_pull", time.Second, func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"extend": false}}, nil
		}, CodeTimeout, "and said no.", 0, 1, 0},
		{"dismissed", "live_pull", time.Second, func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}, CodeTimeout, "and closed the question without answering.", 0, 1, 0},
		{"the question fails", "live_pull", time.Second, func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("no dialog available")
		}, CodeTimeout, "aeat-mcp tried to ask the person whether to give it more time, but the MCP host could not put the question.", 0, 1, 0},
		{"no answer: stopped after the wait, running meanwhile", "live_pull", time.Second, func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			// Nobody answers: the question stays open until the server
			// stops waiting and cancels it (as a host then closes its
			// dialog). The client handles no other message meanwhile.
			select {
			case <-ctx.Done():
			case <-walkedAway:
			}
			return nil, context.Canceled
		}, CodeTimeout, "and did not answer within", 1300 * time.Millisecond, 1, 300 * time.Millisecond},
		{"yes, and the extra time runs out too", "live_pull", time.Second, yes, CodeTimeout, "already been given 1 s more", 2 * time.Second, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log syncBuffer
			s := newServer(t, func(c *Config) {
				c.AskToExtend = true
				c.Ceilings.Live = tc.ceiling
				c.Logger = slog.New(slog.NewTextHandler(&log, nil))
			})
			s.askWait = proctest.HangAfter
			if tc.askWait > 0 {
				s.askWait = tc.askWait
			}
			var asked atomic.Int32
			var prompt atomic.Value
			cs := connect(t, s, "2025-11-25", &mcp.ClientOptions{
				ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked.Add(1)
					prompt.Store(req.Params.Message)
					return tc.answer(ctx, req)
				},
			})
			var args map[string]any
			if tc.tool == "live_await" {
				gate := newGate(t)
				args = map[string]any{"gate": gate}
				go func() {
					// The run goes on past its first ceiling only if the
					// yes extended it: let it end once the server says so.
					for deadline := time.Now().Add(proctest.HangAfter); !strings.Contains(log.String(), "ceiling extended") && time.Now().Before(deadline); {
						time.Sleep(10 * time.Millisecond)
					}
					_ = openGate(gate)
				}()
			}
			start := time.Now()
			res := callTool(t, cs, tc.tool, args)
			o := outcome(t, res)
			assert.Equal(t, tc.code, o.Code, text(res))
			assert.Equal(t, int32(1), asked.Load(), "asked once")
			assert.Contains(t, prompt.Load(), fmt.Sprintf("of its %d s ceiling", int(tc.ceiling.Seconds())))
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
			res := callTool(t, cs, "live_pull", nil)
			// Stopped at its ceiling, and nobody was asked or tried.
			assert.Equal(t, CodeTimeout, outcome(t, res).Code)
			assert.NotContains(t, text(res), "was asked")
			assert.NotContains(t, text(res), "tried to ask")
		}
	})
}
