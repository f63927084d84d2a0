package annotations

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"
	"unsafe"
)

// # The manifest cache
//
// Loading and validating a manifest of 300 tools costs tens of
// milliseconds (JSON decoded into a tree, every rule checked, every input
// schema encoded), and a host waits for it before initialize is answered.
// The result depends only on the manifest's bytes and on the binary that
// parsed them, so a [Cache] keeps it: one file per manifest path, holding
// the validated [Manifest] — its encoded input schemas included, the one
// expensive thing to rebuild, and each tool as the server lists it
// ([Cache.Listed]) — in a binary form decoded with encoding/binary varints
// and strings sliced from the file itself. A start reads the file's head
// and, of the tools' sections, those of the tools it lists
// (cache_listing.go); the tools' params and CLI help are in a part of
// their own, read at the first call (cache_details.go).
//
// What is read back is never trusted: the file must carry the same key
// (the manifest's SHA-256, the binary's version, the shape of the Go types
// it was written from), a CRC-32 of its head, one of each section and one
// of the details part, and decode exactly — each tool's params and CLI
// help at their first use, its schema and listing at its first listing;
// anything else — corrupt, truncated, foreign,
// unreadable — is logged (never on stdout) and the manifest is loaded
// afresh and the file rewritten. The manifest's SHA-256 is computed
// unless the manifest's stamp is the one recorded with it
// (cache_stamp.go). A file is written to a temporary name and renamed, so servers
// starting together never read a half-written one.
//
// The cache is an optimisation, never a dependency: a tool's section that
// cannot be read after the start — the file removed, another's renamed
// over it, a section failing its CRC — is built from the head the start
// checked and the tool's params, as a load without the cache builds it
// (sectionFromHead, cache_listing.go); params that cannot be read from
// the file are read from the manifest, if its bytes are still the start's
// (cache_details.go). Only a tool whose params neither gives (the
// manifest changed since the start) is refused: restart the server.

// Cache keeps validated manifests between runs. The zero Cache, or one
// with an empty Dir, keeps nothing: [Cache.Load] is then [Load].
type Cache struct {
	// Dir holds the cache files (DefaultCacheDir: the user's cache
	// directory). It is created when missing; if it cannot be, manifests
	// load as if there were no cache.
	Dir string
	// Version is the binary's version, part of the key: another build
	// never reads this one's file.
	Version string
	// Logger gets why a cache file was ignored or not written. If nil,
	// nothing is logged.
	Logger *slog.Logger
	// Listed, if set, is each tool as the server lists it: encoded when a
	// manifest is validated, kept in the file with its tool — the parts
	// around the tool's input schema, which the file holds already; a
	// listing without the schema as it is, not at all — and read back as
	// [Tool.ListedParts]: a start lists the tools without encoding them.
	// It must depend on the tool alone: Version keys the file, and one
	// binary lists a tool one way.
	Listed func(*Tool) []byte
}

// DefaultCacheDir is where the server keeps manifests: "aeat-mcp/manifests"
// in the user's cache directory (os.UserCacheDir: ~/Library/Caches on
// macOS, %LocalAppData% on Windows, $XDG_CACHE_HOME or ~/.cache
// elsewhere); "" when the system names none.
func DefaultCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "aeat-mcp", "manifests")
}

// cacheMagic opens every cache file; its last digit is the format's
// version.
const cacheMagic = "aeat-mcp manifest cache 6\n"

// errForeign marks a cache file written for other bytes, another binary
// or other Go types: expected after an edit or an upgrade, so not a
// warning.
var errForeign = errors.New("written for another manifest or another build")

