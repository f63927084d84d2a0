package callruntime

import (
	"bytes"
	"strings"
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

// RedactPrivateKeys returns a [Filter] that replaces every armored private-key
// block — PEM ("-----BEGIN RSA PRIVATE KEY-----", PKCS #8, encrypted,
// OpenSSH, EC …) and OpenPGP ("-----BEGIN PGP PRIVATE KEY BLOCK-----") —
// from its BEGIN marker to its END marker, markers included, with
// [RedactedPrivateKey]. Markers are recognised however they are mangled on
// the way: in any case, with tabs or runs of spaces, with terminal escape
// sequences or other control bytes inside, and split across writes. A block
// that never ends is redacted up to the end of the stream. Everything else
// passes through unchanged, and text that cannot be the start of a marker
// is never held back, so line observers see ordinary output as soon as it
// is written.
func RedactPrivateKeys() Filter { return &pemRedactor{} }

type pemRedactor struct {
	pending []byte // bytes held back: a possible marker prefix
	inside  bool   // within a private-key block
}

// maxMarker bounds a marker's length in bytes: "-----BEGIN PGP PRIVATE KEY
// BLOCK-----" is 37; room is left for escapes and padding inside. Anything
// longer on one line is not a marker.
const maxMarker = 160

func (f *pemRedactor) Write(p []byte) []byte {
	return f.filter(append(f.pending, p...), false)
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
		start, end, partial := findMarker(buf, !f.inside, final)
		if !f.inside {
			if start < 0 {
				if partial >= 0 {
					out = append(out, buf[:partial]...)
					f.pending = append([]byte(nil), buf[partial:]...)
				} else {
					out = append(out, buf...)
				}
				return out
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
func findMarker(buf []byte, begin, final bool) (start, end, partial int) {
	from := 0
	for from < len(buf) {
		i := bytes.IndexByte(buf[from:], '-')
		if i < 0 {
			break
		}
		i += from
		switch n := matchMarker(buf[i:], begin, final); {
		case n > 0:
			return i, i + n, -1
		case n < 0:
			return -1, -1, i
		}
		// Skip the whole run of dashes: a marker starts at its first.
		for from = i + 1; from < len(buf) && buf[from] == '-'; from++ {
		}
	}
	return -1, -1, -1
}

// matchMarker reports whether s starts with a whole marker (its length in
// bytes), with a prefix of one that more of the stream may complete (-1),
// or neither (0). It reads s through [foldMarker]'s eyes: case folded,
// blanks collapsed, escape sequences and other control bytes skipped.
func matchMarker(s []byte, begin, final bool) int {
	keyword := "END"
	if begin {
		keyword = "BEGIN"
	}
	folded, ends, complete := foldMarker(s)
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
	f = strings.TrimPrefix(f[d:], " ")
	if len(f) < len(keyword) {
		if strings.HasPrefix(keyword, f) {
			return undecided(complete)
		}
		return 0
	}
	if !strings.HasPrefix(f, keyword) {
		return 0
	}
	label := f[len(keyword):]
	dash := strings.IndexByte(label, '-')
	if dash < 0 {
		return undecided(complete) // still in the label
	}
	// "RSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK", "PRIVATE\x1b[0mKEY": any
	// label that ends so, blanks aside. Redacting a little too much is the
	// safe side.
	name := strings.ReplaceAll(label[:dash], " ", "")
	if !strings.HasSuffix(name, "PRIVATEKEY") && !strings.HasSuffix(name, "PRIVATEKEYBLOCK") {
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

func undecided(complete bool) int {
	if complete {
		return 0
	}
	return -1
}

func leadingDashes(s string) int {
	n := 0
	for n < len(s) && s[n] == '-' {
		n++
	}
	return n
}

// foldMarker reads a would-be marker from the start of s until the end of
// its line, at most maxMarker bytes: letters upper-cased, digits and dashes
// kept, runs of blanks (spaces, tabs, carriage returns) as one space, and
// everything else — terminal escape sequences, other control bytes, bytes
// outside ASCII — skipped. ends[i] is the length of s that folded[i] takes
// to read. complete is false when s ended before the line or the bound did:
// more of the stream may change the answer.
func foldMarker(s []byte) (folded string, ends []int, complete bool) {
	var b []byte
	for i := 0; i < len(s); {
		if i >= maxMarker {
			return string(b), ends, true
		}
		c := s[i]
		switch {
		case c == '\n':
			return string(b), ends, true
		case c == 0x1b:
			n, ok := skipEscapeBytes(s[i:])
			if !ok {
				return string(b), ends, false
			}
			i += n
			continue
		case c == ' ' || c == '\t' || c == '\r':
			if len(b) > 0 && b[len(b)-1] != ' ' {
				b = append(b, ' ')
				ends = append(ends, i+1)
			}
		case c >= 'a' && c <= 'z':
			b = append(b, c-'a'+'A')
			ends = append(ends, i+1)
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-':
			b = append(b, c)
			ends = append(ends, i+1)
		case c < 0x20 || c >= 0x7f:
			// a control byte or a byte outside ASCII: not part of a marker
		default:
			return string(b), ends, true // punctuation: the marker, if any, ends here
		}
		i++
	}
	return string(b), ends, false
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
