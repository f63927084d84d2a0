// Command naivemcp serves naivemcp.Server on stdio for the CLI named by
// NAIVE_CLI: the naive wrapper as a host would start it.
package main

import (
	"context"
	"os"

	"github.com/aeat-mcp/aeat-mcp/testdata/naivemcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := naivemcp.Server(os.Getenv("NAIVE_CLI")).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}
