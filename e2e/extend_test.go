package e2e

import (
	"context"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
