package annotations

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync/atomic"
	"unsafe"
)

// # The file's sections
//
// A start needs every tool's name, hints and the like, but the schema and
// listing only of the tools it lists: five on --surface catalog, of the
// whole aeat's 300; and no tool's params or CLI help. So a cache file is a
// head, read at the start, one section per tool after it, read at the
// tool's first listing, and the details part, read at the first call:
//
//	magic
//	uvarint length of the head, then the head: the key, the string
//	  table, the manifest (without its tools' details, detail.go), then
//	  each tool's section length, then the details part's length
//	CRC-32 (checksum) of everything before it (4 bytes, little-endian)
//	each tool's section, in the tools' order: its schema, listing head
//	  and listing tail (each a length and bytes), then a CRC-32 of them
//	the details part: every tool's params and CLI help, with its own
//	  string table and CRC-32, read at the first call (cache_details.go)
//
// The start checks the head's CRC and that the sections and the details
// part end where the file does, and closes the file; a server's first listing opens it again and
// reads the sections it lists, then closes it; a tool first listed or
// called later opens it for its own section. Each open checks the file is
// the one the start read — its size, and its head's CRC, which covers
// the key and every section's length — and a section's CRC is checked
// when the section is read. Nothing of a section that fails is served:
// the tool is built instead from the head the start checked — its schema
// encoded from its params, as Parse encodes it, its listing left to the
// server, which encodes it as it did for the section (sectionFromHead) —
// byte for byte what a load without the cache serves. A file is not a
// dependency: another server rewrites it after the manifest is edited (its
// name is the manifest's path and the binary's version), and a user may
// delete the directory. A file spoilt since the start (truncated, grown or
// corrupt in place) is removed, so that the next start loads the manifest
// afresh, and nothing more is read from it; a file replaced since
// (another server's rewrite renamed over it) is another's, left alone.
// Only a tool whose params can be read neither from the file nor from the
// manifest (cache_details.go) is refused (DetailErr) and listed with an
// empty object schema.

// spoiltSchema is the schema a tool is listed with when its section
// failed and it could not be built from the head either: an object, as
// every tool's is; its calls are refused anyway.
var spoiltSchema = []byte(`{"type":"object"}`)

// errReplaced is why a tool's section is not read from a cache file
// whose head is no longer the one the start read.
var errReplaced = errors.New("the file was replaced since the start")

// lateListing is one tool's section still in the file: [off, off+n).
type lateListing struct {
	f   *lateFile
	off int64
	n   int
	// unread is why the section was not read, its tool built from the
	// head instead (sectionFromHead); err, why that failed too: the tool
	// is refused. Both set by read, read after it (Tool.listOnce).
	unread, err error
	// done is set once the section is read: ReadListings reads no
	// section twice.
	done atomic.Bool
}

// encodeCache is the cache file of m, written for key.
func encodeCache(key string, m *Manifest) ([]byte, error) {
	e := &encoder{maps: map[string]uint64{}}
	if err := encManifest(e, m); err != nil {
		return nil, err
	}
	details, err := encodeDetails(m)
	if err != nil {
		return nil, err
	}
	sections := make([]byte, 0, 512<<10)
	for _, t := range m.Tools {
		start := len(sections)
		for _, part := range [][]byte{t.schemaJSON, t.listedHead, t.listedTail} {
			sections = binary.AppendUvarint(sections, uint64(len(part)))
			sections = append(sections, part...)
		}
		sections = binary.LittleEndian.AppendUint32(sections, checksum(sections[start:]))
		e.uvarint(uint64(len(sections) - start))
	}
	e.uvarint(uint64(len(details)))
	head := binary.AppendUvarint(nil, uint64(len(key)))
	head = append(head, key...)
	head = e.table(head)
	head = append(head, e.b...)
	out := make([]byte, 0, len(cacheMagic)+binary.MaxVarintLen64+len(head)+4+len(sections)+len(details))
	out = append(out, cacheMagic...)
	out = binary.AppendUvarint(out, uint64(len(head)))
	out = append(out, head...)
	out = binary.LittleEndian.AppendUint32(out, checksum(out))
	out = append(out, sections...)
	return append(out, details...), nil
}

