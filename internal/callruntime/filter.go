package callruntime

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Filter rewrites one output stream as it flows, before anything sees it:
// the capture in [Result] and the [Spec.OnLine] observer get only what the
// filter lets through. A Filter keeps state across writes (a secret can be
// split between two reads), so a [Spec] asks for one per stream through a
// factory. Filters are called from one goroutine at a time.
type Filter interface {
	// Write takes the next bytes of the stream and returns what may be
	// passed on now. It may hold bytes back until it knows more.
	Write(p []byte) []byte
	// Flush is called once at the end of the stream and returns whatever
	// was held back and may be shown.
	Flush() []byte
}

// chainFilters runs filters one after the other (nil when there are none).
func chainFilters(filters []Filter) Filter {
	switch len(filters) {
	case 0:
		return nil
	case 1:
		return filters[0]
	}
	return filterChain(filters)
}

type filterChain []Filter

func (c filterChain) Write(p []byte) []byte {
	for _, f := range c {
		p = f.Write(p)
	}
	return p
}

// Flush flushes each filter in turn, passing what it let out through the
// filters after it.
func (c filterChain) Flush() []byte {
	var out []byte
	for i, f := range c {
		p := f.Flush()
		for _, g := range c[i+1:] {
			p = g.Write(p)
		}
		out = append(out, p...)
	}
	return out
}

// RedactedPrivateKey replaces each private-key block in filtered output.
const RedactedPrivateKey = "[redacted private key]"

// RedactPrivateKeys returns a [Filter] that replaces private keys with
// [RedactedPrivateKey]:
//
//   - every armored private-key block — PEM ("-----BEGIN RSA PRIVATE
//     KEY-----", PKCS #8, encrypted, OpenSSH, EC …) and OpenPGP ("-----BEGIN
//     PGP PRIVATE KEY BLOCK-----", and the legacy "PGP SECRET KEY BLOCK") —
//     from its BEGIN marker to its END marker, markers included. Markers are
//     recognised however they are mangled on the way: in any case, with tabs,
//     runs of spaces or no-break spaces, with terminal escape sequences or
//     other control bytes inside, with Unicode hyphens and dashes (U+2010 …)
//     for "-", with characters JSON-escaped ("\u002d"), and split across
//     writes. A block that never ends is redacted up to the end of the
//     stream;
//   - the private lines of a PuTTY key file (.ppk): "Private-Lines: N" and
//     the N lines after it, also where the file's newlines are JSON-escaped;
//   - the private members of a JSON Web Key ("d"; "p", "q", "dp", "dq",
//     "qi" of RSA; "k" of a symmetric key) whose value looks like key
//     material: at least 16 base64url characters, upper and lower case
//     mixed (so "d": "2025-01-31" or an identifier is left alone). The
//     value becomes "[redacted private key]", so the JSON stays valid.
//
// Everything else passes through unchanged, and text that cannot be the
// start of a key is never held back, so line observers see ordinary output
// as soon as it is written.
func RedactPrivateKeys() Filter {
	return filterChain{&pemRedactor{}, &ppkRedactor{}, &jwkRedactor{}}
}

type pemRedactor struct {
	pending []byte // bytes held back: a possible marker prefix
	inside  bool   // within a private-key block
	scratch markerScratch
}

// markerScratch is foldMarker's memory, kept across calls: a dash in
// ordinary output (a date, a negative number) is read as a would-be marker,
// and must not cost an allocation.
type markerScratch struct {
	folded []byte
	ends   []int
}

// maxMarker bounds a marker's length in bytes: "-----BEGIN PGP PRIVATE KEY
// BLOCK-----" is 37; room is left for escapes and padding inside, and for
// every character JSON-escaped (six bytes each). Anything longer on one
// line is not a marker.
const maxMarker = 320

func (f *pemRedactor) Write(p []byte) []byte {
	return f.filter(withPending(f.pending, p), false)
}

