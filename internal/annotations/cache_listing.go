package annotations

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"unsafe"
)

// # The file's sections
//
// A start needs every tool's name, hints and the like, but the schema and
// listing only of the tools it lists: five on --surface catalog, of the
// whole aeat's 300. So a cache file is a head, read at the start, and one
// section per tool after it, read at the tool's first listing:
//
//	magic
//	uvarint length of the head, then the head: the key, the string
//	  table, the manifest (its tools' late details in it, detail.go),
//	  then each tool's section length
//	CRC-32C of everything before it (4 bytes, little-endian)
//	each tool's section, in the tools' order: its schema, listing head
//	  and listing tail (each a length and bytes), then a CRC-32C of them
//
// The start checks the head's CRC and that the sections end where the file
// does; a section's CRC is checked when the section is read. A section
// that fails (the file truncated or spoilt since) is never trusted: like
// a late detail that fails to decode, its tool is refused (DetailErr),
// listed with an empty object schema, and the file is removed, so that
// the next start loads the manifest afresh. The other tools are whole.

// spoiltSchema is the schema a tool whose section failed is listed with:
// an object, as every tool's is; its calls are refused anyway.
var spoiltSchema = []byte(`{"type":"object"}`)

// lateListing is one tool's section still in the file: [off, off+n).
type lateListing struct {
	f   *lateFile
	off int64
	n   int
	err error // set by read, read after it (Tool.listOnce)
}

// encodeCache is the cache file of m, written for key.
func encodeCache(key string, m *Manifest) ([]byte, error) {
	e := &encoder{maps: map[string]uint64{}}
	if err := encManifest(e, m); err != nil {
		return nil, err
	}
	sections := make([]byte, 0, 512<<10)
	for _, t := range m.Tools {
		start := len(sections)
		for _, part := range [][]byte{t.schemaJSON, t.listedHead, t.listedTail} {
			sections = binary.AppendUvarint(sections, uint64(len(part)))
			sections = append(sections, part...)
		}
		sections = binary.LittleEndian.AppendUint32(sections, crc32.Checksum(sections[start:], castagnoli()))
		e.uvarint(uint64(len(sections) - start))
	}
	head := binary.AppendUvarint(nil, uint64(len(key)))
	head = append(head, key...)
	head = e.table(head)
	head = append(head, e.b...)
	out := make([]byte, 0, len(cacheMagic)+binary.MaxVarintLen64+len(head)+4+len(sections))
	out = append(out, cacheMagic...)
	out = binary.AppendUvarint(out, uint64(len(head)))
	out = append(out, head...)
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli()))
	return append(out, sections...), nil
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
	l.f.listed.Add(1)
	buf := make([]byte, l.n)
	err := l.readAt(buf)
	if err == nil {
		err = t.decodeListing(buf)
	}
	if err != nil {
		l.err = fmt.Errorf("the manifest cache %s: %w", l.f.path, err)
		t.schemaJSON, t.listedHead, t.listedTail = spoiltSchema, nil, nil
		os.Remove(l.f.path)
	}
}

// readAt reads the section into buf, all of it.
func (l *lateListing) readAt(buf []byte) error {
	if _, err := l.f.file.ReadAt(buf, l.off); err != nil {
		return fmt.Errorf("a tool's section: %w (truncated?)", err)
	}
	body := buf[:len(buf)-4]
	if crc32.Checksum(body, castagnoli()) != binary.LittleEndian.Uint32(buf[len(body):]) {
		return errors.New("a tool's section fails its checksum (truncated or corrupt)")
	}
	return nil
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
