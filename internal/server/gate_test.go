package server

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func elicitClient(answer func(*mcp.ElicitRequest) (*mcp.ElicitResult, error), asked *int) *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			*asked++
			return answer(req)
		},
	}
}

// TestGate_Destructive: a destructive tool asks the user, in both protocol
// eras, and runs only on an explicit yes. Everything else is a refusal and
// nothing runs.
func TestGate_Destructive(t *testing.T) {
	accept := func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
	}
	tests := []struct {
		name   string
		answer func(*mcp.ElicitRequest) (*mcp.ElicitResult, error)
		code   Code
		reason string
	}{
		{"accepted", accept, CodeOK, ""},
		{"accepted but unticked", func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": false}}, nil
		}, CodeRefused, "declined"},
		{"declined", func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}, CodeRefused, "declined"},
		{"cancelled", func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}, CodeRefused, "declined"},
	}
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			s := newServer(t, nil)
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					asked := 0
					cs := connect(t, s, era, elicitClient(tc.answer, &asked))
					ran := false
					s.beforeRun = func(string) { ran = true }
					defer func() { s.beforeRun = nil }()
					res := callTool(t, cs, "destroy", nil)
					o := outcome(t, res)
					assert.Equal(t, 1, asked, "the user is asked once")
					assert.Equal(t, tc.code, o.Code)
					assert.Equal(t, tc.reason, o.Reason)
					assert.Equal(t, tc.code == CodeOK, ran)
					if tc.code == CodeOK {
						assert.Equal(t, "destroyed\n", text(res))
					} else {
						assert.Contains(t, text(res), "destroy was not run: it was not confirmed")
					}
				})
			}
			t.Run("non-destructive tools are not gated", func(t *testing.T) {
				asked := 0
				cs := connect(t, s, era, elicitClient(accept, &asked))
				res := callTool(t, cs, "mutate_store", nil)
				assert.Equal(t, CodeOK, outcome(t, res).Code)
				assert.Zero(t, asked)
			})
		})
	}
}

func TestGate_HostCannotAsk(t *testing.T) {
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			s := newServer(t, nil)
			cs := connect(t, s, era, nil) // no elicitation handler: no capability
			res := callTool(t, cs, "destroy", nil)
			o := outcome(t, res)
			assert.True(t, res.IsError)
			assert.Equal(t, CodeRefused, o.Code)
			assert.Equal(t, "cannot_confirm", o.Reason)
			assert.Contains(t, text(res), "--confirm=never")
		})
	}
	t.Run("--confirm=never allows it", func(t *testing.T) {
		s := newServer(t, func(c *Config) { c.Confirm = ConfirmNever })
		cs := connect(t, s, "", nil)
		res := callTool(t, cs, "destroy", nil)
		assert.Equal(t, CodeOK, outcome(t, res).Code)
	})
}

func TestGate_ElicitationError(t *testing.T) {
	s := newServer(t, nil)
	asked := 0
	cs := connect(t, s, "2025-11-25", elicitClient(func(*mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return nil, errors.New("host broke")
	}, &asked))
	res := callTool(t, cs, "destroy", nil)
	require.NotNil(t, res)
	assert.Equal(t, CodeRefused, outcome(t, res).Code, "an error is a no")
}

func TestGate_NoAnswerIsANo(t *testing.T) {
	s := newServer(t, nil)
	s.confirmWait = 200 * time.Millisecond
	asked := 0
	walkedAway := make(chan struct{}) // the user comes back once the test is over
	t.Cleanup(func() { close(walkedAway) })
	cs := connect(t, s, "2025-11-25", &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked++
			// The question stays open until the server stops waiting and
			// cancels it (the client handles no other message meanwhile);
			// a yes that comes after is too late.
			select {
			case <-ctx.Done():
			case <-walkedAway:
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
		},
	})
	// A call that waited for the answer would wait until the test gave
	// up on it.
	ctx, cancel := context.WithTimeout(context.Background(), proctest.HangAfter)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "destroy"})
	require.NoError(t, err, "the call waited for an answer that never came")
	assert.Equal(t, CodeRefused, outcome(t, res).Code)
}
