// Package naivemcp is the floor a wrapper of a CLI is measured against
// (issue 11): a naive go-sdk server whose one tool runs
// exec.CommandContext(...).Output() — no supervision, no limits, no tree
// kill (it leaks every tree a CLI leaves behind and holds all of its output
// in memory). aeat-mcp should cost no more than it while keeping every
// guarantee. Its command (./cmd) is a binary of its own, as a naive wrapper
// would be: started as a re-executed test binary it carried the test
// package's own inits and size, a floor that was not one.
package naivemcp

import (
	"context"
	"encoding/json"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server is the naive server; its one tool, read_echo, runs cli echo -- TEXT.
func Server(cli string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "naive", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "read_echo", InputSchema: map[string]any{
		"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			out, err := exec.CommandContext(ctx, cli, "echo", "--", args.Text).Output()
			if err != nil {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}, nil
		})
	return s
}
