package callruntime

import (
	"bytes"
)

// Private keys that are not armored blocks (see [RedactPrivateKeys]): the
// private lines of a PuTTY key file, and the private members of a JSON Web
// Key.

// ppkHeader opens the private part of a PuTTY key file (.ppk, versions 1
// to 3): "Private-Lines: N", then N lines of base64.
const ppkHeader = "Private-Lines:"

// maxPPKLines bounds N: an RSA-16384 key has about 60 private lines; a
// larger count is not a key file, and would swallow the rest of the output.
const maxPPKLines = 1024

// ppkRedactor replaces "Private-Lines: N" and the N lines after it with
// [RedactedPrivateKey]; the end of the last of them stays. A line ends with
// a newline, or with a JSON-escaped one ("\n") where the file is a string
// inside JSON.
type ppkRedactor struct {
	pending []byte
	inside  bool
	ends    int // line ends still to pass while inside; the last one is kept
}

func (f *ppkRedactor) Write(p []byte) []byte { return f.filter(withPending(f.pending, p), false) }

func (f *ppkRedactor) Flush() []byte {
	buf := f.pending
	f.pending = nil
	return f.filter(buf, true)
}

func (f *ppkRedactor) filter(buf []byte, final bool) []byte {
	f.pending = nil
	var out []byte
	for len(buf) > 0 {
		if f.inside {
			i, partial := f.skipLines(buf, final)
			if i < 0 {
				if partial {
					f.pending = append([]byte(nil), buf[len(buf)-1:]...)
				}
				return out // the rest of the private lines is dropped
			}
			f.inside = false
			buf = buf[i:]
			continue
		}
		start, end, lines, partial := findPPK(buf, final)
		if start < 0 {
			if partial >= 0 {
				f.pending = append([]byte(nil), buf[partial:]...)
				buf = buf[:partial]
			}
			return emit(out, buf)
		}
		out = append(out, buf[:start]...)
		out = append(out, RedactedPrivateKey...)
		f.inside, f.ends = true, lines+1 // the header's own line, then N
		buf = buf[end:]
	}
	return out
}

// skipLines passes line ends in buf until the last one owed: it returns
// the index of that one (kept), or -1 when buf ended first (partial: its
// last byte may begin an escaped line end).
func (f *ppkRedactor) skipLines(buf []byte, final bool) (int, bool) {
	for i := 0; i < len(buf); i++ {
		n := 0
		switch {
		case buf[i] == '\n':
			n = 1
		case buf[i] == '\\' && i+1 == len(buf):
			return -1, !final
		case buf[i] == '\\' && buf[i+1] == 'n':
			n = 2
		case buf[i] == '\\':
			i++ // an escaped character, not a line end
			continue
		}
		if n == 0 {
			continue
		}
		if f.ends--; f.ends == 0 {
			return i, false
		}
		i += n - 1
	}
	return -1, false
}

// findPPK finds "Private-Lines: N" in buf: its bounds and N; or start -1
// and, in partial, where a trailing fragment that may still become one
// begins (-1 if none; always -1 when final).
func findPPK(buf []byte, final bool) (start, end, lines, partial int) {
	from := 0
	for {
		i := bytes.Index(buf[from:], []byte(ppkHeader))
		if i < 0 {
			break
		}
		i += from
		j := i + len(ppkHeader)
		for j < len(buf) && (buf[j] == ' ' || buf[j] == '\t') {
			j++
		}
		digits := j
		n := 0
		for j < len(buf) && buf[j] >= '0' && buf[j] <= '9' && n <= maxPPKLines {
			n = n*10 + int(buf[j]-'0')
			j++
		}
		switch {
		case j == len(buf) && !final:
			return -1, -1, 0, i // the count may go on
		case j > digits && n <= maxPPKLines:
			return i, j, n, -1
		}
		from = i + 1
	}
	if !final {
		for k := max(from, len(buf)-len(ppkHeader)+1); k < len(buf); k++ {
			if bytes.HasPrefix([]byte(ppkHeader), buf[k:]) {
				return -1, -1, 0, k
			}
		}
	}
	return -1, -1, 0, -1
}

// jwkMembers are the private members of a JSON Web Key (RFC 7518 §6): "d"
// of EC, OKP and RSA keys; RSA's CRT parameters; "k" of a symmetric key.
var jwkMembers = map[string]bool{"d": true, "p": true, "q": true, "dp": true, "dq": true, "qi": true, "k": true}

