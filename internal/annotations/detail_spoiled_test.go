package annotations

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spoiledCached is the whole aeat read back from a cache whose tool 7's
// detail fails to decode though the file's checksums hold (as
// TestCache_LateSectionCorrupt makes it), with the manifest edited after
// the start, so that the tool's detail cannot be read from it either; and
// that tool.
func spoiledCached(t *testing.T) (*Manifest, *Tool) {
	t.Helper()
	_, c, path := cachedFull(t)
	file := filepath.Join(c.Dir, c.fileName(absPath(path)))
	spoilDetailInFile(t, file, 7)
	m, err := c.Load(path)
	require.NoError(t, err)
	require.NotNil(t, m.late)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, append(data, '\n'), 0o600))
	return m, m.Tools[7]
}

// TestDetail_ChangedManifestRefused: a tool whose detail cannot be read
// from the cache, with the manifest changed since the start, is refused
// with the reason and the remedy — never given the new manifest's params
// under the old one's tools — and has no params.
func TestDetail_ChangedManifestRefused(t *testing.T) {
	m, victim := spoiledCached(t)
	err := victim.DetailErr()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "corrupt manifest cache")
	assert.ErrorIs(t, err, ErrManifestChanged)
	assert.Contains(t, err.Error(), "changed since the server started: restart the server")
	assert.Nil(t, victim.Params())
	assert.Nil(t, victim.CLIHelp())
	_, ok := victim.Param("modelo")
	assert.False(t, ok)
	require.NoError(t, m.Tools[8].DetailErr(), "the part was read: the other tools are whole")
}

// TestDetail_SetGlobalSpoiledTool: a --global (SetGlobal) on a manifest
// from the cache with a tool whose params could not be read is no panic
// at the start (it indexed that tool's empty params by the shared
// param's place): the other tools get the default, the spoiled one stays
// refused.
func TestDetail_SetGlobalSpoiledTool(t *testing.T) {
	m, victim := spoiledCached(t)
	require.NotPanics(t, func() { _ = m.SetGlobal("profile", []string{"work"}) })
	assert.Equal(t, "work", m.Tools[8].Params()[0].Default)
	assert.Error(t, victim.DetailErr())
}

// TestDetail_ValidateSpoiledTool: a tool whose params could not be read
// accepts no call — not the server's (answer checks DetailErr), nor a dry
// run's (server.Plan goes straight to Validate): with no params known,
// {} passed for a tool with three required params, and Plan showed a
// command line nobody checked.
func TestDetail_ValidateSpoiledTool(t *testing.T) {
	_, victim := spoiledCached(t)
	_, err := victim.Validate(json.RawMessage(`{}`))
	require.Error(t, err)
}

// TestDetail_LateDecodeRace: tools/call runs in parallel — many
// goroutines at once reading the same and different tools of a cached
// manifest (params, help, validation, patterns shared between tools)
// race on nothing (run with -race).
func TestDetail_LateDecodeRace(t *testing.T) {
	m, _, _ := cachedFull(t)
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Go(func() {
			for i := range 40 {
				tool := m.Tools[(g*7+i)%len(m.Tools)]
				if i%3 == 0 {
					tool = m.Tools[0] // the same tool, from every goroutine
				}
				for j := range tool.Params() {
					tool.Params()[j].compiledPattern()
				}
				_ = tool.CLIHelp()
				_ = tool.DetailErr()
				_, _ = tool.Validate(json.RawMessage(`{"modelo":"303","period":"1T"}`))
				_ = tool.InputSchema()
			}
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, m.LateDecoded(), len(m.Tools), "each tool decoded once")
}

// BenchmarkLoadCachedWithGlobal: a cached start of the whole aeat
// alone, and with one --global, interleaved: SetGlobal sets the default
// in every tool's params and rebuilds its schema, so such a start decodes
// every tool's detail — what this costs.
func BenchmarkLoadCachedWithGlobal(b *testing.B) {
	c := &Cache{Dir: b.TempDir(), Version: "v1"}
	path := filepath.Join(b.TempDir(), "m.json")
	raw, err := os.ReadFile("../../examples/aeat.full.manifest.json")
	require.NoError(b, err)
	require.NoError(b, os.WriteFile(path, raw, 0o600))
	_, err = c.Load(path)
	require.NoError(b, err)
	for _, global := range []bool{false, true, false, true} {
		name := "alone"
		if global {
			name = "with-global"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				m, err := c.Load(path)
				if err != nil {
					b.Fatal(err)
				}
				if global {
					if err := m.SetGlobal("profile", []string{"work"}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// useAsACall reads tool as a call does: its detail decoded, its params'
// patterns compiled, arguments checked.
func useAsACall(tool *Tool) {
	_ = tool.DetailErr()
	_ = tool.CLIHelp()
	for i := range tool.Params() {
		tool.Params()[i].compiledPattern()
	}
	_, _ = tool.Validate(json.RawMessage(`{}`))
	_ = tool.InputSchemaJSON()
	_, _ = tool.ListedParts()
}
