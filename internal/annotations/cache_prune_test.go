package annotations

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aged writes a file in dir whose modification time is age ago.
func aged(t *testing.T, dir, name string, age time.Duration) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte("x"), 0o600))
	when := time.Now().Add(-age)
	require.NoError(t, os.Chtimes(path, when, when))
	return path
}

func modTime(t *testing.T, path string) time.Time {
	t.Helper()
	info, err := os.Stat(path)
	require.NoError(t, err)
	return info.ModTime()
}

// A cache write removes the files of manifests and builds nobody used for
// a month and the temporary files of writers that died, and nothing else.
func TestCache_PrunesWhatNobodyUses(t *testing.T) {
	dir := t.TempDir()
	month := 31 * 24 * time.Hour
	unused := aged(t, dir, "0123456789abcdef0123456789abcdef.cache", month)
	unusedStamp := aged(t, dir, "0123456789abcdef0123456789abcdef.cache.stat", month)
	recentStamp := aged(t, dir, "fedcba9876543210fedcba9876543210.cache.stat", 29*24*time.Hour)
	abandoned := aged(t, dir, ".manifest-123.tmp", 2*time.Hour)
	recent := aged(t, dir, "fedcba9876543210fedcba9876543210.cache", 29*24*time.Hour)
	writing := aged(t, dir, ".manifest-456.tmp", time.Minute)
	notOurs := aged(t, dir, "notes.txt", month)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "old.cache"), 0o700))

	c, log := newCache(t, dir, "v1")
	path := copyManifest(t, "../demo/demo.manifest.json")
	_, err := c.Load(path)
	require.NoError(t, err)
	assertFromCache(t, c, path)

	assert.NoFileExists(t, unused)
	assert.NoFileExists(t, abandoned)
	assert.NoFileExists(t, unusedStamp)
	for _, kept := range []string{recent, recentStamp, writing, notOurs} {
		assert.FileExists(t, kept)
	}
	assert.DirExists(t, filepath.Join(dir, "old.cache"))
	assert.Contains(t, log.String(), filepath.Base(unused))
}

// Reading a file marks it used, so a manifest served every day is never
// pruned however old its file — but a start-up renews the mark at most
// once a day, not at every read.
func TestCache_ReadMarksUsed(t *testing.T) {
	dir := t.TempDir()
	c, _ := newCache(t, dir, "v1")
	path := copyManifest(t, "../demo/demo.manifest.json")
	_, err := c.Load(path)
	require.NoError(t, err)
	_, abs, err := readManifest(path)
	require.NoError(t, err)
	file := filepath.Join(dir, c.fileName(abs))

	hoursAgo := time.Now().Add(-2 * time.Hour).Truncate(time.Second)
	require.NoError(t, os.Chtimes(file, hoursAgo, hoursAgo))
	_, err = c.Load(path)
	require.NoError(t, err)
	assert.True(t, modTime(t, file).Equal(hoursAgo), "a file marked today is marked again")

	monthsAgo := time.Now().Add(-60 * 24 * time.Hour)
	require.NoError(t, os.Chtimes(file, monthsAgo, monthsAgo))
	_, err = c.Load(path)
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), modTime(t, file), time.Hour, "a read did not mark the file used")

	// Another manifest's write prunes around it and keeps it.
	_, err = c.Load(copyManifest(t, "../../examples/aeat.manifest.json"))
	require.NoError(t, err)
	assertFromCache(t, c, path)
}