// Load is [Load] through the cache: a manifest whose bytes this binary
// validated before is read back from Dir; any other is loaded afresh and,
// if it is valid, kept. An invalid manifest is never kept.
func (c *Cache) Load(path string) (*Manifest, error) {
	if c == nil || c.Dir == "" {
		data, abs, err := readManifest(path)
		if err != nil {
			return nil, err
		}
		return Parse(data, abs)
	}
	abs := absPath(path)
	file := filepath.Join(c.Dir, c.fileName(abs))
	// A manifest whose stamp is the one recorded with its hash is not
	// hashed again (cache_stamp.go); a file that does not then hold that
	// hash's manifest is read no further, and the manifest is hashed.
	if stamp, ok := openStamp(path); ok {
		if sum, ok := recordedSum(stampFile(file), stamp); ok {
			if m, err := readCache(file, c.keyOf(sum)); err == nil {
				return c.hit(m, file, abs, sum), nil
			}
		}
	}
	// A hit needs the manifest's hash, not its bytes: they are hashed as
	// they are read, a piece at a time (hashFile), and never held — at 300
	// tools, half a megabyte less on a start-up's heap. A file that cannot
	// be read is reported by readManifest below, as Load reports it.
	if sum, stamp, err := hashManifest(path); err == nil {
		m, err := readCache(file, c.keyOf(sum))
		switch {
		case err == nil:
			if stamp != nil {
				if err := recordStamp(c.Dir, stampFile(file), *stamp, sum); err != nil {
					c.log(slog.LevelDebug, "the manifest's stamp could not be recorded; the next start-up hashes it again", file, err)
				}
			}
			return c.hit(m, file, abs, sum), nil
		case errors.Is(err, fs.ErrNotExist):
		case errors.Is(err, errForeign):
			c.log(slog.LevelDebug, "the manifest cache is for another manifest or build; rebuilding it", file, err)
		default:
			c.log(slog.LevelWarn, "the manifest cache is unusable and was ignored; rebuilding it", file, err)
		}
	}
	data, abs, err := readManifest(path)
	if err != nil {
		return nil, err
	}
	// Keyed by the bytes parsed, hashed again: the file may have changed
	// since it was hashed above.
	key := c.key(data)
	m, err := Parse(data, abs)
	if err != nil {
		return nil, err
	}
	if c.Listed != nil {
		for _, t := range m.Tools {
			t.keepListed(c.Listed(t))
		}
	}
	if err := writeCache(c.Dir, file, key, m); err != nil {
		c.log(slog.LevelWarn, "the manifest cache could not be written; the next start-up loads the manifest again", file, err)
		return m, nil
	}
	for _, name := range pruneCache(c.Dir, file, time.Now()) {
		c.log(slog.LevelDebug, "removed a manifest cache file nobody used for a month", name, nil)
	}
	return m, nil
}

// hit is m, read from file for the manifest at abs whose SHA-256 is sum.
func (c *Cache) hit(m *Manifest, file, abs string, sum [sha256.Size]byte) *Manifest {
	m.Source = abs
	// What a tool's detail is read from when the file cannot be
	// (cache_details.go): these bytes, and only these.
	m.late.manifest, m.late.sum = abs, sum
	markUsed(file, time.Now())
	c.log(slog.LevelDebug, "the manifest came from the cache", file, nil)
	return m
}

func (c *Cache) log(level slog.Level, msg, file string, err error) {
	switch {
	case c.Logger == nil:
	case err == nil:
		c.Logger.Log(context.Background(), level, msg, "file", file)
	default:
		c.Logger.Log(context.Background(), level, msg, "file", file, "error", err)
	}
}

// key says what a cache file must have been written for: these bytes, this
// binary, these Go types.
func (c *Cache) key(data []byte) string { return c.keyOf(sha256.Sum256(data)) }

// keyOf is key of the bytes whose SHA-256 is sum.
func (c *Cache) keyOf(sum [sha256.Size]byte) string {
	return "manifest " + hex.EncodeToString(sum[:]) + "\nversion " + c.Version + "\ntypes " + typesFingerprint + "\n"
}

