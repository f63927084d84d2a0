//go:build linux

package annotations

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stampedCache is a cache of a fresh copy of the package's aeat manifest,
// its stamp recorded (the clock moved a minute on, so that the copy's
// change time is settled): the copy, the cache, and a count of the
// hashes Load makes from here on.
func stampedCache(t *testing.T) (string, *Cache, *int) {
	t.Helper()
	path := copyManifest(t, "testdata/manifests/aeat.manifest.json")
	c, _ := newCache(t, t.TempDir(), "v1")
	stampNow = func() time.Time { return time.Now().Add(time.Minute) }
	hashes := 0
	hashManifest = func(path string) ([sha256.Size]byte, *fileStamp, error) {
		hashes++
		return hashStamped(path)
	}
	t.Cleanup(func() { stampNow, hashManifest = time.Now, hashStamped })
	for range 2 { // the first builds the cache file, the second hashes and records
		_, err := c.Load(path)
		require.NoError(t, err)
	}
	require.FileExists(t, stampFile(filepath.Join(c.Dir, c.fileName(path))))
	hashes = 0
	return path, c, &hashes
}

// sameSizeEdit is data with the first tool's title changed, a letter's
// case swapped: the same size. It returns the new title too.
func sameSizeEdit(t *testing.T, data []byte) ([]byte, string) {
	t.Helper()
	m, err := Parse(data, "x.json")
	require.NoError(t, err)
	old := `"` + m.Tools[0].Title + `"`
	i := strings.IndexAny(old, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
	require.Positive(t, i)
	swapped := old[:i] + string(old[i]^0x20) + old[i+1:]
	edited := strings.Replace(string(data), old, swapped, 1)
	require.NotEqual(t, string(data), edited)
	require.Len(t, edited, len(data))
	return []byte(edited), swapped[1 : len(swapped)-1]
}

// TestCache_StampSkipsTheHash: a manifest whose stamp is the recorded one
// is not hashed, and loads as it did.
func TestCache_StampSkipsTheHash(t *testing.T) {
	path, c, hashes := stampedCache(t)
	m, err := c.Load(path)
	require.NoError(t, err)
	assert.Equal(t, 0, *hashes, "hashed although its stamp was recorded")
	assert.Equal(t, loadFresh(t, c, path).Tools[0].Title, m.Tools[0].Title)
}

// TestCache_StampCatchesAnEdit: a manifest changed in any way is hashed
// again and loads as it now is — edited in place with the same size and
// its modification time put back (the change time moves), or replaced by
// a file of the same size and modification time (another inode).
func TestCache_StampCatchesAnEdit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replace func(t *testing.T, path string, data []byte)
	}{
		{"in place", func(t *testing.T, path string, data []byte) {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.WriteAt(data, 0)
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}},
		{"renamed over", func(t *testing.T, path string, data []byte) {
			tmp := path + ".new"
			require.NoError(t, os.WriteFile(tmp, data, 0o600))
			require.NoError(t, os.Rename(tmp, path))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, c, hashes := stampedCache(t)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			before, err := os.Stat(path)
			require.NoError(t, err)
			edited, title := sameSizeEdit(t, data)
			tc.replace(t, path, edited)
			require.NoError(t, os.Chtimes(path, before.ModTime(), before.ModTime()))
			after, err := os.Stat(path)
			require.NoError(t, err)
			require.Equal(t, before.Size(), after.Size())
			require.Equal(t, before.ModTime(), after.ModTime())
			if after.Sys().(*syscall.Stat_t).Ctim == before.Sys().(*syscall.Stat_t).Ctim {
				// Only a clock that did not tick since the copy was
				// written: Load would not have recorded that stamp
				// (stampSettle), so there is nothing to test.
				t.Skip("the file system's change time did not move")
			}

			m, err := c.Load(path)
			require.NoError(t, err)
			assert.Equal(t, 1, *hashes, "not hashed after an edit")
			assert.Equal(t, title, m.Tools[0].Title, "the manifest before the edit")
		})
	}
}

// TestCache_StampNotRecordedWhenRecent: a manifest changed within
// stampSettle of the clock is hashed at every start: a second change in
// the same tick of its change time would not move its stamp.
func TestCache_StampNotRecordedWhenRecent(t *testing.T) {
	path := copyManifest(t, "testdata/manifests/aeat.manifest.json")
	c, _ := newCache(t, t.TempDir(), "v1")
	for range 3 {
		_, err := c.Load(path)
		require.NoError(t, err)
	}
	assert.NoFileExists(t, stampFile(filepath.Join(c.Dir, c.fileName(path))))
}

// TestCache_StampFileSpoilt: a stamp file that is cut short, fails its
// CRC or is another format's is ignored: the manifest is hashed, loads as
// it is, and its stamp is recorded again.
func TestCache_StampFileSpoilt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func([]byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)-3] }},
		{"a byte flipped", func(b []byte) []byte { b[len(stampMagic)+3] ^= 1; return b }},
		{"another format", func(b []byte) []byte { b[len(stampMagic)-2]++; return b }},
		{"empty", func([]byte) []byte { return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, c, hashes := stampedCache(t)
			sf := stampFile(filepath.Join(c.Dir, c.fileName(path)))
			good, err := os.ReadFile(sf)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(sf, tc.spoil(append([]byte(nil), good...)), 0o600))

			m, err := c.Load(path)
			require.NoError(t, err)
			assert.Equal(t, 1, *hashes)
			assert.Equal(t, loadFresh(t, c, path).Tools[0].Title, m.Tools[0].Title)
			again, err := os.ReadFile(sf)
			require.NoError(t, err)
			assert.Equal(t, good, again, "the stamp not recorded again")
		})
	}
}

// TestStamp_OnlyWhereTheChangeTimeIsKept: a file on a file system whose
// change time the kernel keeps (the test's temporary folder: ext4, xfs,
// btrfs or tmpfs on the machines it runs on) has a stamp; one on a file
// system not in changeTimeKept's list — procfs here, as FAT, exFAT or
// FUSE would be — has none, and its manifest is hashed at every start.
func TestStamp_OnlyWhereTheChangeTimeIsKept(t *testing.T) {
	stamp := func(path string) bool {
		f, err := os.Open(path)
		require.NoError(t, err)
		defer f.Close()
		fi, err := f.Stat()
		require.NoError(t, err)
		_, ok := stampOf(f, fi)
		return ok
	}
	local := filepath.Join(t.TempDir(), "m.json")
	require.NoError(t, os.WriteFile(local, []byte("{}"), 0o600))
	var sfs syscall.Statfs_t
	require.NoError(t, syscall.Statfs(local, &sfs))
	assert.True(t, stamp(local), "a file on the test's folder (file system magic %#x)", uint32(sfs.Type))
	assert.False(t, stamp("/proc/self/status"), "procfs keeps no change time of its own")
}