// withPending is what a filter looks at: the bytes it held back, then p —
// p itself when nothing was held back, so that ordinary output is not
// copied. A filter returns parts of it (the caller copies what it keeps
// before its next read) and copies what it holds back.
func withPending(pending, p []byte) []byte {
	if len(pending) == 0 {
		return p
	}
	return append(pending, p...)
}

// emit appends part to out, or is part itself when out is still empty: no
// copy of what passes unchanged.
func emit(out, part []byte) []byte {
	if out == nil {
		return part
	}
	return append(out, part...)
}

func (f *pemRedactor) Flush() []byte {
	buf := f.pending
	f.pending = nil
	return f.filter(buf, true)
}

// filter passes buf on, redacting blocks; unless final, a trailing fragment
// that may still become a marker is kept in pending.
func (f *pemRedactor) filter(buf []byte, final bool) []byte {
	f.pending = nil
	var out []byte
	for len(buf) > 0 {
		start, end, partial := findMarker(buf, !f.inside, final, &f.scratch)
		if !f.inside {
			if start < 0 {
				if partial >= 0 {
					f.pending = append([]byte(nil), buf[partial:]...)
					return emit(out, buf[:partial])
				}
				return emit(out, buf)
			}
			out = append(out, buf[:start]...)
			out = append(out, RedactedPrivateKey...)
			f.inside = true
			buf = buf[end:]
			continue
		}
		if end < 0 {
			if partial >= 0 {
				f.pending = append([]byte(nil), buf[partial:]...)
			}
			return out // the rest of the block is dropped
		}
		f.inside = false
		buf = buf[end:]
	}
	return out
}

// findMarker looks for a BEGIN (begin true) or END private-key marker in
// buf. It returns the marker's bounds, or start = end = -1 and, in partial,
// the offset of a trailing fragment that could still become a marker (-1
// if none, and always -1 when final: the stream has ended).
func findMarker(buf []byte, begin, final bool, scratch *markerScratch) (start, end, partial int) {
	next := newCandidates(dashLeads)
	from := 0
	for from < len(buf) {
		i := next.index(buf, from)
		if i < 0 {
			break
		}
		switch n := matchMarker(buf[i:], begin, final, scratch); {
		case n > 0:
			return i, i + n, -1
		case n < 0:
			return -1, -1, i
		}
		// Skip the whole run of dashes: a marker starts at its first.
		from = i + 1
		if n, _ := dashAt(buf[i:]); n > 0 {
			for from = i + n; from < len(buf); from += n {
				if n, _ = dashAt(buf[from:]); n == 0 {
					break
				}
			}
		}
	}
	return -1, -1, -1
}

// dashLeads are the bytes a dash can start with: '-', '\\' (a JSON escape),
// and the lead bytes of the UTF-8 encodings of the Unicode dashes isDash
// accepts (U+02D7; U+058A, U+05BE; U+1400, U+1806; U+2010–U+2015, U+2212,
// U+2E17 …; U+301C, U+30A0; U+FE58, U+FE63, U+FF0D; U+10EAD).
var dashLeads = []byte{'-', '\\', 0xcb, 0xd6, 0xe1, 0xe2, 0xe3, 0xef, 0xf0}

// candidates finds the next of a few bytes in a buffer with one fast
// (vectorized) search per byte, each result remembered until passed:
// output without any of them costs a few scans, never one per position.
type candidates struct {
	of   []byte
	next []int // per byte of of: its next index + 1; 0 unknown, -1 none
}

func newCandidates(of []byte) candidates { return candidates{of: of, next: make([]int, len(of))} }

// index is the first index at or after from of any of the bytes, or -1.
// Calls on one buffer must not go back (from never decreases).
func (d *candidates) index(buf []byte, from int) int {
	best := -1
	for k, c := range d.of {
		if d.next[k] == 0 || d.next[k] > 0 && d.next[k]-1 < from {
			if j := bytes.IndexByte(buf[from:], c); j >= 0 {
				d.next[k] = from + j + 1
			} else {
				d.next[k] = -1
			}
		}
		if j := d.next[k] - 1; j >= 0 && (best < 0 || j < best) {
			best = j
		}
	}
	return best
}

