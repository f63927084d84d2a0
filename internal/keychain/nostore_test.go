//go:build !aeatmcp_testkeychain

package keychain

import "testing"

// TestOS_IsTheOSKeychain: in a release build, AEAT_MCP_TEST_KEYCHAIN is
// just a variable: OS() is the OS keychain whatever it says.
func TestOS_IsTheOSKeychain(t *testing.T) { testOSIsTheOSKeychain(t) }
