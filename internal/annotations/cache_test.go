package annotations

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cacheManifests are the manifests every cache test runs on: the whole aeat
// (every verb: cli error codes, health, warm, keychain, stdin, confirm),
// the curated one, and the package's own.
var cacheManifests = []string{
	"../../examples/aeat.full.manifest.json",
	"../../examples/aeat.manifest.json",
	"../demo/demo.manifest.json",
	"testdata/manifests/aeat.manifest.json",
	"testdata/manifests/positional_array.json",
}

// logged is a Cache's log, which a test reads.
type logged = proctest.SyncBuffer

func newCache(t *testing.T, dir, version string) (*Cache, *logged) {
	t.Helper()
	l := &logged{}
	return &Cache{Dir: dir, Version: version, Logger: slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Listed: testListed}, l
}

// testListed stands for the server's listing of a tool (Cache.Listed):
// bytes of the tool's own, which a cache hit must give back as they were.
func testListed(t *Tool) []byte {
	return []byte(`{"name":"` + t.Name + `","inputSchema":` + string(t.schemaJSON) + `}`)
}

// loadFresh is path loaded without a cache, each tool listed as c lists
// it (Cache.Listed): what a load through c must equal.
func loadFresh(t *testing.T, c *Cache, path string) *Manifest {
	t.Helper()
	m, err := Load(path)
	require.NoError(t, err)
	for _, tool := range m.Tools {
		if c.Listed != nil {
			tool.keepListed(c.Listed(tool))
		}
	}
	return m
}

// copyManifest puts a copy of src in a temporary directory.
func copyManifest(t *testing.T, src string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), filepath.Base(src))
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// loadTwice loads path through c twice: the first load builds the cache
// file, the second must read it. Both must equal a fresh load, every
// field (the derived ones too: compiled patterns, params by name, encoded
// schemas).
func loadTwice(t *testing.T, c *Cache, path string) *Manifest {
	t.Helper()
	fresh := loadFresh(t, c, path)
	first, err := c.Load(path)
	require.NoError(t, err)
	assert.Equal(t, fresh, first)
	cached, err := c.Load(path)
	require.NoError(t, err)
	assertFromCache(t, c, path)
	require.Equal(t, withPatterns(fresh), withPatterns(cached))
	return cached
}

// withPatterns is m with every param's pattern compiled and every tool's
// detail decoded: a cached manifest's compile, and decode, at their first
// use, a fresh one's at load (pattern, lateDetail), and once used the two
// must be the same. What is left of a late section once it is decoded
// (Tool.late), and of a tool's section once it is read (Tool.listing),
// is then dropped.
func withPatterns(m *Manifest) *Manifest {
	for i := range m.CLI.Params {
		m.CLI.Params[i].compiledPattern()
	}
	for _, tool := range m.Tools {
		if err := tool.DetailErr(); err != nil {
			panic(err)
		}
		for i := range tool.Params() {
			tool.Params()[i].compiledPattern()
		}
		tool.late, tool.lateOnce = nil, sync.Once{}
		tool.listing, tool.listOnce = nil, sync.Once{}
	}
	m.late = nil
	return m
}

// assertFromCache checks that the cache file of path holds a manifest.
func assertFromCache(t *testing.T, c *Cache, path string) {
	t.Helper()
	data, abs, err := readManifest(path)
	require.NoError(t, err)
	_, err = readCache(filepath.Join(c.Dir, c.fileName(abs)), c.key(data))
	require.NoError(t, err, "the cache file is not a hit")
}

func TestCache_HitEqualsFreshLoad(t *testing.T) {
	for _, src := range cacheManifests {
		t.Run(filepath.Base(src), func(t *testing.T) {
			c, log := newCache(t, t.TempDir(), "v1.2.3")
			m := loadTwice(t, c, copyManifest(t, src))
			assert.NotContains(t, log.String(), "level=WARN")
			for _, tool := range m.Tools {
				assert.Same(t, &m.CLI, tool.cli)
				for i := range tool.Params() {
					p, ok := tool.Param(tool.Params()[i].Name)
					require.True(t, ok)
					assert.Same(t, &tool.Params()[i], p)
				}
			}
		})
	}
}

