//go:build !aeatmcp_testkeychain

package keychain

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOS_IsTheOSKeychain: in a release build, AEAT_MCP_TEST_KEYCHAIN is
// just a variable: OS() is the OS keychain whatever it says.
func TestOS_IsTheOSKeychain(t *testing.T) {
	t.Setenv("AEAT_MCP_TEST_KEYCHAIN", t.TempDir()+"/k.json")
	assert.Equal(t, reflect.TypeOf(osStore(nil)), reflect.TypeOf(OS(nil)), "without the test build tag, no variable replaces the OS keychain")
}
