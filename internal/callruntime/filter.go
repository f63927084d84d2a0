package callruntime

import "bytes"

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

// RedactedPrivateKey replaces each PEM private-key block in filtered output.
const RedactedPrivateKey = "[redacted private key]"

// RedactPrivateKeys returns a [Filter] that replaces every PEM private-key
// block — from "-----BEGIN … PRIVATE KEY-----" to "-----END … PRIVATE
// KEY-----", markers included — with [RedactedPrivateKey]. Markers split
// across writes are recognised; a block that never ends is redacted up to the
// end of the stream. Everything else passes through unchanged, and text that
// cannot be the start of a marker is never held back, so line observers see
// ordinary output as soon as it is written.
func RedactPrivateKeys() Filter { return &pemRedactor{} }

type pemRedactor struct {
	pending []byte // bytes held back: a possible marker prefix
	inside  bool   // within a private-key block
}

var (
	beginMarker = []byte("-----BEGIN ")
	endMarker   = []byte("-----END ")
	keyTrailer  = []byte("PRIVATE KEY-----")
)

// maxMarker bounds a marker's length: "-----BEGIN ENCRYPTED PRIVATE KEY-----"
// is 37 bytes; anything much longer on one line is not a marker.
const maxMarker = 96

func (f *pemRedactor) Write(p []byte) []byte {
	buf := append(f.pending, p...)
	f.pending = nil
	var out []byte
	for len(buf) > 0 {
		if !f.inside {
			start, end, partial := findMarker(buf, beginMarker)
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
		_, end, partial := findMarker(buf, endMarker)
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

func (f *pemRedactor) Flush() []byte {
	if f.inside {
		f.pending = nil
		return nil
	}
	out := f.pending
	f.pending = nil
	return out
}

// findMarker looks for prefix + label + "PRIVATE KEY-----" in buf, where
// label is uppercase letters, digits and spaces ("RSA ", "EC ", "").
// It returns the marker's bounds, or start = end = -1 and, in partial, the
// offset of a trailing fragment that could still become a marker (or -1).
func findMarker(buf, prefix []byte) (start, end, partial int) {
	partial = -1
	from := 0
	for from < len(buf) {
		i := bytes.IndexByte(buf[from:], '-')
		if i < 0 {
			break
		}
		i += from
		switch n, ok := matchMarker(buf[i:], prefix); {
		case ok:
			return i, i + n, -1
		case n < 0: // could still become a marker: hold it back
			return -1, -1, i
		}
		from = i + 1
	}
	return -1, -1, partial
}

// matchMarker reports whether s starts with a whole marker (its length, true),
// with a prefix of one that the stream may complete (-1, false), or neither.
func matchMarker(s, prefix []byte) (int, bool) {
	if len(s) < len(prefix) {
		if bytes.HasPrefix(prefix, s) {
			return -1, false
		}
		return 0, false
	}
	if !bytes.HasPrefix(s, prefix) {
		return 0, false
	}
	for j := len(prefix); j < len(s) && j < maxMarker; j++ {
		c := s[j]
		if bytes.HasPrefix(s[j:], keyTrailer) {
			return j + len(keyTrailer), true
		}
		if len(s)-j < len(keyTrailer) && bytes.HasPrefix(keyTrailer, s[j:]) {
			return -1, false
		}
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ') {
			return 0, false
		}
	}
	if len(s) < maxMarker {
		return -1, false
	}
	return 0, false
}
