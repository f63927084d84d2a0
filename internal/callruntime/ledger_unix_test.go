//go:build linux || darwin

package callruntime

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDefaultStateDir: one directory per user and OS, from the home
// directory alone — never from the temporary directory, which differs
// between a server started by Claude Desktop and one from a terminal.
func TestDefaultStateDir(t *testing.T) {
	for _, tc := range []struct{ goos, home, want string }{
		{"darwin", "/Users/ana", "/Users/ana/Library/Caches/aeat-mcp"},
		{"linux", "/home/ana", "/home/ana/.local/state/aeat-mcp"},
		{"linux", "/home/ana/", "/home/ana/.local/state/aeat-mcp"},
		{"darwin", "", ""},        // no HOME: the temporary directory's, as before
		{"linux", "relative", ""}, // not a home
		{"linux", "/", ""},        // a service without a home of its own
	} {
		assert.Equal(t, tc.want, defaultStateDir(tc.goos, tc.home), "%s %q", tc.goos, tc.home)
	}
}