// hashFile is the SHA-256 of the file at path, read in pieces of at most
// 64 KiB: a buffer no bigger than the file (and one byte, to see its end
// in one read). A constant 64 KiB one went on the goroutine's stack (the
// compiler's limit for a make of constant size is 64 KiB), which a start
// grew and copied for it: 12–17 page faults for the curated manifest's
// 11 KB (BENCHMARKS.md, fifth round).
func hashFile(path string) ([sha256.Size]byte, error) {
	sum, _, err := hashStamped(path)
	return sum, err
}

// hashManifest is how Load hashes a manifest; a test counts the hashes.
var hashManifest = hashStamped

// hashStamped is hashFile, and the file's stamp (cache_stamp.go) if it
// had the same one before and after it was read and was settled when
// first read: a stamp that names the bytes hashed. nil if it moved, was
// too recent, or the system gives none.
func hashStamped(path string) (sum [sha256.Size]byte, stamp *fileStamp, err error) {
	f, err := os.Open(path)
	if err != nil {
		return sum, nil, err
	}
	defer f.Close()
	h := sha256.New()
	size := int64(64 << 10)
	statAt := stampNow() // before the stat: settledBy judges the stamp from here
	fi, statErr := f.Stat()
	if statErr == nil && fi.Size() < size {
		size = fi.Size() + 1
	}
	buf := make([]byte, size)
	for {
		n, err := f.Read(buf)
		h.Write(buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return sum, nil, err
		}
	}
	h.Sum(sum[:0])
	if statErr != nil {
		return sum, nil, nil
	}
	before, ok := stampOf(f, fi)
	if !ok || !before.settledBy(statAt) {
		return sum, nil, nil
	}
	if fi, err := f.Stat(); err == nil {
		if after, ok := stampOf(f, fi); ok && after == before {
			return sum, &after, nil
		}
	}
	return sum, nil, nil
}

// fileName is one file per manifest path and binary version: an edited
// manifest replaces its own entry instead of adding one.
func (c *Cache) fileName(abs string) string {
	sum := sha256.Sum256([]byte(abs + "\x00" + c.Version))
	return hex.EncodeToString(sum[:16]) + ".cache"
}

// readManifest reads path as Load does.
func readManifest(path string) ([]byte, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", &Error{Source: path, Problems: []Problem{{Msg: err.Error()}}}
	}
	return data, absPath(path), nil
}

// absPath is path made absolute, or path when it cannot be.
func absPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	return abs
}