// readParts reads each tool's section length, the sections starting at
// off, and the details part's length (cache_details.go), which follows
// them, and returns where the part ends.
func (d *decoder) readParts(m *Manifest, off int64) int64 {
	off = d.readListings(m, off)
	n := d.uvarint()
	if n < 1+4 || n > 1<<30 {
		d.fail("a details part of %d bytes", n)
	}
	d.lateFile.detailsOff, d.lateFile.detailsN = off, int(n)
	return off + int64(n)
}

// readListings reads each tool's section length, the sections starting at
// off, and returns where they end.
func (d *decoder) readListings(m *Manifest, off int64) int64 {
	for _, t := range m.Tools {
		if t == nil {
			d.fail("a nil tool")
			break
		}
		n := d.uvarint()
		if n < 3+4 || n > 1<<30 {
			d.fail("a tool's section of %d bytes", n)
			break
		}
		t.listing = &lateListing{f: d.lateFile, off: off, n: int(n)}
		off += int64(n)
	}
	return off
}

// listed reads the tool's section at the first call (safe from any number
// of goroutines at once).
func (t *Tool) listed() {
	if t.listing != nil {
		t.listOnce.Do(func() { t.listing.read(t) })
	}
}

// read fills t's schema and listing from its section.
func (l *lateListing) read(t *Tool) {
	file, err := l.f.open()
	if err != nil {
		l.fill(t, nil, err)
		return
	}
	defer file.Close()
	l.readFrom(file, t)
}

// readFrom fills t's schema and listing from its section in file.
func (l *lateListing) readFrom(file *os.File, t *Tool) {
	buf := make([]byte, l.n)
	_, err := file.ReadAt(buf, l.off)
	l.fill(t, buf, err)
}

// open opens the cache file again for a read of its sections, and checks
// it is the file the start read: the same head's CRC (else errReplaced),
// the same size. It is read with ReadAt, never mapped: a file truncated
// in place after this is a short read, not a SIGBUS.
func (f *lateFile) open() (*os.File, error) {
	file, err := os.Open(f.path)
	if err != nil {
		return nil, err
	}
	var sum [4]byte
	_, err = file.ReadAt(sum[:], int64(len(f.s)))
	var fi os.FileInfo
	switch {
	case err != nil:
		err = fmt.Errorf("its head's checksum: %w (truncated?)", err)
	case string(sum[:]) != string(f.headSum):
		err = errReplaced
	default:
		if fi, err = file.Stat(); err == nil && fi.Size() != f.size {
			err = fmt.Errorf("a file of %d bytes, %d at the start (truncated or grown in place)", fi.Size(), f.size)
		}
	}
	if err != nil {
		file.Close()
		return nil, err
	}
	return file, nil
}

// fill sets t's schema and listing from buf, its section as read with
// the error readErr.
func (l *lateListing) fill(t *Tool, buf []byte, readErr error) {
	l.done.Store(true)
	l.f.listed.Add(1)
	err := readErr
	if err != nil {
		err = fmt.Errorf("a tool's section: %w (truncated?)", err)
	} else {
		err = checkSection(buf)
	}
	if err == nil {
		err = t.decodeListing(buf)
	}
	if err == nil {
		return
	}
	err = l.f.spoilt(err)
	l.unread = err
	if berr := t.sectionFromHead(); berr != nil {
		l.err = fmt.Errorf("%w; nor could it be built from the manifest: %w", err, berr)
		t.schemaJSON, t.listedHead, t.listedTail = spoiltSchema, nil, nil
	}
}

// spoilt is err, why a part of the file could not be read, naming the
// file, which it removes unless it is gone or another's (errReplaced):
// the next start loads the manifest afresh.
func (f *lateFile) spoilt(err error) error {
	err = fmt.Errorf("the manifest cache %s: %w", f.path, err)
	if !errors.Is(err, errReplaced) && !errors.Is(err, fs.ErrNotExist) {
		os.Remove(f.path)
	}
	return err
}

