package main

import (
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServesOnly: a command line is taken for serve's alone only when
// every reading of it serves; anything else builds the whole tree.
func TestServesOnly(t *testing.T) {
	fs := pflag.NewFlagSet("aeat-mcp", pflag.ContinueOnError)
	(&options{}).register(fs, "linux")
	for _, tc := range []struct {
		name string
		args []string
		want bool
	}{
		{"nothing", nil, true},
		{"a host's config", []string{"--manifest", "/m.json", "--log-level", "debug"}, true},
		{"inline values and a bool", []string{"--manifest=/m.json", "--demo", "--read-only=true"}, true},
		{"serve", []string{"serve"}, true},
		{"flags around serve", []string{"--tools", "read_*", "serve", "--surface", "catalog"}, true},
		{"a flag's value that names a command", []string{"--manifest", "call"}, true},
		{"another command", []string{"--demo", "tools"}, false},
		{"serve twice", []string{"serve", "serve"}, false},
		{"completion", []string{"completion", "bash"}, false},
		{"shell completion's request", []string{"--demo", "__complete", "call", ""}, false},
		{"help", []string{"help"}, false},
		{"--help", []string{"--help"}, false},
		{"-h", []string{"-h"}, false},
		{"--version", []string{"--version"}, false},
		{"an unknown flag", []string{"--manifes", "/m.json"}, false},
		{"a bool's spaced value", []string{"--demo", "false"}, false},
		{"a typo of serve", []string{"serv"}, false},
		{"--", []string{"--"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, servesOnly(tc.args, fs))
		})
	}
}

// TestRootCmd_ServeBuildsServeAlone: a command line that can only serve
// gets the root and serve (no other command, no completion command);
// any other gets the whole tree, completion included.
func TestRootCmd_ServeBuildsServeAlone(t *testing.T) {
	names := func(args ...string) []string {
		root := newRootCmd(osSystem(0, "", nil), args)
		root.InitDefaultCompletionCmd(args...)
		var out []string
		for _, c := range root.Commands() {
			out = append(out, c.Name())
		}
		return out
	}
	assert.Equal(t, []string{"serve"}, names("--manifest", "/m.json"))
	assert.Equal(t, []string{"serve"}, names("serve", "--demo"))
	all := names("--demo", "tools")
	assert.Contains(t, all, "call")
	assert.Contains(t, all, "completion")
	assert.Contains(t, all, "serve")
	assert.Contains(t, names("completion", "zsh"), "completion")
	code, out, _ := runCmd(t, "", "completion", "bash")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "bash completion")
}
