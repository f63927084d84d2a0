package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
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
		root := newRootCmd(osSystem(0, "", nil), args, nil)
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

// TestFlagNamed: the guess of a flag's value before parsing reads args as
// pflag does (the last one wins, "--" ends the flags) and falls back to
// the environment twin.
func TestFlagNamed(t *testing.T) {
	env := func(k string) (string, bool) {
		if k == "AEAT_MCP_MANIFEST" {
			return "/env.json", true
		}
		return "", false
	}
	none := func(string) (string, bool) { return "", false }
	assert.Equal(t, "/a.json", flagNamed([]string{"--manifest", "/a.json"}, "manifest", env))
	assert.Equal(t, "/b.json", flagNamed([]string{"--manifest=/a.json", "serve", "--manifest", "/b.json"}, "manifest", env))
	assert.Equal(t, "/env.json", flagNamed([]string{"--demo"}, "manifest", env))
	assert.Equal(t, "/env.json", flagNamed([]string{"--", "--manifest", "/a.json"}, "manifest", env))
	assert.Equal(t, "", flagNamed([]string{"--manifest"}, "manifest", none))
	assert.Equal(t, "debug", flagNamed([]string{"--log-level=debug"}, "log-level", none))
}

// TestPreload_TakenOnlyForItsPath: the manifest loaded before parsing is
// handed out once, and only for the path the parsed flags name.
func TestPreload_TakenOnlyForItsPath(t *testing.T) {
	none := func(string) (string, bool) { return "", false }
	p := startPreload([]string{"--manifest", example}, none)
	require.NotNil(t, p)
	defer p.wait()
	_, _, ok := p.take("other.json", nil)
	assert.False(t, ok, "another path is loaded in place")
	m, err, ok := p.take(example, nil)
	require.True(t, ok)
	require.NoError(t, err)
	assert.Equal(t, "aeat", m.CLI.Command)
	_, _, ok = p.take(example, nil)
	assert.False(t, ok, "taken once: a second load is a load of its own")
	assert.Nil(t, startPreload([]string{"--demo"}, none), "no manifest named, nothing loaded")
}

// TestPreload_ErrorIsTheLoadsOwn: a manifest that does not load gives
// the preload the error the load in place gives, word for word (serve's
// exit 2 and its message: TestServe_BrokenManifestExits2).
func TestPreload_ErrorIsTheLoadsOwn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"version": 1, "cli": {"command": "x"}, "tools": [{"name": "a"}]}`), 0o644))
	p := startPreload([]string{"--manifest", path}, func(string) (string, bool) { return "", false })
	_, err, ok := p.take(path, nil)
	require.True(t, ok)
	_, want := manifestCache(nil).Load(path)
	require.Error(t, want)
	require.Error(t, err)
	assert.Equal(t, want.Error(), err.Error())
}

// TestPreload_CacheSaysReachTheLog: what the manifest cache logs while
// the preload runs — before any logger exists — reaches the logger the
// flags set up, at its level: a corrupt cache file's warning is not lost.
func TestPreload_CacheSaysReachTheLog(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	t.Setenv("HOME", home)
	none := func(string) (string, bool) { return "", false }
	p := startPreload([]string{"--manifest", example}, none)
	_, err, _ := p.take(example, nil) // writes the cache file
	require.NoError(t, err)
	files, err := filepath.Glob(filepath.Join(annotations.DefaultCacheDir(), "*.cache"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	require.NoError(t, os.WriteFile(files[0], []byte("not a cache"), 0o600))

	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&log, nil)).With("from", "serve")
	p = startPreload([]string{"--manifest", example}, none)
	_, err, ok := p.take(example, logger)
	require.True(t, ok)
	require.NoError(t, err)
	assert.Contains(t, log.String(), "the manifest cache is unusable and was ignored")
	assert.Contains(t, log.String(), "from=serve")

	// The cache's debug line on a hit is kept at the level the command
	// line names, and only then.
	debug := func(args ...string) string {
		var log bytes.Buffer
		p := startPreload(args, none)
		_, err, _ := p.take(example, slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug})))
		require.NoError(t, err)
		return log.String()
	}
	assert.Contains(t, debug("--manifest", example, "--log-level", "debug"), "the manifest came from the cache")
	assert.NotContains(t, debug("--manifest", example), "the manifest came from the cache")
}