// checksum is the CRC of a cache file's head and of each of its sections:
// CRC-32 with the IEEE polynomial (format 5; format 4 had CRC-32C). Both
// are hardware instructions on arm64; on amd64 hash/crc32 checks IEEE with
// CLMUL after building an 8 KB slicing table at its first use, but
// Castagnoli only after building its SSE4.2 tables — 1.28 M instructions,
// the largest single step of a start (BENCHMARKS.md), to check a 15 KB
// file; IEEE's first sum of 15 KB is 0.11 M (674 KB: 0.34 M against
// 1.45 M).
func checksum(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// readCache decodes file's head if it was written for key and the file
// is whole. The file is closed before it returns: each tool's listing,
// and the details part, stay in the file, read at their first use by
// opening it again
// (lateFile.open, cache_listing.go) — a file held open for the server's
// life would block, on Windows, the rename of a rewrite and the removal
// of a spoilt file.
func readCache(file, key string) (*Manifest, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readHead(f, key)
}

// readHead reads and decodes the head of the cache file f: the magic, the
// head's length, the head, and its CRC (file format, cache_listing.go).
func readHead(f *os.File, key string) (*Manifest, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	head, at, sum, err := readHeadBytes(f, size)
	if err != nil {
		return nil, err
	}
	// The strings of the manifest are slices of the head, which nothing
	// writes to after this: one buffer instead of a copy of it.
	s := unsafe.String(unsafe.SliceData(head), len(head))
	d := &decoder{s: s, i: at}
	if d.raw() != key {
		if d.err != nil {
			return nil, d.err
		}
		return nil, errForeign
	}
	d.readTable()
	lf := &lateFile{s: d.s, path: f.Name(), size: size, headSum: sum, patterns: map[string]*pattern{}}
	d.lateFile = lf
	m := &Manifest{}
	decManifest(d, m)
	end := d.readParts(m, int64(len(head))+4)
	if d.err == nil && d.i != len(d.s) {
		d.fail("bytes after the manifest")
	}
	if d.err == nil && end != size {
		d.fail("a file of %d bytes whose sections end at %d", size, end)
	}
	if d.err != nil {
		return nil, d.err
	}
	m.restore(lf)
	m.late = lf
	return m, nil
}

// readHeadBytes reads the head of a cache file of size bytes and checks
// its CRC: magic, length and head, without the CRC, where in it the head
// itself starts (after its length), and the CRC as the file has it.
func readHeadBytes(f io.ReaderAt, size int64) (head []byte, at int, sum []byte, err error) {
	var first [64]byte
	n, err := f.ReadAt(first[:], 0)
	if n < len(cacheMagic)+1 || string(first[:len(cacheMagic)]) != cacheMagic {
		switch {
		case err != nil && err != io.EOF:
			return nil, 0, nil, err
		case n >= len(cacheMagic) && string(first[:len(cacheMagic)-2]) == cacheMagic[:len(cacheMagic)-2]:
			// Another format's (an older or newer build's): expected.
			return nil, 0, nil, fmt.Errorf("format %q: %w", first[len(cacheMagic)-2], errForeign)
		}
		return nil, 0, nil, errors.New("not a manifest cache file")
	}
	length, k := binary.Uvarint(first[len(cacheMagic):n])
	if k <= 0 || length > uint64(size) {
		return nil, 0, nil, errors.New("a head longer than the file (truncated or corrupt)")
	}
	at = len(cacheMagic) + k
	headEnd := int64(at) + int64(length)
	if headEnd+4 > size {
		return nil, 0, nil, errors.New("a head longer than the file (truncated or corrupt)")
	}
	// The bytes read first are the head's first: only the rest is read.
	buf := make([]byte, headEnd+4)
	if got := copy(buf, first[:n]); got < len(buf) {
		if _, err := f.ReadAt(buf[got:], int64(got)); err != nil {
			return nil, 0, nil, err
		}
	}
	head, sum = buf[:headEnd], buf[headEnd:]
	if checksum(head) != binary.LittleEndian.Uint32(sum) {
		return nil, 0, nil, errors.New("checksum mismatch (truncated or corrupt)")
	}
	return head, at, sum, nil
}

// keepListed keeps listing, the tool as a server lists it, as the parts
// around the tool's input schema; a listing that does not hold the schema
// as it is, or holds nothing around it, is not kept.
func (t *Tool) keepListed(listing []byte) {
	i := bytes.Index(listing, t.schemaJSON)
	if len(t.schemaJSON) == 0 || i <= 0 || i+len(t.schemaJSON) == len(listing) {
		return
	}
	t.listedHead, t.listedTail = listing[:i], listing[i+len(t.schemaJSON):]
}

// restore rebuilds what a decoded manifest does not carry: each tool's
// link to its cli, and the cli's patterns (compiled at their first use;
// the tools' own are restored with their detail, lateDetail.decode).
func (m *Manifest) restore(f *lateFile) {
	f.share(m.CLI.Params)
	for _, t := range m.Tools {
		t.cli = &m.CLI
	}
}

// writeCache keeps m as file, atomically: a temporary file in dir, then
// a rename over file.
func writeCache(dir, file, key string, m *Manifest) error {
	out, err := encodeCache(key, m)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := writeAtomic(dir, file, out); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	return nil
}

// writeAtomic writes data as path through a temporary file in dir (path's
// own folder) renamed over it, so a start that reads path concurrently
// sees the old bytes or the new, never half of them.
func writeAtomic(dir, path string, data []byte) error {
	tmp, err := os.CreateTemp(dir, ".manifest-*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
