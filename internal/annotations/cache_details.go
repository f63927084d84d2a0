package annotations

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"unsafe"
)

// ErrManifestChanged is why a tool's params could not be had after the
// start: the cache's details part could not be read, and the manifest
// read afresh is no longer the one the start served (its SHA-256 differs).
// Only a restart serves it as it is now; the tool's calls are refused
// (Tool.DetailErr wraps it).
var ErrManifestChanged = errors.New("changed since the server started: restart the server to use this tool")

// # The details part
//
// A tool's detail (detail.go) — its params and the CLI's help, half the
// whole aeat's head when the head held them (161 of 280 KB) — is needed
// by neither surface's tools/list, only by a call, aeat_mcp_find or
// doctor. So it is not in the head: the file ends with a part of its own,
// after the tools' sections (cache_listing.go):
//
//	the details' string table (uvarint count, then each string's length
//	  and bytes), then each tool's detail in the tools' order (uvarint
//	  length, then the detail; its maps spelt out, so that each decodes
//	  alone)
//	CRC-32 (checksum) of the part's bytes before it
//
// The head gives the part's length; a start checks that it ends where the
// file does, and reads none of it. The first tool whose detail is read
// opens the file again (lateFile.open: the file the start read, or
// nothing is read from it), reads the part whole, checks its CRC and
// closes the file; each tool's detail is then decoded at its first use.
// A part that cannot be read — the file removed or replaced since the
// start, or spoilt (removed then, as a spoilt section is) — or a detail
// that fails to decode, is no refusal: the tool's detail comes from the
// manifest, read afresh from its path and parsed, if its bytes are still
// those the start's key named (their SHA-256); only when they are not
// (the manifest changed since the server started) are the tool's calls
// refused (DetailErr), with the reason: restart the server.

// lateFile is what the head and the details part of one cache file
// share: the head's checked bytes (s), where the details part is, the
// part once read, the manifest to fall back to, and the patterns the
// tools' params share, as the parser shares them.
type lateFile struct {
	s       string
	path    string
	decoded atomic.Int64 // details decoded so far (Manifest.LateDecoded)
	// size and headSum (the head's CRC as the file has it) are what the
	// file was at the start: a later read of the file checks the file it
	// opens against them (lateFile.open).
	size    int64
	headSum []byte
	listed  atomic.Int64 // listings read so far
	// tools counts the tools of the head (each a detail in the part);
	// detailsOff and detailsN are where the part is in the file.
	tools      int
	detailsOff int64
	detailsN   int

	detailsOnce sync.Once
	details     detailsPart // the part, once read (readDetails)
	detailsErr  error       // why it could not be read

	// manifest and sum are the manifest's path and the SHA-256 its
	// bytes had at the start (Cache.Load): what a detail that cannot be
	// read from the file is read from instead (fromManifest).
	manifest  string
	sum       [sha256.Size]byte
	freshOnce sync.Once
	fresh     *Manifest
	freshErr  error

	mu       sync.Mutex // guards patterns
	patterns map[string]*pattern
}

// detailsPart is the details part as read: its checked bytes (s), its
// string table, and each tool's detail's span of s.
type detailsPart struct {
	s       string
	strings []string
	spans   [][2]int
}

// lateDetail is the i-th tool's detail, still in the file.
type lateDetail struct {
	f   *lateFile
	i   int
	err error // set by decode, read after it (Tool.lateOnce)
}

// late marks the tool being decoded as one whose detail is in the
// details part, the next of the head's tools.
func (d *decoder) late() *lateDetail {
	l := &lateDetail{f: d.lateFile, i: d.lateFile.tools}
	d.lateFile.tools++
	return l
}

// encodeDetails is the details part of m's tools.
func encodeDetails(m *Manifest) ([]byte, error) {
	e := &encoder{} // no maps: each detail decodes alone
	var bodies []byte
	for _, t := range m.Tools {
		sub := &encoder{index: e.index, strings: e.strings}
		if err := enctoolDetail(sub, &t.detail); err != nil {
			return nil, err
		}
		e.index, e.strings = sub.index, sub.strings
		bodies = binary.AppendUvarint(bodies, uint64(len(sub.b)))
		bodies = append(bodies, sub.b...)
	}
	part := append(e.table(nil), bodies...)
	return binary.LittleEndian.AppendUint32(part, checksum(part)), nil
}

// decode fills t's detail: from the details part, or when that cannot
// be, from the manifest (fromManifest); it fails only when neither can.
func (l *lateDetail) decode(t *Tool) {
	l.f.decoded.Add(1)
	err := l.fromFile(t)
	if err == nil {
		l.f.mu.Lock()
		l.f.share(t.detail.Params)
		l.f.mu.Unlock()
		t.detail.index()
		return
	}
	t.detail = toolDetail{}
	if ferr := l.fromManifest(t); ferr != nil {
		l.err = fmt.Errorf("%w; nor could it be read from the manifest: %w", err, ferr)
	}
}

