package annotations

import (
	"bytes"
	"encoding/binary"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headEnd is where the head of the cache file raw ends: its CRC follows
// (cache_listing.go).
func headEnd(raw []byte) int {
	n, k := binary.Uvarint(raw[len(cacheMagic):])
	return len(cacheMagic) + k + int(n)
}

// resumHead makes the head's CRC of raw hold again: a file made to pass
// it. A no-op when the head's length no longer fits the file.
func resumHead(raw []byte) {
	if end := headEnd(raw); end > 0 && end+4 <= len(raw) {
		binary.LittleEndian.PutUint32(raw[end:], checksum(raw[:end]))
	}
}

// resumSection makes the CRC of the section [off, off+n) of raw hold
// again.
func resumSection(raw []byte, off int64, n int) {
	end := int(off) + n - 4
	binary.LittleEndian.PutUint32(raw[end:], checksum(raw[off:end]))
}

// TestCache_StartReadsOnlyItsListings: a start from the cache reads no
// tool's section; listing a tool reads its own alone, once, however many
// goroutines ask — a server that lists 5 of 300 tools reads 5 sections.
func TestCache_StartReadsOnlyItsListings(t *testing.T) {
	m, c, path := cachedFull(t)
	require.Greater(t, len(m.Tools), 250)
	assert.Zero(t, m.late.listed.Load())
	fresh := loadFresh(t, c, path)
	for i := range 5 {
		for range 3 {
			head, tail := m.Tools[i].ListedParts()
			wantHead, wantTail := fresh.Tools[i].ListedParts()
			assert.Equal(t, wantHead, head)
			assert.Equal(t, wantTail, tail)
			assert.Equal(t, fresh.Tools[i].InputSchemaJSON(), m.Tools[i].InputSchemaJSON())
		}
	}
	assert.EqualValues(t, 5, m.late.listed.Load())
	ReadListings(m.Tools[:3]) // read already: none again
	assert.EqualValues(t, 5, m.late.listed.Load())
	ReadListings([]*Tool{m.Tools[10], m.Tools[200]}) // spread: one read each, one open
	assert.EqualValues(t, 7, m.late.listed.Load())
	ReadListings(m.Tools)
	assert.Equal(t, len(m.Tools), m.LateListed())
	for i, tool := range m.Tools {
		require.NoError(t, tool.DetailErr())
		assert.Equal(t, fresh.Tools[i].InputSchemaJSON(), tool.InputSchemaJSON())
	}
	assert.FileExists(t, filepath.Join(c.Dir, c.fileName(absPath(path))))
}

// TestCache_SectionCorrupt: a tool's section spoilt after the start
// (corrupt, or the file truncated in place) is never trusted — never a
// panic, nor a SIGBUS (the file is read, not mapped): the tool is built
// from the head the start checked, its schema and listing byte for byte a
// no-cache load's, and the file is removed, so that the next start loads
// the manifest afresh. A tool read before is as read; one first read
// after the removal is built from the head too.
func TestCache_SectionCorrupt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T, file string, victim *Tool)
		why   string
	}{
		{"corrupt", func(t *testing.T, file string, victim *Tool) {
			f, err := os.OpenFile(file, os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.WriteAt([]byte{0xff, 0x00, 0x55}, victim.listing.off+int64(victim.listing.n/2))
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}, "checksum"},
		{"truncated-in-place", func(t *testing.T, file string, victim *Tool) {
			require.NoError(t, os.Truncate(file, victim.listing.off+2))
		}, "truncated"},
	} {
		for _, batch := range []bool{false, true} {
			name := tc.name
			if batch {
				name += "-ReadListings"
			}
			t.Run(name, func(t *testing.T) { sectionCorrupt(t, tc.spoil, tc.why, batch) })
		}
	}
}

// sectionCorrupt is a case of TestCache_SectionCorrupt: the last tool's
// section spoilt by spoil after the start, the sections read one by one
// or at once (ReadListings).
func sectionCorrupt(t *testing.T, spoil func(t *testing.T, file string, victim *Tool), why string, batch bool) {
	m, c, path := cachedFull(t)
	file := filepath.Join(c.Dir, c.fileName(absPath(path)))
	victim, other, later := m.Tools[len(m.Tools)-1], m.Tools[0], m.Tools[1]
	require.NoError(t, other.DetailErr()) // read before the spoil
	spoil(t, file, victim)
	if batch {
		ReadListings(m.Tools)
		assert.Equal(t, len(m.Tools), m.LateListed())
	}

	fresh := loadFresh(t, c, path)
	require.NoError(t, victim.DetailErr())
	require.Error(t, victim.listing.unread, "built from the head")
	assert.Contains(t, victim.listing.unread.Error(), why)
	assertAsFresh(t, fresh.Tools[len(m.Tools)-1], victim)
	_, err := victim.Validate([]byte(`{"no_such_argument":1}`))
	require.Error(t, err, "its arguments checked as ever")
	assert.NoFileExists(t, file, "removed: the next start loads the manifest afresh")
	require.NoError(t, other.DetailErr())
	assert.NoError(t, other.listing.unread, "read before the spoil")
	assertAsFresh(t, fresh.Tools[0], other)
	require.NoError(t, later.DetailErr())
	if !batch {
		assert.ErrorIs(t, later.listing.unread, fs.ErrNotExist, "the file is gone: built from the head")
	}
	assertAsFresh(t, fresh.Tools[1], later)

	again, err := c.Load(path)
	require.NoError(t, err)
	assert.Nil(t, again.late, "loaded afresh")
	require.NoError(t, again.Tools[len(again.Tools)-1].DetailErr())
}

