package main

import (
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallManifest writes a valid one-tool manifest and returns its path.
func smallManifest(t *testing.T) string {
	t.Helper()
	m := filepath.Join(t.TempDir(), "m.json")
	require.NoError(t, os.WriteFile(m, []byte(`{"version": 1, "cli": {"command": "/bin/true"},
	  "tools": [{"name": "a", "title": "A", "description": "d", "command": ["a"],
	   "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`), 0o644))
	return m
}

// TestServe_LoadsTheManifestWhileParsing: a command line that can only
// serve has its manifest loading before serve's own set-up begins (cobra's
// parse, the logger: runServe asks whether stdin is a terminal first), so
// the two run at once; the answer to initialize still comes, from that
// load. Before, the load began in open, after that set-up.
func TestServe_LoadsTheManifestWhileParsing(t *testing.T) {
	m := smallManifest(t)
	started := make(chan struct{})
	var once sync.Once
	var loads atomic.Int32
	sv := startServe(t, func(sys *system, _ *answerWatch) {
		sys.loadManifest = func(path string, logger *slog.Logger) (*annotations.Manifest, error) {
			loads.Add(1)
			once.Do(func() { close(started) })
			return manifestCache(logger).Load(path)
		}
		sys.isTerminal = func(io.Reader) bool {
			select {
			case <-started:
			case <-time.After(proctest.HangAfter):
				t.Error("serve's set-up began and the manifest's load had not started")
			}
			return false
		}
	}, "--manifest", m)
	<-sv.stdout.answered
	sv.host.Close()
	require.Equal(t, exitOK, <-sv.ended, sv.stderr.String())
	assert.Equal(t, int32(1), loads.Load(), "the manifest was loaded more than once")
}

// TestServe_EarlyLoadSaysWhatTheLoadSays: a manifest loaded early fails
// as one loaded in open does — the exit code and every word — and what
// the cache logged reaches serve's log. The second command line of each
// pair cannot load early (--demo=false is a demo flag given).
func TestServe_EarlyLoadSaysWhatTheLoadSays(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"version": 1, "cli": {"command": "/bin/true"}, "tools": [{"name": "a"}]}`), 0o644))
	for _, path := range []string{bad, filepath.Join(dir, "missing.json")} {
		code, out, errOut := runCmd(t, "", "--manifest", path)
		codeLate, outLate, errLate := runCmd(t, "", "--manifest", path, "--demo=false")
		assert.Equal(t, exitUsage, code)
		assert.Equal(t, codeLate, code)
		assert.Equal(t, outLate, out)
		assert.Equal(t, errLate, errOut)
		assert.Contains(t, errOut, "aeat-mcp: ")
	}

	// A cache file that cannot be used is said to be ignored, in the log.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	m := smallManifest(t)
	code, _, errOut := runCmd(t, "", "--manifest", m, "validate") // writes the cache file
	require.Equal(t, exitOK, code, errOut)
	files, err := filepath.Glob(filepath.Join(annotations.DefaultCacheDir(), "*"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		require.NoError(t, os.WriteFile(f, []byte("not a cache file"), 0o600))
	}
	code, _, errOut = runCmd(t, "", "--manifest", m, "--log-level", "debug")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, errOut, `level=WARN msg="the manifest cache is unusable and was ignored; rebuilding it"`)
}

// TestServe_EarlyLoadEndsWithTheCommand: a serve command line that fails
// after its manifest began loading (a flag's bad value) returns only
// once the load is over: nothing it started runs on.
func TestServe_EarlyLoadEndsWithTheCommand(t *testing.T) {
	m := smallManifest(t)
	release := make(chan struct{})
	var finished atomic.Bool
	code, _, errOut := runOn(t, func(sys *system) {
		sys.stderr = watchFirstWrite(sys.stderr, func() { close(release) })
		sys.loadManifest = func(path string, logger *slog.Logger) (*annotations.Manifest, error) {
			<-release // the command has said why it fails
			defer finished.Store(true)
			return manifestCache(logger).Load(path)
		}
	}, "", "--manifest", m, "--timeout-read", "0s")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "--timeout-read 0s: must be more than 0")
	assert.True(t, finished.Load(), "the command returned with its manifest still loading")
}

// TestServe_EarlyLoadIsOfTheServedManifest: the load started early is of
// the manifest serve serves: the flag's (the last one given) over its
// environment twin, the twin's alone, and none for the demo.
func TestServe_EarlyLoadIsOfTheServedManifest(t *testing.T) {
	a, b := smallManifest(t), smallManifest(t)
	loaded := func(env string, args ...string) []string {
		t.Setenv("AEAT_MCP_MANIFEST", env)
		var mu sync.Mutex
		var paths []string
		code, _, errOut := runOn(t, func(sys *system) {
			sys.loadManifest = func(path string, logger *slog.Logger) (*annotations.Manifest, error) {
				mu.Lock()
				paths = append(paths, path)
				mu.Unlock()
				return manifestCache(logger).Load(path)
			}
		}, "", args...)
		require.Equal(t, exitOK, code, errOut)
		return paths
	}
	assert.Equal(t, []string{b}, loaded(a, "--manifest", a, "serve", "--manifest", b))
	assert.Equal(t, []string{a}, loaded(a))
	assert.Equal(t, []string{b}, loaded(a, "--manifest="+b))
	assert.Empty(t, loaded(a, "--demo"))
}

// TestServeFlags: the flags a serve-only command line gives, each with
// its last value as pflag reads it.
func TestServeFlags(t *testing.T) {
	fs := pflag.NewFlagSet("aeat-mcp", pflag.ContinueOnError)
	(&options{}).register(fs, "linux")
	flags, ok := serveFlags([]string{"--manifest", "/m.json", "--demo", "serve", "--log-level=debug", "--manifest", "/n.json", "--tools", "a"}, fs)
	require.True(t, ok)
	assert.Equal(t, map[string]string{"manifest": "/n.json", "demo": "true", "log-level": "debug", "tools": "a"}, flags)
	_, ok = serveFlags([]string{"--manifest", "/m.json", "tools"}, fs)
	assert.False(t, ok)
	flags, _ = serveFlags([]string{"--read-only=false", "--manifest"}, fs)
	names := slices.Sorted(maps.Keys(flags))
	assert.Equal(t, []string{"manifest", "read-only"}, names)
}
