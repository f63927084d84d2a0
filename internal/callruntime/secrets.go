package callruntime

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"unicode/utf8"
)

// RedactedSecret replaces each secret in filtered output.
const RedactedSecret = "[redacted secret]"

// minAnywhere is the shortest form of a secret that is replaced wherever it
// appears. A shorter one ("1234", "abc") is replaced only as a whole token —
// not inside a longer word or number — so that a short secret does not
// shred every line that happens to contain its letters: "ab" is replaced in
// `"ab"` and `pin=ab`, not in "about".
const minAnywhere = 8

// minEncoded bounds a fragment of an encoding (base64 of a secret at an
// offset inside longer data): shorter ones say too little about the secret
// and match ordinary encoded data too often.
const minEncoded = 8

// A SecretRedactor replaces known secret values — the exact bytes the server
// gave the program on its stdin, a keychain value — with [RedactedSecret],
// in each of the forms a program realistically prints them in (see
// [RedactSecrets]). It is immutable and safe for concurrent use; a nil
// *SecretRedactor redacts nothing.
type SecretRedactor struct {
	pats   []secretPattern
	maxLen int
	first  [256]bool // first bytes of the patterns
}

type secretPattern struct {
	b []byte
	// head and tail: the pattern starts (ends) with a word byte and is
	// short, so the byte before (after) it must not be one.
	head, tail bool
}

// secretForms are the ways a program prints a value it was given, each
// generated from the value: as it is; escaped inside a JSON string (the
// minimal escaping of JSON.stringify and Python's ensure_ascii=False, Go's
// which also escapes <, > and &, Python's default which escapes every
// non-ASCII character, "/" escaped as PHP does, and a JSON string inside a
// JSON string); base64 (standard and URL alphabets, padded whole, and at
// each of the three alignments the value can have inside longer encoded
// data: a password inside "user:password"); hex; and percent-encoded in a
// URL. One table: adding a form touches one line.
var secretForms = []struct {
	forms func(v []byte) [][]byte
	// encoded: an alphabet of its own (base64, hex), whose fragments
	// shorter than minEncoded are left out.
	encoded bool
}{
	{forms: func(v []byte) [][]byte { return [][]byte{v} }},
	{forms: jsonForms},
	{forms: base64Forms, encoded: true},
	{forms: func(v []byte) [][]byte {
		h := hex.EncodeToString(v)
		return [][]byte{[]byte(h), bytes.ToUpper([]byte(h))}
	}, encoded: true},
	{forms: func(v []byte) [][]byte {
		return [][]byte{[]byte(url.QueryEscape(string(v))), []byte(url.PathEscape(string(v)))}
	}},
}

// RedactSecrets returns a redactor of secrets, or nil when there are none
// (empty values are ignored). Each secret is replaced in every form of
// secretForms; a form shorter than 8 bytes only as a whole token (see
// minAnywhere). Where forms overlap, the leftmost and then the longest is
// replaced.
func RedactSecrets(secrets [][]byte) *SecretRedactor {
	seen := map[string]bool{}
	r := &SecretRedactor{}
	for _, v := range secrets {
		if len(v) == 0 {
			continue
		}
		for _, form := range secretForms {
			for _, p := range form.forms(v) {
				if len(p) == 0 || seen[string(p)] || form.encoded && len(p) < minEncoded {
					continue
				}
				seen[string(p)] = true
				sp := secretPattern{b: bytes.Clone(p)}
				if len(p) < minAnywhere {
					sp.head, sp.tail = isWordByte(p[0]), isWordByte(p[len(p)-1])
				}
				r.pats = append(r.pats, sp)
				r.maxLen = max(r.maxLen, len(p))
				r.first[p[0]] = true
			}
		}
	}
	if len(r.pats) == 0 {
		return nil
	}
	return r
}

// isWordByte: letters, digits, '_' and the bytes of non-ASCII characters.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// jsonForms are v's escaped forms inside a JSON string, those that differ
// from v.
func jsonForms(v []byte) [][]byte {
	minimal := jsonEscape(v, false, false)
	goEnc, _ := json.Marshal(string(v))
	return [][]byte{
		minimal,
		goEnc[1 : len(goEnc)-1],
		jsonEscape(v, true, false),
		jsonEscape(v, false, true),
		jsonEscape(minimal, false, false), // a JSON string in a JSON string
	}
}

// jsonEscape escapes v for a JSON string: '"', '\' and control characters
// always (as \n, \r, \t, \b, \f or \u00XX); every non-ASCII character as
// \uXXXX (UTF-16) with ascii; '/' as "\/" with slash.
func jsonEscape(v []byte, ascii, slash bool) []byte {
	const hexDigits = "0123456789abcdef"
	var b []byte
	for i := 0; i < len(v); {
		c := v[i]
		if c >= utf8.RuneSelf && ascii {
			r, n := utf8.DecodeRune(v[i:])
			u := []rune{r}
			if r > 0xffff {
				r1, r2 := utf16Pair(r)
				u = []rune{r1, r2}
			}
			for _, x := range u {
				b = append(b, '\\', 'u', hexDigits[x>>12&0xf], hexDigits[x>>8&0xf], hexDigits[x>>4&0xf], hexDigits[x&0xf])
			}
			i += n
			continue
		}
		switch {
		case c == '"' || c == '\\' || c == '/' && slash:
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		default:
			b = append(b, c)
		}
		i++
	}
	return b
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

// base64Forms are v in base64, both alphabets: padded whole, and the
// characters that depend on v alone when v starts at each offset (mod 3)
// inside longer encoded data.
func base64Forms(v []byte) [][]byte {
	var out [][]byte
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		out = append(out, []byte(enc.EncodeToString(v)))
		for skip := range 3 {
			if skip >= len(v) {
				break
			}
			rest := v[skip:]
			rest = rest[:len(rest)/3*3]
			out = append(out, []byte(enc.EncodeToString(rest)))
		}
	}
	return out
}

