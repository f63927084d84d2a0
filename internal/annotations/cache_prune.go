package annotations

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// # Keeping the cache small
//
// There is one cache file per manifest path and binary version, so every
// upgrade and every manifest moved or deleted leaves a file nobody reads
// again. A file is marked used when it is read (its modification time set
// to now, at most once a day, so a start-up pays a stat and not a write),
// and each time the cache writes a file it removes the files nobody has
// used for [cacheUnusedFor] — and the temporary files a writer killed
// mid-write left behind. A file removed too eagerly costs one slower
// start-up, never a wrong answer: the manifest is loaded afresh.

const (
	// cacheUnusedFor is how long a cache file nobody read is kept.
	cacheUnusedFor = 30 * 24 * time.Hour
	// cacheMarkEvery is how stale a file's mark may get before a read
	// renews it.
	cacheMarkEvery = 24 * time.Hour
	// cacheTempFor is how old a writer's temporary file must be to be
	// taken for abandoned: a live writer renames its own within
	// milliseconds.
	cacheTempFor = time.Hour
)

// markUsed records that file was just read, unless it was marked less
// than [cacheMarkEvery] ago. Failing to mark is harmless (a read-only
// cache directory): the file may be pruned and rebuilt one day.
func markUsed(file string, now time.Time) {
	info, err := os.Stat(file)
	if err != nil || now.Sub(info.ModTime()) < cacheMarkEvery {
		return
	}
	_ = os.Chtimes(file, now, now)
}

// pruneCache removes from dir the cache files unused for
// [cacheUnusedFor] and the temporary files abandoned for [cacheTempFor],
// except keep (the file just written). It removes only names the cache
// itself makes, and returns what it removed.
func pruneCache(dir, keep string, now time.Time) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		var maxAge time.Duration
		switch {
		case !e.Type().IsRegular():
			continue
		case strings.HasSuffix(name, ".cache"):
			maxAge = cacheUnusedFor
		case strings.HasSuffix(name, ".cache.stat"):
			// Written once, never marked: one pruned while its cache
			// file is in use costs one start a hash (cache_stamp.go).
			maxAge = cacheUnusedFor
		case strings.HasPrefix(name, ".manifest-") && strings.HasSuffix(name, ".tmp"):
			maxAge = cacheTempFor
		default:
			continue
		}
		path := filepath.Join(dir, name)
		if path == keep {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < maxAge {
			continue
		}
		if os.Remove(path) == nil {
			removed = append(removed, name)
		}
	}
	return removed
}
