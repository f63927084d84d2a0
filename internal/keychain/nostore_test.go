//go:build !aeatmcp_testkeychain

package keychain

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOS_IsTheOSKeychain: in a release build, AEAT_MCP_TEST_KEYCHAIN is
// just a variable: OS() is the OS keychain whatever it says.
func TestOS_IsTheOSKeychain(t *testing.T) {
	t.Setenv("AEAT_MCP_TEST_KEYCHAIN", t.TempDir()+"/k.json")
	_, isOS := OS().(osStore)
	assert.True(t, isOS, "without the test build tag, no variable replaces the OS keychain")
}