// markerRune reads one character at the start of s the way markers are
// read: a JSON escape "\uXXXX" as the character it stands for, a UTF-8
// sequence as its rune, any other byte as itself (an invalid one as
// utf8.RuneError). partial: s ends inside what may be an escape or a
// sequence.
func markerRune(s []byte) (r rune, n int, partial bool) {
	c := s[0]
	switch {
	case c == '\\':
		for j := 1; j < 6; j++ {
			if j == len(s) {
				return 0, 0, true
			}
			if j == 1 && s[j] != 'u' || j > 1 && !isHex(s[j]) {
				return '\\', 1, false
			}
		}
		v := 0
		for _, h := range s[2:6] {
			v = v<<4 | hexValue(h)
		}
		return rune(v), 6, false
	case c < utf8.RuneSelf:
		return rune(c), 1, false
	case !utf8.FullRune(s):
		return 0, 0, true
	}
	r, n = utf8.DecodeRune(s)
	return r, n, false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func hexValue(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}

// isDash: '-' and what stands in for it when text passes through a word
// processor, a "smart" terminal or a font: the Unicode dash punctuation
// (U+2010 HYPHEN, U+2011 NON-BREAKING HYPHEN, the en and em dashes …) and
// the minus signs.
func isDash(r rune) bool {
	return r == '-' || r == 0x2212 || r == 0x02d7 || r == 0x2043 || r >= 0x80 && unicode.Is(unicode.Pd, r)
}

// dashAt measures the dash at the start of s (0 when there is none);
// partial: s ends inside what may still be one.
func dashAt(s []byte) (n int, partial bool) {
	if len(s) == 0 {
		return 0, true
	}
	r, n, partial := markerRune(s)
	if partial || !isDash(r) {
		return 0, partial
	}
	return n, false
}

// matchMarker reports whether s starts with a whole marker (its length in
// bytes), with a prefix of one that more of the stream may complete (-1),
// or neither (0). It reads s through [foldMarker]'s eyes: case folded,
// blanks collapsed, escape sequences and other control bytes skipped.
func matchMarker(s []byte, begin, final bool, scratch *markerScratch) int {
	keyword := "END"
	if begin {
		keyword = "BEGIN"
	}
	switch n, partial := dashAt(s); {
	case partial:
		return undecided(final)
	case n == 0:
		return 0
	}
	folded, ends, complete := foldMarker(s, scratch)
	complete = complete || final
	// dashes, an optional blank, the keyword, a label, PRIVATE KEY, an
	// optional BLOCK, an optional blank, dashes.
	f := folded
	d := leadingDashes(f)
	if d == len(f) {
		return undecided(complete)
	}
	if d < 3 {
		return 0
	}
	f = bytes.TrimPrefix(f[d:], []byte(" "))
	if len(f) < len(keyword) {
		if strings.HasPrefix(keyword, string(f)) {
			return undecided(complete)
		}
		return 0
	}
	if string(f[:len(keyword)]) != keyword {
		return 0
	}
	label := f[len(keyword):]
	dash := bytes.IndexByte(label, '-')
	if dash < 0 {
		return undecided(complete) // still in the label
	}
	// "RSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK", "PRIVATE\x1b[0mKEY": any
	// label that ends so, blanks aside. Redacting a little too much is the
	// safe side.
	if !privateLabel(label[:dash]) {
		return 0
	}
	trail := leadingDashes(label[dash:])
	consumed := len(folded) - len(label) + dash + trail
	if consumed == len(folded) && !complete {
		return -1 // more dashes may follow
	}
	if trail < 3 {
		return 0
	}
	return ends[consumed-1]
}

// privateLabel reports whether a marker's label, blanks aside, names a
// private key: "RSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK", the legacy "PGP
// SECRET KEY BLOCK" of PGP 2 and old GnuPG … Redacting a little too much
// is the safe side.
func privateLabel(label []byte) bool {
	var buf [maxMarker]byte
	name := buf[:0]
	for _, c := range label {
		if c != ' ' {
			name = append(name, c)
		}
	}
	for _, suffix := range []string{"PRIVATEKEY", "PRIVATEKEYBLOCK", "SECRETKEY", "SECRETKEYBLOCK"} {
		if len(name) >= len(suffix) && string(name[len(name)-len(suffix):]) == suffix {
			return true
		}
	}
	return false
}

func undecided(complete bool) int {
	if complete {
		return 0
	}
	return -1
}

func leadingDashes(s []byte) int {
	n := 0
	for n < len(s) && s[n] == '-' {
		n++
	}
	return n
}

// foldMarker reads a would-be marker from the start of s until the end of
// its line, at most maxMarker bytes, character by character as markerRune
// reads them: letters upper-cased; digits kept; dashes (Unicode ones
// included) as '-'; runs of blanks (spaces, tabs, carriage returns, Unicode
// spaces) as one space; and everything else that is not punctuation —
// terminal escape sequences, other control characters, other characters
// outside ASCII — skipped. ends[i] is the length of s that folded[i] takes
// to read. complete is false when s ended before the line or the bound
// did: more of the stream may change the answer.
func foldMarker(s []byte, scratch *markerScratch) (folded []byte, ends []int, complete bool) {
	b, ends := scratch.folded[:0], scratch.ends[:0]
	defer func() { scratch.folded, scratch.ends = b, ends }()
	for i := 0; i < len(s); {
		if i >= maxMarker {
			return b, ends, true
		}
		if s[i] == 0x1b {
			n, ok := skipEscapeBytes(s[i:])
			if !ok {
				return b, ends, false
			}
			i += n
			continue
		}
		r, n, partial := markerRune(s[i:])
		if partial {
			return b, ends, false
		}
		if !isDash(r) && len(b) > 0 && len(b) < 3 && b[len(b)-1] == '-' {
			// Fewer than three dashes ("2025-01", "-5"): no marker.
			return b, ends, true
		}
		switch {
		case r == '\n':
			return b, ends, true
		case r == ' ' || r == '\t' || r == '\r' || r >= 0x80 && unicode.Is(unicode.Zs, r):
			if len(b) > 0 && b[len(b)-1] != ' ' {
				b = append(b, ' ')
				ends = append(ends, i+n)
			}
		case r >= 'a' && r <= 'z':
			b = append(b, byte(r)-'a'+'A')
			ends = append(ends, i+n)
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9', isDash(r):
			if isDash(r) {
				r = '-'
			}
			b = append(b, byte(r))
			ends = append(ends, i+n)
		case r < 0x20 || r >= 0x7f:
			// a control character, or a character outside ASCII: not
			// part of a marker
		default:
			return b, ends, true // punctuation: the marker, if any, ends here
		}
		i += n
	}
	return b, ends, false
}

// skipEscapeBytes measures the escape sequence at the start of s (ESC …): a
// CSI sequence up to its final byte, an OSC string up to BEL or ESC \, or ESC
// and one byte. ok is false when s ends inside it.
func skipEscapeBytes(s []byte) (n int, ok bool) {
	if len(s) < 2 {
		return 0, false
	}
	switch s[1] {
	case '[':
		for j := 2; j < len(s) && j < maxMarker; j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1, true
			}
		}
	case ']':
		for j := 2; j < len(s) && j < maxMarker; j++ {
			if s[j] == 0x07 {
				return j + 1, true
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2, true
			}
		}
	default:
		return 2, true
	}
	if len(s) >= maxMarker {
		return len(s), true
	}
	return 0, false
}
