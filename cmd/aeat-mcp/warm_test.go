package main

import (
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Warm start is off by default on macOS until it has run there (issue 30,
// item 1), on elsewhere; on macOS --warm=true or AEAT_MCP_WARM=true turns
// it on, and what says it is off names the default, not a flag nobody set.
func TestWarmDefaultPerOS(t *testing.T) {
	for _, tc := range []struct {
		goos string
		on   bool
		why  string
	}{
		{"linux", true, "--warm=false or AEAT_MCP_WARM=false"},
		{"windows", true, "--warm=false or AEAT_MCP_WARM=false"},
		{"darwin", false, "the default on macOS"},
	} {
		t.Run(tc.goos, func(t *testing.T) {
			o := &options{}
			fs := pflag.NewFlagSet("aeat-mcp", pflag.ContinueOnError)
			o.register(fs, tc.goos)
			require.NoError(t, fs.Parse(nil))
			assert.Equal(t, tc.on, o.warm)
			assert.Contains(t, warmOffWhy(tc.goos), tc.why)

			o = &options{}
			fs = pflag.NewFlagSet("aeat-mcp", pflag.ContinueOnError)
			o.register(fs, tc.goos)
			require.NoError(t, fs.Parse(nil))
			require.NoError(t, applyEnv(fs, func(name string) (string, bool) {
				return "true", name == "AEAT_MCP_WARM"
			}))
			assert.True(t, o.warm, "AEAT_MCP_WARM=true turns it on")
		})
	}
}
