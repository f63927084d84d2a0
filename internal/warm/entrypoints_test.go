//go:build unix

package warm_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// installPlugin puts a distribution named name in site, with one entry
// point of the group warmdemo.plugins, as pip installs one.
func installPlugin(t *testing.T, site, name string) {
	t.Helper()
	dist := filepath.Join(site, name+"-1.0.dist-info")
	require.NoError(t, os.Mkdir(dist, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dist, "METADATA"), []byte("Metadata-Version: 2.1\nName: "+name+"\nVersion: 1.0\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dist, "entry_points.txt"), []byte("[warmdemo.plugins]\n"+name+" = json:dumps\n"), 0o644))
}

// plugins is the demo CLI's answer to `plugins warmdemo.plugins`.
type plugins struct {
	Plugins []string `json:"plugins"`
	Reads   int      `json:"reads"`
}

func parsePlugins(t *testing.T, res callruntime.Result) plugins {
	t.Helper()
	var p plugins
	require.NoError(t, json.Unmarshal(res.Stdout.Head, &p), "stdout %q stderr %q", res.Stdout.Head, res.Stderr.Head)
	return p
}

// TestWarmEntryPointsReadOnce: a warm call finds a CLI's plugins (its
// entry points) without reading every distribution's entry_points.txt
// again — the template read them once (template.py, _keep_entry_points) —
// and finds the same ones a cold call does; a distribution installed while
// the template runs is found at the next warm call, which reads them again.
func TestWarmEntryPointsReadOnce(t *testing.T) {
	site := t.TempDir()
	installPlugin(t, site, "alpha")
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2", "PYTHONPATH="+site))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State, st.Reason)

	call := func() (cold, hot plugins) {
		spec := s.spec("plugins", "warmdemo.plugins")
		c, err := s.runner.Run(context.Background(), spec)
		require.NoError(t, err)
		return parsePlugins(t, c), parsePlugins(t, s.run(t, context.Background(), spec))
	}
	cold, hot := call()
	assert.Equal(t, []string{"alpha"}, cold.Plugins)
	assert.Positive(t, cold.Reads, "a cold call reads every distribution's entry points")
	assert.Equal(t, cold.Plugins, hot.Plugins, "warm as cold")
	assert.Zero(t, hot.Reads, "a warm call reads none: the template did")

	installPlugin(t, site, "beta")
	cold, hot = call()
	assert.Equal(t, []string{"alpha", "beta"}, cold.Plugins)
	assert.Equal(t, cold.Plugins, hot.Plugins, "a plugin installed since the template read them is found warm too")
	assert.Positive(t, hot.Reads, "read again: sys.path's directories changed")
}