// minJWKValue and maxJWKValue bound the value that is taken for key
// material: a 128-bit symmetric key is 22 base64url characters, an
// RSA-16384 "d" about 2,750.
const (
	minJWKValue = 16
	maxJWKValue = 4096
)

// jwkRedactor replaces the value of a private JWK member with
// [RedactedPrivateKey], in JSON (also JSON inside a JSON string, its
// quotes escaped) and in Python's repr ('d': '…').
type jwkRedactor struct{ pending []byte }

func (f *jwkRedactor) Write(p []byte) []byte { return f.filter(withPending(f.pending, p), false) }

func (f *jwkRedactor) Flush() []byte {
	buf := f.pending
	f.pending = nil
	return f.filter(buf, true)
}

func (f *jwkRedactor) filter(buf []byte, final bool) []byte {
	f.pending = nil
	var out []byte
	pos := 0
	quotes := newCandidates([]byte{'"', '\''})
	for from := 0; from < len(buf); {
		j := quotes.index(buf, from)
		if j < 0 {
			break
		}
		qs := j // where the quote starts: at its backslash when escaped
		if j > 0 && buf[j-1] == '\\' {
			qs = j - 1
		}
		vs, ve, partial := matchJWK(buf, j, qs < j, final)
		switch {
		case partial:
			f.pending = append([]byte(nil), buf[qs:]...)
			return emit(out, buf[pos:qs])
		case vs >= 0:
			out = append(out, buf[pos:vs]...)
			out = append(out, RedactedPrivateKey...)
			pos, from = ve, ve
			continue
		}
		from = j + 1
	}
	if !final && len(buf) > pos && buf[len(buf)-1] == '\\' {
		// may begin an escaped quote
		f.pending = []byte{'\\'}
		return emit(out, buf[pos:len(buf)-1])
	}
	return emit(out, buf[pos:])
}

// matchJWK reads a private member at buf[j] (its opening quote; escaped
// when the quotes are \"): the bounds of a value that is key material, or
// vs = -1; partial when buf ends before it can tell.
func matchJWK(buf []byte, j int, escaped, final bool) (vs, ve int, partial bool) {
	q := buf[j]
	i := j + 1
	// quote reports whether a closing (or opening) quote is at buf[i]: its
	// length, or 0; -1 when buf ends inside it.
	quote := func(i int) int {
		if !escaped {
			switch {
			case i == len(buf):
				return -1
			case buf[i] == q:
				return 1
			}
			return 0
		}
		switch {
		case i == len(buf) || i+1 == len(buf) && buf[i] == '\\':
			return -1
		case buf[i] == '\\' && buf[i+1] == q:
			return 2
		}
		return 0
	}
	more := func() (int, int, bool) { return -1, -1, !final }
	name := i
	for i < len(buf) && i-name <= 2 && buf[i] >= 'a' && buf[i] <= 'z' {
		i++
	}
	if i-name > 2 {
		return -1, -1, false
	}
	n := quote(i)
	switch {
	case n < 0:
		return more()
	case n == 0 || !jwkMembers[string(buf[name:i])]:
		return -1, -1, false
	}
	i += n
	for _, want := range []byte{':', 0} {
		for i < len(buf) && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r') {
			i++
		}
		if i == len(buf) {
			return more()
		}
		if want == ':' {
			if buf[i] != ':' {
				return -1, -1, false
			}
			i++
		}
	}
	if n = quote(i); n <= 0 {
		if n < 0 {
			return more()
		}
		return -1, -1, false
	}
	i += n
	vs = i
	upper, lower := false, false
	for i < len(buf) && i-vs <= maxJWKValue && isBase64Byte(buf[i]) {
		upper = upper || buf[i] >= 'A' && buf[i] <= 'Z'
		lower = lower || buf[i] >= 'a' && buf[i] <= 'z'
		i++
	}
	ve = i
	if ve-vs > maxJWKValue {
		return -1, -1, false
	}
	n = quote(i)
	switch {
	case n < 0:
		return more()
	case n == 0 || ve-vs < minJWKValue || !upper || !lower:
		return -1, -1, false
	}
	return vs, ve, false
}

// isBase64Byte: both base64 alphabets and the padding.
func isBase64Byte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '+' || c == '/' || c == '='
}