// TestCache_PatternsCompiledAtFirstUse: a manifest read from the cache
// compiles no pattern at load — they compiled when it was validated — and
// a value checked against one is still refused when it does not match.
func TestCache_PatternsCompiledAtFirstUse(t *testing.T) {
	c, _ := newCache(t, t.TempDir(), "v1")
	path := copyManifest(t, "../../examples/aeat.manifest.json")
	loadTwice(t, c, path)
	m, err := c.Load(path) // a third time: loadTwice compiled its patterns
	require.NoError(t, err)
	assertFromCache(t, c, path)
	var tool *Tool
	var prm *Param
	for _, tl := range m.Tools {
		for i := range tl.Params() {
			if p := &tl.Params()[i]; p.Pattern != "" {
				require.NotNil(t, p.pattern, "%s.%s", tl.Name, p.Name)
				assert.Nil(t, p.pattern.re, "%s.%s compiled at load", tl.Name, p.Name)
				if p.Type == "string" && !p.Required && tool == nil {
					tool, prm = tl, p
				}
			}
		}
	}
	require.NotNil(t, tool, "a string param with a pattern")
	_, err = tool.Validate(json.RawMessage(`{"` + prm.Name + `":"no\nsuch\nvalue"}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "does not match the pattern")
	assert.NotNil(t, prm.pattern.re, "compiled at its first use")
}

func TestCache_TypesAllCovered(t *testing.T) {
	assert.NotContains(t, typesFingerprint, "unsupported")
	assert.Contains(t, typesFingerprint, "annotations.Tool{")
}

// TestCache_IgnoredWhenBroken: a cache file that is corrupt, truncated,
// foreign or unreadable is never trusted: the manifest loads as fresh,
// the log (never stdout: the logger is the caller's) says why, and the
// file is rebuilt.
func TestCache_IgnoredWhenBroken(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T, file string)
		warns bool
	}{
		{"corrupt", func(t *testing.T, file string) {
			raw, err := os.ReadFile(file)
			require.NoError(t, err)
			raw[headEnd(raw)/2] ^= 0x55 // the head: a tool's section is TestCache_SectionCorrupt's
			require.NoError(t, os.WriteFile(file, raw, 0o600))
		}, true},
		{"truncated", func(t *testing.T, file string) {
			raw, err := os.ReadFile(file)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(file, raw[:len(raw)*2/3], 0o600))
		}, true},
		{"empty", func(t *testing.T, file string) {
			require.NoError(t, os.WriteFile(file, nil, 0o600))
		}, true},
		{"not-a-cache-file", func(t *testing.T, file string) {
			require.NoError(t, os.WriteFile(file, []byte(`{"version": 1}`), 0o600))
		}, true},
		{"unreadable", func(t *testing.T, file string) {
			require.NoError(t, os.Remove(file))
			require.NoError(t, os.Mkdir(file, 0o700)) // read fails whoever we are
		}, true},
		{"format-4", func(t *testing.T, file string) {
			// The format before this one, exactly: its magic, CRC-32C.
			castagnoli := crc32.MakeTable(crc32.Castagnoli)
			rewrite(t, file, "aeat-mcp manifest cache 4\n", func(b []byte) uint32 { return crc32.Checksum(b, castagnoli) })
		}, false},
		{"format-5", func(t *testing.T, file string) {
			// The format before this one: its magic; the details in the
			// head, where this one's head has the details part's length.
			rewrite(t, file, "aeat-mcp manifest cache 5\n", crc32.ChecksumIEEE)
		}, false},
		{"format-6-with-CRC-32C", func(t *testing.T, file string) {
			castagnoli := crc32.MakeTable(crc32.Castagnoli)
			rewrite(t, file, cacheMagic, func(b []byte) uint32 { return crc32.Checksum(b, castagnoli) })
		}, true},
		{"another-version's", func(t *testing.T, file string) {
			other := &Cache{Dir: t.TempDir(), Version: "v9.9.9"}
			path := copyManifest(t, "../../examples/aeat.manifest.json")
			_, err := other.Load(path)
			require.NoError(t, err)
			_, abs, _ := readManifest(path)
			raw, err := os.ReadFile(filepath.Join(other.Dir, other.fileName(abs)))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(file, raw, 0o600))
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, log := newCache(t, t.TempDir(), "v1.2.3")
			path := copyManifest(t, "../../examples/aeat.manifest.json")
			_, err := c.Load(path)
			require.NoError(t, err)
			_, abs, _ := readManifest(path)
			file := filepath.Join(c.Dir, c.fileName(abs))
			tc.spoil(t, file)

			got, err := c.Load(path)
			require.NoError(t, err)
			assert.Equal(t, loadFresh(t, c, path), got)
			if tc.warns {
				assert.Contains(t, log.String(), "level=WARN msg=\"the manifest cache is unusable")
			} else {
				assert.NotContains(t, log.String(), "level=WARN")
				assert.Contains(t, log.String(), "for another manifest or build")
			}
			if tc.name != "unreadable" {
				assertFromCache(t, c, path) // rebuilt
			}
		})
	}
}

// rewrite rewrites the cache file with magic, its head's and each
// section's CRC made by sum (file format: cache_listing.go).
func rewrite(t *testing.T, file, magic string, sum func([]byte) uint32) {
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Len(t, magic, len(cacheMagic))
	copy(raw, magic)
	parts := partsOf(t, file)
	end := headEnd(raw)
	binary.LittleEndian.PutUint32(raw[end:], sum(raw[:end]))
	resumDetails(raw, parts, sum)
	for off := end + 4; off < int(parts.detailsOff); {
		i := off
		for range 3 { // schema, listing head, listing tail
			n, k := binary.Uvarint(raw[i:])
			i += k + int(n)
		}
		binary.LittleEndian.PutUint32(raw[i:], sum(raw[off:i]))
		off = i + 4
	}
	require.NoError(t, os.WriteFile(file, raw, 0o600))
}

// TestCache_KeyedOnBytesAndVersion: an edited manifest, or another
// binary's version, never reads the file written before.
func TestCache_KeyedOnBytesAndVersion(t *testing.T) {
	dir := t.TempDir()
	path := copyManifest(t, "../../examples/aeat.manifest.json")
	c, _ := newCache(t, dir, "v1.2.3")
	before, err := c.Load(path)
	require.NoError(t, err)

	t.Run("edited", func(t *testing.T) {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		edited := bytes.Replace(data, []byte(before.Tools[0].Title), []byte("An edited title"), 1)
		require.NoError(t, os.WriteFile(path, edited, 0o600))
		got, err := c.Load(path)
		require.NoError(t, err)
		assert.Equal(t, "An edited title", got.Tools[0].Title)
		assert.Equal(t, loadFresh(t, c, path), got)
		assertFromCache(t, c, path)
	})
	t.Run("version", func(t *testing.T) {
		_, abs, _ := readManifest(path)
		mine := filepath.Join(dir, c.fileName(abs))
		other, log := newCache(t, dir, "v1.2.4")
		theirs := filepath.Join(dir, other.fileName(abs))
		require.NotEqual(t, mine, theirs)
		// Even the other version's file, put where this one looks, is foreign.
		raw, err := os.ReadFile(mine)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(theirs, raw, 0o600))
		_, err = other.Load(path)
		require.NoError(t, err)
		assert.Contains(t, log.String(), "for another manifest or build")
		assert.NotEqual(t, c.key([]byte("x")), other.key([]byte("x")))
	})
}

// TestCache_NoDirectory: a cache directory that cannot be made, or is
// missing, never stops a manifest from loading.
func TestCache_NoDirectory(t *testing.T) {
	path := copyManifest(t, "../../examples/aeat.manifest.json")
	fresh, err := Load(path)
	require.NoError(t, err)

	blocker := filepath.Join(t.TempDir(), "a-file")
	require.NoError(t, os.WriteFile(blocker, nil, 0o600))
	c, log := newCache(t, filepath.Join(blocker, "cache"), "v1")
	got, err := c.Load(path)
	require.NoError(t, err)
	assert.Equal(t, loadFresh(t, c, path), got)
	assert.Contains(t, log.String(), "could not be written")

	missing := filepath.Join(t.TempDir(), "not", "yet")
	c, _ = newCache(t, missing, "v1")
	loadTwice(t, c, path)

	got, err = (&Cache{}).Load(path)
	require.NoError(t, err)
	assert.Equal(t, fresh, got)
}

// TestCache_InvalidNeverWritten: a manifest that does not load leaves no
// cache file, and fails exactly as Load does.
func TestCache_InvalidNeverWritten(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"version": 1, "cli": {"command": "x"}, "tools": [{"name": "a"}]}`), 0o600))
	c, _ := newCache(t, dir, "v1")
	_, err := c.Load(path)
	require.Error(t, err)
	_, want := Load(path)
	assert.Equal(t, want.Error(), err.Error())
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, ents)
}

