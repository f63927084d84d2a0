package callruntime

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"sync"
)

// RedactedSecret replaces each secret in filtered output.
const RedactedSecret = "[redacted secret]"

// minAnywhere is the shortest form of a secret that is replaced wherever it
// appears. A shorter one ("1234", "abc") is replaced only as a whole token —
// not inside a longer word or number, nor across a line break — so that a
// short secret does not shred every line that happens to contain its
// letters: "ab" is replaced in `"ab"` and `pin=ab`, not in "about".
const minAnywhere = 8

// minEncoded bounds a fragment of an encoding (base64 of a secret at an
// offset inside longer data): shorter ones say too little about the secret
// and match ordinary encoded data too often.
const minEncoded = 8

// wrapWidth is how long a line must be for the line break after it to be
// read as a wrapper's: a secret's form may run on after it, past the
// break and the next line's indentation ("\n", "\r\n", then spaces or
// tabs). Wrappers fill their lines — Python's textwrap 70 columns, Click
// and Rich 80, MIME base64 76, PEM 64 — so a shorter line was ended for a
// reason of its own, and is never held back waiting for what follows it.
const wrapWidth = 40

// A SecretRedactor replaces known secret values — the exact bytes the server
// gave the program on its stdin, a keychain value — with [RedactedSecret],
// in each of the forms a program realistically prints them in (see
// [RedactSecrets]). It is immutable and safe for concurrent use; a nil
// *SecretRedactor redacts nothing.
type SecretRedactor struct {
	pats   []secretPattern // longest first
	sorted [][]byte        // the patterns in byte order, for prefix questions
	maxLen int
	first  [256]bool // first bytes of the patterns
	// starts: a bit for each pair of bytes a pattern starts with, and the
	// patterns (longest first) by that pair; singles, the patterns of one
	// byte, by it. One pass over the output finds every place a pattern
	// may start, however many patterns there are.
	starts  [1 << 16 / 64]uint64
	byStart map[uint16][]int
	singles map[byte][]int
	// asIs: the forms that are nothing but line breaks and blanks (a
	// secret "\n  "), which a view without wraps would cut away whole.
	// They are searched in the output as it is, before the others, by a
	// redactor of their own whose view cuts nothing (raw).
	asIs *SecretRedactor
	raw  bool
}

type secretPattern struct {
	b []byte
	// head and tail: the pattern starts (ends) with a word byte and is
	// short, so the byte before (after) it must not be one.
	head, tail bool
}

// RedactSecrets returns a redactor of secrets, or nil when there are none
// (empty values are ignored). Each secret is replaced in every spelling of
// the table secretSpellings — as it is; JSON-escaped the ways Go, Python,
// JavaScript and PHP escape it, and JSON inside JSON; quoted by Python's
// repr() and ascii() (of the text and of its bytes), Go's %q and %+q,
// Node's util.inspect; quoted for a shell (shlex.quote, sh's quotes, printf %q),
// CSV, HTML and XML; percent-encoded by Python's, Go's and JavaScript's URL
// functions, in upper- and lower-case hex; in base64 (also inside longer
// base64 data), hex, and as a list of its bytes — of the value as given
// and of its NFC and NFD normal forms, also where a wrapper broke it
// across lines (see wrapWidth; a form that is nothing but line breaks
// and blanks is searched as it is, since a wrapper's break cannot be told
// from it). A form shorter than 8 bytes is replaced
// only as a whole token (see minAnywhere). Where forms overlap, the
// leftmost and then the longest is replaced.
func RedactSecrets(secrets [][]byte) *SecretRedactor {
	key := redactorKey(secrets)
	if r, ok := redactors.get(key); ok {
		return r
	}
	r := newSecretRedactor(secrets)
	redactors.put(key, r)
	return r
}

// redactors are the last redactors made, by their secrets: a server gives
// every call of a tool the same secrets (a keychain value, a variable of
// its own), and its result path the same ones again, while making a
// redactor spells each secret some hundred ways.
var redactors = redactorCache{byKey: map[string]*SecretRedactor{}}

// maxRedactors bounds redactors.
const maxRedactors = 16

type redactorCache struct {
	mu    sync.Mutex
	byKey map[string]*SecretRedactor
	order []string // oldest first
}

func (c *redactorCache) get(key string) (*SecretRedactor, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.byKey[key]
	return r, ok
}

func (c *redactorCache) put(key string, r *SecretRedactor) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok {
		return
	}
	if len(c.order) == maxRedactors {
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
	c.byKey[key] = r
	c.order = append(c.order, key)
}

