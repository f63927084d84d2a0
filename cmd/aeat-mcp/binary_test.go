//go:build !windows

package main

import (
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
)

// binaryPath is aeat-mcp, built once, for the tests that need a real
// process (signals).
func binaryPath(t *testing.T) string { return proctest.Build(t, "cmd/aeat-mcp") }
