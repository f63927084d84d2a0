package main

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
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

// TestServeAlone: a command line that can only serve is served without
// cobra's tree (serveAlone); any other goes to the whole tree, completion
// included.
func TestServeAlone(t *testing.T) {
	served := func(args ...string) bool {
		sys := osSystem(0, "", nil)
		sys.stdin, sys.stdout, sys.stderr = strings.NewReader(""), io.Discard, io.Discard
		ok, err := serveAlone(t.Context(), sys, args)
		require.NoError(t, err)
		return ok
	}
	assert.True(t, served("--demo", "--log-level", "error"))
	assert.True(t, served("serve", "--demo", "--log-level", "error"))
	assert.False(t, served("--demo", "tools"))
	var names []string
	for _, c := range newRootCmd(osSystem(0, "", nil)).Commands() {
		names = append(names, c.Name())
	}
	assert.Contains(t, names, "call")
	assert.Contains(t, names, "serve")
	code, out, _ := runCmd(t, "", "completion", "bash")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "bash completion")
}

// TestServeAlone_AsTheTree: what serveAlone says of a serve command line —
// a bad flag value, a bad environment twin, a manifest that does not
// load, a served session — is what cobra's tree said of it, exit code and
// output alike.
func TestServeAlone_AsTheTree(t *testing.T) {
	for _, tc := range []struct {
		name  string
		env   []string
		args  []string
		fails bool
	}{
		{"a bad flag value", nil, []string{"--demo", "--timeout-live", "soon"}, true},
		{"a bad twin", []string{"AEAT_MCP_TIMEOUT_LIVE=soon"}, []string{"--demo"}, true},
		{"a bad twin under serve", []string{"AEAT_MCP_READ_ONLY=maybe"}, []string{"serve", "--demo"}, true},
		{"no manifest", nil, []string{"--manifest", filepath.Join(t.TempDir(), "none.json")}, true},
		{"a session", nil, []string{"serve", "--demo", "--log-level", "error"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			say := func(alone bool) (int, string, string) {
				var out, errOut bytes.Buffer
				sys := osSystem(0, "", nil)
				sys.environ = append(append([]string{}, sys.environ...), tc.env...)
				sys.stdin, sys.stdout, sys.stderr = strings.NewReader(initializeLine), &out, &errOut
				if alone {
					return run(t.Context(), sys, tc.args), out.String(), errOut.String()
				}
				code := exitOK
				if err := runTree(t.Context(), sys, tc.args); err != nil {
					code = -1 // the error's text is compared below
					errOut.WriteString(err.Error())
				}
				return code, out.String(), errOut.String()
			}
			treeCode, treeOut, treeErr := say(false)
			require.Equal(t, tc.fails, treeCode != exitOK, "the tree: %s", treeErr)
			if !tc.fails {
				require.Contains(t, treeOut, `"id":1`, "the tree answered initialize")
			}
			code, out, errText := say(true)
			if treeCode == exitOK {
				assert.Equal(t, exitOK, code)
			} else {
				assert.NotEqual(t, exitOK, code)
				assert.Contains(t, errText, treeErr, "the tree's error, as run prints it")
			}
			assert.Equal(t, treeOut, out)
		})
	}
}