// sectionFromHead makes what t's section holds from the head the start
// checked, by the code that made it when the file was written: the schema
// by encodeSchema (Tool.setSchema, as Parse builds it) from the tool's
// params (its detail: from the details part, or from the manifest when
// that cannot be read, cache_details.go). The listing is left to the
// server (ListedParts nil), which encodes the tool
// itself with what it gives as Cache.Listed (server.ListedJSON), the code
// that made the section's listing: calling it from here would read the
// tool's schema through listed() again, inside its own once. It fails
// only when the params cannot be read either.
func (t *Tool) sectionFromHead() error {
	t.details()
	if t.late != nil && t.late.err != nil {
		return t.late.err
	}
	t.listedHead, t.listedTail = nil, nil
	return t.setSchema()
}

// checkSection checks a section's CRC.
func checkSection(buf []byte) error {
	body := buf[:len(buf)-4]
	if checksum(body) != binary.LittleEndian.Uint32(buf[len(body):]) {
		return errors.New("a tool's section fails its checksum (truncated or corrupt)")
	}
	return nil
}

// ReadListings reads the schema and listing of each of tools not read
// yet, as their first use would, but through one open of the file, and in
// one read when they fill most of the file's sections they span: a server
// lists its tools at once, and the whole aeat's 300 sections are one read
// instead of 300.
func ReadListings(tools []*Tool) {
	f, lo, hi, want := unread(tools)
	if f == nil {
		return
	}
	file, err := f.open()
	if err != nil {
		fillAll(tools, f, nil, 0, err)
		return
	}
	defer file.Close()
	if want*2 < hi-lo { // few, and spread: one read each
		for _, t := range tools {
			if l := t.listing; l != nil && l.f == f && !l.done.Load() {
				t.listOnce.Do(func() { l.readFrom(file, t) })
			}
		}
		return
	}
	buf := make([]byte, hi-lo)
	n, err := file.ReadAt(buf, lo)
	fillAll(tools, f, buf[:n], lo, err)
}

// unread is the file of the first of tools whose section is not read
// yet, and of those in that file, the span [lo, hi) of the file and the
// bytes want they are.
func unread(tools []*Tool) (f *lateFile, lo, hi, want int64) {
	lo = -1
	for _, t := range tools {
		l := t.listing
		if l == nil || l.done.Load() || (f != nil && l.f != f) {
			continue
		}
		f = l.f
		if lo < 0 || l.off < lo {
			lo = l.off
		}
		hi, want = max(hi, l.off+int64(l.n)), want+int64(l.n)
	}
	return f, lo, hi, want
}

// fillAll fills each of tools whose section in f is not read yet from
// buf, the file's bytes from lo, read with the error err: a section past
// buf's end (cut short, or none read) is refused with err.
func fillAll(tools []*Tool, f *lateFile, buf []byte, lo int64, err error) {
	if err == nil {
		err = io.ErrUnexpectedEOF // not returned with a short read; never so
	}
	for _, t := range tools {
		if l := t.listing; l != nil && l.f == f && !l.done.Load() {
			start, end := l.off-lo, l.off-lo+int64(l.n)
			t.listOnce.Do(func() {
				if end > int64(len(buf)) {
					l.fill(t, nil, err)
					return
				}
				l.fill(t, buf[start:end:end], nil)
			})
		}
	}
}

// decodeListing sets t's schema and listing from a checked section, whose
// bytes they alias (nothing writes to them).
func (t *Tool) decodeListing(buf []byte) error {
	d := &decoder{s: unsafe.String(unsafe.SliceData(buf), len(buf)-4)}
	schema, head, tail := d.raw(), d.raw(), d.raw()
	switch {
	case d.err != nil:
		return d.err
	case d.i != len(d.s):
		return errors.New("bytes after a tool's listing")
	case schema == "":
		return errors.New("a tool without a schema")
	case (head == "") != (tail == ""):
		return errors.New("half a listing")
	}
	t.schemaJSON = aliasBytes(schema)
	t.listedHead, t.listedTail = aliasBytes(head), aliasBytes(tail)
	return nil
}

// aliasBytes is s as bytes that alias it (nil when empty): only for what
// nothing writes to.
func aliasBytes(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// LateListed is how many of m's tools have had their schema and listing
// read from the manifest cache: 0 for a manifest parsed afresh, and for
// one read from the cache until a tool is first listed — a start is held
// to the tools it lists.
func (m *Manifest) LateListed() int {
	if m.late == nil {
		return 0
	}
	return int(m.late.listed.Load())
}