// TestCache_DecoderNeverPanics: a file cut anywhere is an error at the
// start; a file whose head, or whose tool's section, is altered anywhere
// and its checksum made to hold is an error, a tool refused, or (rarely)
// another valid manifest — never a panic.
func TestCache_DecoderNeverPanics(t *testing.T) {
	dir := t.TempDir()
	path := copyManifest(t, "../../examples/aeat.manifest.json")
	c := &Cache{Dir: dir, Version: "v1", Listed: testListed}
	_, err := c.Load(path)
	require.NoError(t, err)
	data, abs, _ := readManifest(path)
	file := filepath.Join(dir, c.fileName(abs))
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	whole, err := readCache(file, c.key(data))
	require.NoError(t, err)
	step := max(1, len(raw)/400)
	for cut := 0; cut < len(raw); cut += step {
		require.NoError(t, os.WriteFile(file, raw[:cut], 0o600))
		_, err := readCache(file, c.key(data))
		require.Error(t, err, "cut at %d", cut)
	}
	// try writes spoilt and uses every tool as a call and a listing.
	failed := 0
	try := func(spoilt []byte, at int, b byte) {
		require.NoError(t, os.WriteFile(file, spoilt, 0o600))
		m, err := readCache(file, c.key(data))
		if err != nil {
			return
		}
		for _, tool := range m.Tools {
			require.NotPanics(t, func() { useAsACall(tool) }, "byte %d = %#x, tool %s", at, b, tool.Name)
			if tool.DetailErr() != nil || tool.listing.unread != nil {
				failed++
			}
		}
	}
	end := headEnd(raw)
	for at := len(cacheMagic); at < end; at += max(1, end/300) {
		for _, b := range []byte{0x00, 0xff, 0x80, 0x01} {
			spoilt := bytes.Clone(raw)
			spoilt[at] = b
			resumHead(spoilt)
			try(spoilt, at, b)
		}
	}
	headFailed := failed
	parts := whole.late
	for at := parts.detailsOff; at < parts.detailsOff+int64(parts.detailsN)-4; at += max(1, int64(parts.detailsN)/200) {
		for _, b := range []byte{0x00, 0xff, 0x80, 0x01} {
			spoilt := bytes.Clone(raw)
			spoilt[at] = b
			resumDetails(spoilt, parts, checksum)
			try(spoilt, int(at), b)
		}
	}
	assert.Positive(t, failed-headFailed, "some tool's detail was spoilt past the start")
	headFailed = failed
	for _, tool := range whole.Tools {
		l := tool.listing
		for at := l.off; at < l.off+int64(l.n)-4; at += max(1, int64(l.n)/8) {
			for _, b := range []byte{0x00, 0xff, 0x80} {
				spoilt := bytes.Clone(raw)
				spoilt[at] = b
				resumSection(spoilt, l.off, l.n)
				try(spoilt, int(at), b)
			}
		}
	}
	assert.Positive(t, failed-headFailed, "some tool's section was spoilt past the start")
	assert.True(t, strings.HasPrefix(string(raw), cacheMagic))
}

// openFiles is how many of this process's open files are path (Linux's
// /proc/self/fd); -1 where it cannot be told.
func openFiles(t *testing.T, path string) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	n := 0
	for _, e := range entries {
		if to, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && to == path {
			n++
		}
	}
	return n
}