// TestCache_ConcurrentStarts: servers starting at once, none with a cache
// file yet, all load the manifest, and what they leave is one whole file.
func TestCache_ConcurrentStarts(t *testing.T) {
	dir := t.TempDir()
	path := copyManifest(t, "../../examples/aeat.full.manifest.json")
	fresh, err := Load(path)
	require.NoError(t, err)
	var wg sync.WaitGroup
	got := make([]*Manifest, 8)
	for i := range got {
		wg.Go(func() {
			c := &Cache{Dir: dir, Version: "v1"}
			m, err := c.Load(path)
			assert.NoError(t, err)
			got[i] = m
		})
	}
	wg.Wait()
	for _, m := range got {
		// A start that came after another's file read it: compared once
		// its tools' detail is decoded (withPatterns).
		require.NotNil(t, m)
		assert.Equal(t, withPatterns(fresh), withPatterns(m))
	}
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, ents, 1, "temporary files left behind")
	assertFromCache(t, &Cache{Dir: dir, Version: "v1"}, path)
}

// TestCache_HitNeverHoldsTheManifest: a load from the cache hashes the
// manifest as it reads it and never holds its bytes — a manifest padded
// with 8 MiB of whitespace (the same manifest, the same cache file) costs
// a hit far less than 8 MiB of allocations. An edit made after a hit is
// still seen (TestCache_KeyedOnBytesAndVersion).
func TestCache_HitNeverHoldsTheManifest(t *testing.T) {
	data, err := os.ReadFile("../../examples/aeat.manifest.json")
	require.NoError(t, err)
	const pad = 8 << 20
	path := filepath.Join(t.TempDir(), "padded.json")
	require.NoError(t, os.WriteFile(path, append(data, bytes.Repeat([]byte(" "), pad)...), 0o600))
	c, log := newCache(t, t.TempDir(), "v1")
	_, err = c.Load(path)
	require.NoError(t, err)
	require.NotContains(t, log.String(), "came from the cache")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, err := c.Load(path)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Contains(t, log.String(), "the manifest came from the cache")
	require.NotEmpty(t, m.Tools)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(pad/4), "bytes allocated by a hit")
}