// fromFile decodes t's detail from the details part; a detail that fails
// to decode (a file made to pass the checksum, or a bug of the encoder)
// spoils the file, which is removed.
func (l *lateDetail) fromFile(t *Tool) error {
	p, err := l.f.readDetails()
	if err != nil {
		return err
	}
	span := p.spans[l.i]
	d := &decoder{s: p.s[:span[1]], i: span[0], strings: p.strings}
	dectoolDetail(d, &t.detail)
	if d.err == nil && d.i != span[1] {
		d.fail("bytes after a tool's detail")
	}
	if d.err != nil {
		return l.f.spoilt(fmt.Errorf("a tool's detail: %w", d.err))
	}
	return nil
}

// readDetails is the details part, read at the first call.
func (f *lateFile) readDetails() (*detailsPart, error) {
	f.detailsOnce.Do(func() {
		if f.detailsErr = f.readDetailsPart(); f.detailsErr != nil {
			f.detailsErr = f.spoilt(f.detailsErr)
		}
	})
	return &f.details, f.detailsErr
}

// readDetailsPart reads and checks the details part: one open of the
// file, closed after the read.
func (f *lateFile) readDetailsPart() error {
	file, err := f.open()
	if err != nil {
		return err
	}
	defer file.Close()
	buf := make([]byte, f.detailsN)
	if _, err := file.ReadAt(buf, f.detailsOff); err != nil {
		return fmt.Errorf("the details part: %w (truncated?)", err)
	}
	body := buf[:len(buf)-4]
	if checksum(body) != binary.LittleEndian.Uint32(buf[len(body):]) {
		return errors.New("the details part fails its checksum (truncated or corrupt)")
	}
	// The details' strings are slices of the part, which nothing writes
	// to after this, as the head's are of the head.
	d := &decoder{s: unsafe.String(unsafe.SliceData(body), len(body))}
	d.readTable()
	spans := make([][2]int, f.tools)
	for i := range spans {
		n := d.length()
		spans[i] = [2]int{d.i, d.i + n}
		d.i += n
	}
	if d.err == nil && d.i != len(d.s) {
		d.fail("bytes after the tools' details")
	}
	if d.err != nil {
		return d.err
	}
	f.details = detailsPart{s: d.s, strings: d.strings, spans: spans}
	return nil
}

// fromManifest fills t's detail from the manifest the start read, loaded
// afresh from its path (once, for every tool that needs it) and used only
// if its bytes are still those the start's key named.
func (l *lateDetail) fromManifest(t *Tool) error {
	f := l.f
	f.freshOnce.Do(func() { f.fresh, f.freshErr = f.loadManifest() })
	switch {
	case f.freshErr != nil:
		return f.freshErr
	case l.i >= len(f.fresh.Tools) || f.fresh.Tools[l.i].Name != t.Name:
		return fmt.Errorf("the manifest %s has no tool %s where the cache had it", f.manifest, t.Name)
	}
	t.detail = f.fresh.Tools[l.i].detail
	return nil
}

// loadManifest parses the manifest at f.manifest if its bytes are those
// the start read.
func (f *lateFile) loadManifest() (*Manifest, error) {
	if f.manifest == "" {
		return nil, errors.New("no manifest to read it from")
	}
	data, err := os.ReadFile(f.manifest)
	if err != nil {
		return nil, err
	}
	if sha256.Sum256(data) != f.sum {
		return nil, fmt.Errorf("the manifest %s: %w", f.manifest, ErrManifestChanged)
	}
	return Parse(data, f.manifest)
}

// share gives each param its pattern, each distinct one shared (compiled
// at its first use, pattern).
func (f *lateFile) share(ps []Param) {
	for i := range ps {
		p := &ps[i]
		if p.Pattern == "" {
			continue
		}
		pat, ok := f.patterns[p.Pattern]
		if !ok {
			pat = &pattern{src: p.Pattern}
			f.patterns[p.Pattern] = pat
		}
		p.pattern = pat
	}
}

// LateDecoded is how many of m's tools have had their detail decoded from
// the manifest cache: 0 for a manifest parsed afresh, and for one read
// from the cache until a tool's params or CLI help are first read — what
// a start is held to (nothing before a call needs them).
func (m *Manifest) LateDecoded() int {
	if m.late == nil {
		return 0
	}
	return int(m.late.decoded.Load())
}

// DetailErr is why the tool's params could be read neither from the
// manifest cache nor from the manifest (the details part, above), and so
// neither could its schema be built when its own section could not be
// read (cache_listing.go); nil for every other tool. A call of such a
// tool is refused.
func (t *Tool) DetailErr() error {
	t.details()
	t.listed()
	switch {
	case t.late != nil && t.late.err != nil:
		return t.late.err
	case t.listing != nil:
		return t.listing.err
	}
	return nil
}