// TestCache_FileClosedAfterStart: the cache file is not held open — not
// after the start, not after a listing, not after the details part was
// read (on Windows an open file blocks the rename of a rewrite and the
// removal of a spoilt one). A tool's section
// read later opens the file again: from the same bytes renamed over it,
// it is read; with another cache renamed over it (another manifest's), or
// with the file gone, the tool is built from the head the start checked,
// byte for byte a no-cache load's — never foreign bytes, never a panic —
// and the other's file is left alone.
func TestCache_FileClosedAfterStart(t *testing.T) {
	m, c, path := cachedFull(t)
	file := filepath.Join(c.Dir, c.fileName(absPath(path)))
	if openFiles(t, file) < 0 {
		t.Skip("no /proc/self/fd to count open files")
	}
	assert.Zero(t, openFiles(t, file), "open after the start")
	ReadListings(m.Tools[:3])
	m.Tools[3].InputSchemaJSON()
	assert.EqualValues(t, 4, m.LateListed())
	assert.Zero(t, openFiles(t, file), "open after a listing")
	assert.NotEmpty(t, m.Tools[0].Params())
	assert.Zero(t, openFiles(t, file), "open after the details part was read")
	fresh := loadFresh(t, c, path)

	// The same bytes renamed over it: the same file.
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file+".tmp", raw, 0o600))
	require.NoError(t, os.Rename(file+".tmp", file))
	require.NoError(t, m.Tools[4].DetailErr())
	assert.Equal(t, fresh.Tools[4].InputSchemaJSON(), m.Tools[4].InputSchemaJSON())

	// Another manifest's cache renamed over it: built from the head; the
	// other's file is not removed.
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, append(data, '\n'), 0o600))
	_, err = c.Load(path) // rewrites file for the new bytes
	require.NoError(t, err)
	require.NotEqual(t, raw, mustRead(t, file))
	require.NoError(t, m.Tools[5].DetailErr())
	assert.ErrorIs(t, m.Tools[5].listing.unread, errReplaced)
	assertAsFresh(t, fresh.Tools[5], m.Tools[5])
	assert.FileExists(t, file, "another's file, left alone")
	ReadListings(m.Tools)
	for i, tool := range m.Tools[6:] {
		require.NoError(t, tool.DetailErr(), "tool %d", i+6)
		assert.ErrorIs(t, tool.listing.unread, errReplaced, "tool %d", i+6)
		assertAsFresh(t, fresh.Tools[i+6], tool)
	}
	for i, tool := range m.Tools[:5] {
		require.NoError(t, tool.DetailErr(), "tool %d, read before", i)
		assert.NoError(t, tool.listing.unread, "tool %d, read before", i)
		assertAsFresh(t, fresh.Tools[i], tool)
	}
	assert.FileExists(t, file, "another's file, left alone")

	// The file gone: built from the head.
	m, c, path = cachedFull(t)
	file = filepath.Join(c.Dir, c.fileName(absPath(path)))
	require.NoError(t, os.Remove(file))
	require.NoError(t, m.Tools[0].DetailErr())
	assert.ErrorIs(t, m.Tools[0].listing.unread, fs.ErrNotExist)
	assertAsFresh(t, fresh.Tools[0], m.Tools[0])
	assert.Zero(t, openFiles(t, file))
}

func mustRead(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	return b
}

// listedAs is tool's tools/list entry as a server lists it with testListed
// as Cache.Listed: the parts the cache kept around its schema, else the
// tool encoded (what server.listedJSON does).
func listedAs(tool *Tool) string {
	if head, tail := tool.ListedParts(); head != nil {
		return string(head) + string(tool.InputSchemaJSON()) + string(tail)
	}
	return string(testListed(tool))
}

// assertAsFresh: got's schema and tools/list entry are, byte for byte,
// those of want, the same tool loaded without the cache.
func assertAsFresh(t *testing.T, want, got *Tool) {
	t.Helper()
	assert.Equal(t, string(want.InputSchemaJSON()), string(got.InputSchemaJSON()), "%s's schema", want.Name)
	assert.Equal(t, listedAs(want), listedAs(got), "%s's listing", want.Name)
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r io.ReaderAt
	n int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	return n, err
}

// TestCache_HeadReadOnce: a start reads each byte of the cache file's
// head once — the first bytes, read to learn the head's length, are the
// head's first, not read again (they were: 64 bytes more) — and is told
// where the head itself starts, after its length, not to decode the
// length again.
func TestCache_HeadReadOnce(t *testing.T) {
	for _, path := range cacheManifests {
		t.Run(filepath.Base(path), func(t *testing.T) {
			c, _ := newCache(t, t.TempDir(), "v1")
			path := copyManifest(t, path)
			loadTwice(t, c, path)
			_, abs, err := readManifest(path)
			require.NoError(t, err)
			f, err := os.Open(filepath.Join(c.Dir, c.fileName(abs)))
			require.NoError(t, err)
			defer f.Close()
			fi, err := f.Stat()
			require.NoError(t, err)
			r := &countingReaderAt{r: f}
			head, at, sum, err := readHeadBytes(r, fi.Size())
			require.NoError(t, err)
			assert.Len(t, sum, 4)
			assert.Equal(t, int64(len(head)+len(sum)), r.n, "bytes read for a head of %d", len(head))
			length, k := binary.Uvarint(head[len(cacheMagic):])
			assert.Equal(t, len(cacheMagic)+k, at)
			assert.Equal(t, len(head), at+int(length))
		})
	}
}