// Filter returns a [Filter] that redacts the secrets from one stream, also
// when a secret is split across writes. Text that cannot be the start of a
// secret's form is passed on at once.
func (r *SecretRedactor) Filter() Filter { return &secretFilter{r: r, prev: -1} }

// Redact returns p with every secret redacted: p is taken as a whole text
// (a result, a line), not part of a stream.
func (r *SecretRedactor) Redact(p []byte) []byte {
	if r == nil {
		return p
	}
	f := secretFilter{r: r, prev: -1}
	return f.scan(p, true)
}

// RedactString is [SecretRedactor.Redact] for a string.
func (r *SecretRedactor) RedactString(s string) string {
	if r == nil {
		return s
	}
	out := r.Redact([]byte(s))
	if len(out) == len(s) && string(out) == s {
		return s
	}
	return string(out)
}

type secretFilter struct {
	r       *SecretRedactor
	pending []byte
	prev    int // the stream's byte before pending; -1 at its start
}

func (f *secretFilter) Write(p []byte) []byte {
	if f.r == nil {
		return p
	}
	buf := p
	if len(f.pending) > 0 {
		buf = append(f.pending, p...)
	}
	return f.scan(buf, false)
}

func (f *secretFilter) Flush() []byte {
	if f.r == nil {
		return nil
	}
	buf := f.pending
	return f.scan(buf, true)
}

// scan redacts buf; unless final, a trailing fragment that may still become
// a secret's form (or complete a longer one) is kept in pending. The result
// may alias buf.
func (f *secretFilter) scan(buf []byte, final bool) []byte {
	f.pending = nil
	pats := f.r.pats
	next := make([]int, len(pats)) // next match of each pattern at or after pos; -1: none
	for i := range next {
		next[i] = -2 // not searched yet
	}
	var out []byte
	changed := false
	pos := 0
	for {
		best, bi := -1, -1
		for i, p := range pats {
			if next[i] == -2 || next[i] >= 0 && next[i] < pos {
				next[i] = index(buf, p.b, pos)
			}
			if j := next[i]; j >= 0 && (best < 0 || j < best || j == best && len(p.b) > len(pats[bi].b)) {
				best, bi = j, i
			}
		}
		if best < 0 {
			break
		}
		p := pats[bi]
		ok, undecided := f.bounded(buf, best, p, final)
		if !undecided && !final && f.longerPossible(buf[best:]) {
			undecided = true // a longer form may start here: wait for it
		}
		if undecided {
			return f.hold(out, changed, buf, pos, best)
		}
		if !ok {
			next[bi] = index(buf, p.b, best+1)
			continue
		}
		out = append(out, buf[pos:best]...)
		out = append(out, RedactedSecret...)
		changed = true
		pos = best + len(p.b)
	}
	if !final {
		if s := f.partialStart(buf, pos); s >= 0 {
			return f.hold(out, changed, buf, pos, s)
		}
	}
	if len(buf) > 0 {
		f.prev = int(buf[len(buf)-1])
	}
	if !changed {
		return buf
	}
	return append(out, buf[pos:]...)
}

// hold passes buf[pos:at] on after out and keeps buf[at:] for later.
func (f *secretFilter) hold(out []byte, changed bool, buf []byte, pos, at int) []byte {
	f.pending = append([]byte(nil), buf[at:]...)
	if at > 0 {
		f.prev = int(buf[at-1])
	}
	if !changed {
		return buf[:at]
	}
	return append(out, buf[pos:at]...)
}

func index(buf, p []byte, from int) int {
	if from > len(buf) {
		return -1
	}
	j := bytes.Index(buf[from:], p)
	if j < 0 {
		return -1
	}
	return j + from
}

// bounded checks a short pattern's token boundaries at buf[i:]: ok when the
// bytes around it are not word bytes; undecided when the byte after it has
// not been written yet.
func (f *secretFilter) bounded(buf []byte, i int, p secretPattern, final bool) (ok, undecided bool) {
	if p.head {
		before := f.prev
		if i > 0 {
			before = int(buf[i-1])
		}
		if before >= 0 && isWordByte(byte(before)) {
			return false, false
		}
	}
	if p.tail {
		end := i + len(p.b)
		if end == len(buf) {
			return final, !final // the stream's end is a boundary
		}
		if isWordByte(buf[end]) {
			return false, false
		}
	}
	return true, false
}

// longerPossible reports whether rest (which starts with a match) is a proper
// prefix of a longer pattern: more of the stream may complete it.
func (f *secretFilter) longerPossible(rest []byte) bool {
	for _, p := range f.r.pats {
		if len(p.b) > len(rest) && bytes.HasPrefix(p.b, rest) {
			return true
		}
	}
	return false
}

// partialStart finds the earliest offset at or after pos from which the end
// of buf is a proper prefix of some pattern, or -1.
func (f *secretFilter) partialStart(buf []byte, pos int) int {
	from := max(pos, len(buf)-f.r.maxLen+1)
	for s := from; s < len(buf); s++ {
		if !f.r.first[buf[s]] {
			continue
		}
		rest := buf[s:]
		for _, p := range f.r.pats {
			if len(p.b) > len(rest) && bytes.HasPrefix(p.b, rest) {
				return s
			}
		}
	}
	return -1
}
