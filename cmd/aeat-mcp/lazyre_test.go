package main

import (
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
)

// The package's patterns compile at their first use (lazyre): compiled
// here, a bad one fails the tests as it failed at init.
func TestPatternsCompile(t *testing.T) {
	lazyre.Compiled(versionedRE, secretRE, secretNameRE)
}