// cachedFull is the whole aeat read back from a warm cache c, and the
// path of the manifest.
func cachedFull(t *testing.T) (*Manifest, *Cache, string) {
	t.Helper()
	c, _ := newCache(t, t.TempDir(), "v1")
	path := copyManifest(t, "../../examples/aeat.full.manifest.json")
	_, err := c.Load(path)
	require.NoError(t, err)
	m, err := c.Load(path)
	require.NoError(t, err)
	assertFromCache(t, c, path)
	return m, c, path
}

// TestCache_DetailDecodedAtFirstUse: a start from the cache decodes no
// tool's params or CLI help; a tool's first use decodes its own alone,
// once, however many goroutines ask at once.
func TestCache_DetailDecodedAtFirstUse(t *testing.T) {
	m, _, _ := cachedFull(t)
	require.Greater(t, len(m.Tools), 250)
	assert.Zero(t, m.LateDecoded())
	for _, tool := range m.Tools {
		require.NotNil(t, tool.late, tool.Name)
		require.Nil(t, tool.detail.Params, tool.Name)
		require.Nil(t, tool.detail.CLIHelp, tool.Name)
	}
	a, b := m.Tools[0], m.Tools[len(m.Tools)-1]
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			tool := a
			if i%2 == 1 {
				tool = b
			}
			assert.NotEmpty(t, tool.Params())
			_, ok := tool.Param(tool.Params()[0].Name)
			assert.True(t, ok)
		})
	}
	wg.Wait()
	assert.Equal(t, 2, m.LateDecoded())
	assert.NotEmpty(t, a.CLIHelp())
	assert.Equal(t, 2, m.LateDecoded(), "the CLI's help came with the params")
	fresh, err := Load("../../examples/aeat.full.manifest.json")
	require.NoError(t, err)
	assert.Zero(t, fresh.LateDecoded())
}