// redactorKey names a list of secrets: each with its length before it.
func redactorKey(secrets [][]byte) string {
	var b []byte
	for _, v := range secrets {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	return string(b)
}

func newSecretRedactor(secrets [][]byte) *SecretRedactor {
	seen := map[string]bool{}
	var pats, layout []secretPattern
	add := func(p string, encoded bool) {
		if len(p) == 0 || seen[p] || encoded && len(p) < minEncoded {
			return
		}
		seen[p] = true
		sp := secretPattern{b: []byte(p)}
		if len(p) < minAnywhere {
			sp.head, sp.tail = isWordByte(p[0]), isWordByte(p[len(p)-1])
		}
		if isLayout(sp.b) {
			layout = append(layout, sp)
		} else {
			pats = append(pats, sp)
		}
	}
	for _, v := range secrets {
		if len(v) == 0 {
			continue
		}
		printed(string(v), func(p string, encoded bool) {
			add(p, encoded)
			// What the view makes of a form a wrapper broke: a form that
			// holds a line break as the view sees it after a short and
			// after a long line, and one with blanks without each run of
			// them.
			if strings.IndexByte(p, '\n') >= 0 {
				for _, lineLen := range []int{0, wrapWidth} {
					f := secretFilter{lineLen: lineLen}
					add(string(f.unwrap([]byte(p), true).b), encoded)
				}
			}
			if !encoded {
				for _, q := range unblanked(p) {
					add(q, false)
				}
			}
		})
	}
	if len(pats) == 0 && len(layout) == 0 {
		return nil
	}
	r := indexPatterns(pats)
	if len(layout) > 0 {
		r.asIs = indexPatterns(layout)
		r.asIs.raw = true
	}
	return r
}

// indexPatterns is a redactor of pats, indexed for the search.
func indexPatterns(pats []secretPattern) *SecretRedactor {
	r := &SecretRedactor{pats: pats}
	slices.SortStableFunc(r.pats, func(a, b secretPattern) int { return len(b.b) - len(a.b) })
	r.byStart, r.singles = map[uint16][]int{}, map[byte][]int{}
	for i, p := range r.pats {
		if len(p.b) == 1 {
			r.singles[p.b[0]] = append(r.singles[p.b[0]], i)
		} else {
			k := pair(p.b)
			r.starts[k/64] |= 1 << (k % 64)
			r.byStart[k] = append(r.byStart[k], i)
		}
		r.sorted = append(r.sorted, p.b)
		r.maxLen = max(r.maxLen, len(p.b))
		r.first[p.b[0]] = true
	}
	slices.SortFunc(r.sorted, bytes.Compare)
	return r
}

// isLayout: b is only line breaks and blanks — what unwrap cuts.
func isLayout(b []byte) bool {
	return len(bytes.Trim(b, "\r\n \t")) == 0
}

// pair is the first two bytes of b, as an index.
func pair(b []byte) uint16 { return uint16(b[0])<<8 | uint16(b[1]) }

// candidate is the first index at or after i where a pattern may start
// (by its first two bytes, or its only one), or -1.
func (r *SecretRedactor) candidate(view []byte, i int) int {
	if len(r.singles) > 0 {
		for ; i < len(view); i++ {
			if _, ok := r.singles[view[i]]; ok || i+1 < len(view) && r.startsAt(view, i) {
				return i
			}
		}
		return -1
	}
	for ; i+1 < len(view); i++ {
		if r.startsAt(view, i) {
			return i
		}
	}
	return -1
}

func (r *SecretRedactor) startsAt(view []byte, i int) bool {
	k := uint16(view[i])<<8 | uint16(view[i+1])
	return r.starts[k/64]&(1<<(k%64)) != 0
}

// isWordByte: letters, digits, '_' and the bytes of non-ASCII characters.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// maxBlankRuns bounds the forms unblanked makes of one form.
const maxBlankRuns = 16

// unblanked are p without one of its runs of blanks each (the first
// maxBlankRuns): a wrapper that breaks a line where p has blanks drops
// them ("correct horse\nbattery"), and a form that starts with blanks at
// the start of a wrapped line loses them with the indentation. Only for a
// form long enough to be replaced anywhere (what is left of it may be
// short: a token, then).
func unblanked(p string) []string {
	if len(p) < minAnywhere {
		return nil
	}
	var out []string
	for i := 0; i < len(p) && len(out) < maxBlankRuns; i++ {
		if p[i] != ' ' && p[i] != '\t' {
			continue
		}
		j := i
		for j < len(p) && (p[j] == ' ' || p[j] == '\t') {
			j++
		}
		out = append(out, p[:i]+p[j:])
		i = j
	}
	return out
}

// isPattern reports whether b is one of the patterns.
func (r *SecretRedactor) isPattern(b []byte) bool {
	_, found := slices.BinarySearchFunc(r.sorted, b, bytes.Compare)
	return found
}

// properPrefix reports whether rest is a proper prefix of a pattern: more
// of the stream may complete one.
func (r *SecretRedactor) properPrefix(rest []byte) bool {
	i := sort.Search(len(r.sorted), func(i int) bool { return bytes.Compare(r.sorted[i], rest) >= 0 })
	for ; i < len(r.sorted) && bytes.HasPrefix(r.sorted[i], rest); i++ {
		if len(r.sorted[i]) > len(rest) {
			return true
		}
	}
	return false
}

// Filter returns a [Filter] that redacts the secrets from one stream, also
// when a secret is split across writes. Text that cannot be the start of a
// secret's form is passed on at once.
func (r *SecretRedactor) Filter() Filter {
	f := &secretFilter{r: r, prev: -1}
	if r != nil && r.asIs != nil {
		return filterChain{r.asIs.Filter(), f}
	}
	return f
}

// Redact returns p with every secret redacted: p is taken as a whole text
// (a result, a line), not part of a stream.
func (r *SecretRedactor) Redact(p []byte) []byte {
	if r == nil {
		return p
	}
	if r.asIs != nil {
		p = r.asIs.Redact(p)
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
	// lineLen is how many bytes of the current line came before pending.
	lineLen int
	// scratch and cuts are the last view's memory, kept across writes so
	// that a write allocates nothing.
	scratch []byte
	cuts    []wrapCut
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
// a secret's form (or complete a longer one) is kept in pending. The forms
// are searched in buf's view without its wraps (unwrap); what is replaced
// and passed on is buf's. The result may alias buf.
func (f *secretFilter) scan(buf []byte, final bool) []byte {
	f.pending = nil
	v := f.unwrap(buf, final)
	view := v.b
	var out []byte
	changed := false
	pos, opos := 0, 0 // passed on up to: in view, in buf
	for i := f.r.candidate(view, 0); i >= 0; i = f.r.candidate(view, i+1) {
		p, undecided := f.matchAt(buf, &v, i, final)
		if undecided {
			return f.hold(out, changed, buf, opos, v.orig(i))
		}
		if p == nil {
			continue
		}
		start, end := v.orig(i), v.origEnd(i+len(p.b))
		out = append(out, buf[opos:start]...)
		out = append(out, RedactedSecret...)
		changed = true
		pos, opos = i+len(p.b), end
		i = pos - 1
	}
	if !final {
		at := -1
		if s := f.partialStart(view, pos); s >= 0 {
			at = v.orig(s)
		}
		if v.lastCR && (at < 0 || at > len(buf)-1) {
			at = len(buf) - 1
		}
		if at >= opos {
			return f.hold(out, changed, buf, opos, at)
		}
	}
	f.passed(buf, len(buf))
	if !changed {
		return buf
	}
	return append(out, buf[opos:]...)
}

// matchAt is the longest pattern that matches the view at j within its
// bounds, or nil; undecided when more of the stream may change the answer:
// a longer form may start there, or a short one's bound is not written
// yet.
func (f *secretFilter) matchAt(buf []byte, v *wrapView, j int, final bool) (p *secretPattern, undecided bool) {
	rest := v.b[j:]
	if !final && len(rest) < f.r.maxLen && f.r.properPrefix(rest) {
		return nil, true // a longer form may start here: wait for it
	}
	var found []int
	if len(rest) >= 2 {
		found = f.r.byStart[pair(rest)]
	}
	if len(f.r.singles) > 0 {
		found = append(found[:len(found):len(found)], f.r.singles[rest[0]]...)
	}
	for _, k := range found {
		p := &f.r.pats[k]
		if !bytes.HasPrefix(rest, p.b) {
			continue
		}
		start, end := v.orig(j), v.origEnd(j+len(p.b))
		if len(p.b) < minAnywhere && end-start != len(p.b) && !f.r.isPattern(buf[start:end]) {
			continue // a short form is never read across a wrapper's line break
		}
		ok, undecided := f.bounded(buf, start, end, p, final)
		if undecided {
			return nil, true
		}
		if ok {
			return p, false
		}
	}
	return nil, false
}

// hold passes buf[pos:at] on after out and keeps buf[at:] for later.
func (f *secretFilter) hold(out []byte, changed bool, buf []byte, pos, at int) []byte {
	f.pending = append([]byte(nil), buf[at:]...)
	f.passed(buf, at)
	if !changed {
		return buf[:at]
	}
	return append(out, buf[pos:at]...)
}

// passed records that buf[:n] went on: the stream's last byte and the
// length of its current line.
func (f *secretFilter) passed(buf []byte, n int) {
	if n == 0 {
		return
	}
	f.prev = int(buf[n-1])
	if k := bytes.LastIndexByte(buf[:n], '\n'); k >= 0 {
		f.lineLen = n - k - 1
	} else {
		f.lineLen += n
	}
}

// bounded checks a short pattern's token boundaries at buf[start:end]: ok
// when the bytes around it are not word bytes; undecided when the byte
// after it has not been written yet.
func (f *secretFilter) bounded(buf []byte, start, end int, p *secretPattern, final bool) (ok, undecided bool) {
	if p.head {
		before := f.prev
		if start > 0 {
			before = int(buf[start-1])
		}
		if before >= 0 && isWordByte(byte(before)) {
			return false, false
		}
	}
	if p.tail {
		if end == len(buf) {
			return final, !final // the stream's end is a boundary
		}
		if isWordByte(buf[end]) {
			return false, false
		}
	}
	return true, false
}

// partialStart finds the earliest offset at or after pos from which the end
// of view is a proper prefix of some pattern, or -1.
func (f *secretFilter) partialStart(view []byte, pos int) int {
	from := max(pos, len(view)-f.r.maxLen+1)
	for s := from; s < len(view); s++ {
		if f.r.first[view[s]] && f.r.properPrefix(view[s:]) {
			return s
		}
	}
	return -1
}

// A wrapView is a buffer as the patterns are searched in it: without the
// line breaks that follow a line of wrapWidth bytes or more, nor the blanks
// that indent the line after them.
type wrapView struct {
	b []byte // the view; the buffer itself when nothing was cut
	// cuts: from view index at on, total bytes of the buffer were left
	// out before it.
	cuts []wrapCut
	// lastCR: the buffer's last byte, a '\r' after a long line, was left
	// out: it may start a "\r\n" the next write ends, so it is held back
	// whatever the view's end may start.
	lastCR bool
}

type wrapCut struct{ at, total int }

// orig is the buffer's index of the view's byte i.
func (v *wrapView) orig(i int) int {
	k := sort.Search(len(v.cuts), func(k int) bool { return v.cuts[k].at > i }) - 1
	if k < 0 {
		return i
	}
	return i + v.cuts[k].total
}

// origEnd is the buffer's end of a view range that ends at e.
func (v *wrapView) origEnd(e int) int { return v.orig(e-1) + 1 }

// unwrap is buf's view. Unless final, a '\r' that ends buf after a long
// line is left out too: a "\r\n" may be split across writes.
func (f *secretFilter) unwrap(buf []byte, final bool) wrapView {
	if f.r != nil && f.r.raw {
		return wrapView{b: buf}
	}
	v := wrapView{cuts: f.cuts[:0]}
	lineLen := f.lineLen
	copied, total := 0, 0
	cut := func(from, to int) {
		if len(v.cuts) == 0 {
			v.b = f.scratch[:0]
		}
		v.b = append(v.b, buf[copied:from]...)
		total += to - from
		v.cuts = append(v.cuts, wrapCut{at: len(v.b), total: total})
		copied = to
	}
	for i := 0; ; {
		j := bytes.IndexByte(buf[i:], '\n')
		if j < 0 {
			if n := len(buf); !final && n > copied && buf[n-1] == '\r' && lineLen+n-i >= wrapWidth {
				cut(n-1, n)
				v.lastCR = true
			}
			break
		}
		j += i
		if lineLen+j-i >= wrapWidth {
			from, to := j, j+1
			if from > copied && buf[from-1] == '\r' {
				from--
			}
			for to < len(buf) && (buf[to] == ' ' || buf[to] == '\t') {
				to++
			}
			cut(from, to)
		}
		lineLen = 0
		i = j + 1
	}
	if len(v.cuts) == 0 {
		v.b = buf
		return v
	}
	v.b = append(v.b, buf[copied:]...)
	f.scratch, f.cuts = v.b, v.cuts
	return v
}
