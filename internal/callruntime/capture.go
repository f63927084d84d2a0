package callruntime

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultOutputCap is the per-stream capture bound used when a [Spec] leaves
// MaxStdout or MaxStderr zero.
const DefaultOutputCap = 1 << 20

// Output is what was kept of one stream: the first and the last bytes, and
// how many there were in all. A stream that fit within its cap is all in
// Head. The bytes are as the process wrote them (after the [Spec.Filter]);
// [Output.Text] makes them valid UTF-8.
type Output struct {
	Head  []byte
	Tail  []byte
	Total int64 // bytes the stream carried, kept or not
}

// Omitted reports how many bytes were dropped between Head and Tail.
func (o Output) Omitted() int64 { return o.Total - int64(len(o.Head)) - int64(len(o.Tail)) }

// Text returns the kept output as valid UTF-8 (invalid sequences become
// U+FFFD, never dropped). When bytes were omitted, marker(omitted) is put
// between head and tail; a nil marker gives a plain English one. The text
// is built in one allocation of its exact size: a capture of tens of
// megabytes is copied once.
func (o Output) Text(marker func(omitted int64) string) string {
	var m string
	if o.Omitted() > 0 {
		if marker == nil {
			marker = defaultMarker
		}
		m = marker(o.Omitted())
	}
	return JoinValid(o.Head, m, o.Tail)
}

// JoinValid is a, then m, then b, as one string of valid UTF-8 (invalid
// sequences of a and b become U+FFFD), built in one allocation.
func JoinValid(a []byte, m string, b []byte) string {
	if utf8.Valid(a) && utf8.Valid(b) {
		var sb strings.Builder
		sb.Grow(len(a) + len(m) + len(b))
		sb.Write(a)
		sb.WriteString(m)
		sb.Write(b)
		return sb.String()
	}
	return strings.ToValidUTF8(string(a), string(utf8.RuneError)) + m + strings.ToValidUTF8(string(b), string(utf8.RuneError))
}

func defaultMarker(n int64) string {
	return "\n[… " + strconv.FormatInt(n, 10) + " bytes omitted …]\n"
}

// headTail keeps the first and the last max/2 bytes written to it, in the
// spirit of os/exec's prefixSuffixSaver: memory stays bounded whatever the
// process writes, and the end of a log (where errors are) is never lost.
type headTail struct {
	headMax, tailMax int
	head             []byte
	tail             []byte // ring buffer once full
	tailPos          int    // next write position in the ring
	total            int64
}

func newHeadTail(max int) *headTail {
	if max <= 0 {
		max = DefaultOutputCap
	}
	return &headTail{headMax: max - max/2, tailMax: max / 2}
}

func (h *headTail) Write(p []byte) {
	h.total += int64(len(p))
	if room := h.headMax - len(h.head); room > 0 {
		n := min(room, len(p))
		h.head = appendCapped(h.head, p[:n], h.headMax)
		p = p[n:]
	}
	if h.tailMax == 0 || len(p) == 0 {
		return
	}
	if h.tail == nil {
		// The head is full: the stream is at least as long as the tail
		// will be, so the ring is made at its size once, never regrown.
		h.tail = make([]byte, 0, h.tailMax)
	}
	if len(p) >= h.tailMax {
		// The write alone fills the tail: keep its end.
		h.tail = append(h.tail[:0], p[len(p)-h.tailMax:]...)
		h.tailPos = 0
		return
	}
	if len(h.tail) < h.tailMax {
		room := h.tailMax - len(h.tail)
		n := min(room, len(p))
		h.tail = append(h.tail, p[:n]...)
		p = p[n:]
		if len(p) == 0 {
			return
		}
	}
	// The ring is full: overwrite the oldest bytes.
	for len(p) > 0 {
		n := copy(h.tail[h.tailPos:], p)
		p = p[n:]
		h.tailPos = (h.tailPos + n) % h.tailMax
	}
}

// appendCapped appends p to b, growing b by doubling but never beyond max:
// a capture of max bytes leaves less garbage behind, and holds no more than
// it keeps.
func appendCapped(b, p []byte, limit int) []byte {
	if need := len(b) + len(p); need > cap(b) {
		grown := make([]byte, len(b), min(limit, max(need, 2*cap(b), 4096)))
		copy(grown, b)
		b = grown
	}
	return append(b, p...)
}

// output is what was kept. It puts the ring in order in place (it is
// called once, when the stream has ended): no second copy of the tail.
func (h *headTail) output() Output {
	o := Output{Head: h.head, Total: h.total}
	if len(h.tail) > 0 {
		rotate(h.tail, h.tailPos)
		h.tailPos = 0
		o.Tail = h.tail
	}
	return o
}

// rotate turns b left by k in place: b[k:] then b[:k].
func rotate(b []byte, k int) {
	if k == 0 || k == len(b) {
		return
	}
	slices.Reverse(b[:k])
	slices.Reverse(b[k:])
	slices.Reverse(b)
}