// TestCache_LateSectionCorrupt: a tool's detail that fails to decode
// from a details part whose checksum holds (a file made to pass it) loads
// — never a panic, never params nobody checked — and removes the file, so
// that the next start loads the manifest afresh; the tool's detail is
// read from the manifest, whose bytes are still the start's, as a no-cache
// load reads it (TestDetail_ValidateSpoiledTool: refused when they are
// not). A tool used before is whole; one whose section is first read
// after the removal is built from the head (cache_listing.go), as a
// no-cache load builds it.
func TestCache_LateSectionCorrupt(t *testing.T) {
	_, c, path := cachedFull(t)
	file := filepath.Join(c.Dir, c.fileName(absPath(path)))
	spoilDetailInFile(t, file, 7)

	m, err := c.Load(path)
	require.NoError(t, err)
	require.NotNil(t, m.late, "the checksum holds: the start is a hit")
	victim, other := m.Tools[7], m.Tools[8]
	require.NoError(t, other.DetailErr())
	require.NoError(t, victim.DetailErr())
	fresh := loadFresh(t, c, path)
	assert.Equal(t, fresh.Tools[7].Params(), victim.Params())
	assert.Equal(t, fresh.Tools[7].CLIHelp(), victim.CLIHelp())
	_, ok := victim.Param(fresh.Tools[7].Params()[0].Name)
	assert.True(t, ok)
	assert.NoFileExists(t, file, "removed: the next start loads the manifest afresh")
	require.NoError(t, other.DetailErr())
	assert.NotEmpty(t, other.Params())
	later := m.Tools[9]
	require.NoError(t, later.DetailErr())
	assert.ErrorIs(t, later.listing.unread, fs.ErrNotExist)
	assertAsFresh(t, loadFresh(t, c, path).Tools[9], later)
}

// TestHashFile_AnySize: hashFile's SHA-256 is the file's whatever its
// size around its buffer's (the file's size, at most 64 KiB): empty, one
// byte, the curated manifest's size, 64 KiB and either side, larger.
func TestHashFile_AnySize(t *testing.T) {
	for _, n := range []int{0, 1, 11_000, 64<<10 - 1, 64 << 10, 64<<10 + 1, 200_000} {
		data := bytes.Repeat([]byte{0x5a}, n)
		for i := range data {
			data[i] ^= byte(i * 31)
		}
		path := filepath.Join(t.TempDir(), "m.json")
		require.NoError(t, os.WriteFile(path, data, 0o600))
		sum, err := hashFile(path)
		require.NoError(t, err)
		assert.Equal(t, sha256.Sum256(data), sum, "%d bytes", n)
	}
}
