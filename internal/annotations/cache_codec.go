package annotations

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
)

//go:generate go test -tags regen_codec -run TestCacheCodec_Generated . -args -update

// The cache's binary form of a Manifest: every exported field of every
// type it holds, in declaration order, by a codec generated from the types
// (cache_codec_gen.go, rewritten by TestCacheCodec_Generated -update, which
// fails while it is stale) — a start builds nothing by reflection, and the
// types' shape is part of the key (typesFingerprint). Unexported fields are
// derived state that [Manifest.restore] rebuilds (and the input schemas,
// written after the manifest); the generator refuses any other.
//
// Integers are varints; a string is its length and bytes; a slice or map
// is its length plus one (0 is nil, so nil and empty stay apart); a
// pointer is a presence byte; map keys are sorted. A value of type any
// (enum values, defaults, matches) is a tag and its value: what the parser
// stores there — nil, bools, strings, json.Number, float64, and lists and
// objects of those.

// encoder writes a body in which every string is an index into a table of
// the distinct strings: a manifest repeats the cli's hints, shared params
// and help in every tool, and the table keeps one copy of each.
//
// Maps are written once too: every tool holds the cli's exit and error
// codes (copies the parser made), and a map equal to one written before is
// a reference to it; the decoded tools share it (nothing writes to a
// manifest's maps after Parse).
type encoder struct {
	b       []byte
	index   map[string]uint64
	strings []string
	// maps are the ids of the maps written so far, by their contents;
	// nil in an encoder that only spells a map's contents out.
	maps map[string]uint64
}

func (e *encoder) uvarint(n uint64) { e.b = binary.AppendUvarint(e.b, n) }
func (e *encoder) varint(n int64)   { e.b = binary.AppendVarint(e.b, n) }

func (e *encoder) str(s string) {
	i, ok := e.index[s]
	if !ok {
		if e.index == nil {
			e.index = map[string]uint64{}
		}
		i = uint64(len(e.strings))
		e.index[s] = i
		e.strings = append(e.strings, s)
	}
	e.uvarint(i)
}

// table is the string table, to be written before the body.
func (e *encoder) table(out []byte) []byte {
	out = binary.AppendUvarint(out, uint64(len(e.strings)))
	for _, s := range e.strings {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return out
}

// decoder reads s from i; the first problem stops it (every read after it
// returns zero values) and is kept in err. strings is the table str reads
// from.
type decoder struct {
	s       string
	i       int
	err     error
	strings []string
	// maps are the maps read so far, each a map[K]V, for references.
	maps []any
	// lateFile is what the head, the sections and the details part of
	// the file share (late).
	lateFile *lateFile
}

// readTable reads the string table: substrings of s, never copies.
func (d *decoder) readTable() {
	n := d.length()
	d.strings = make([]string, n)
	for i := range d.strings {
		d.strings[i] = d.raw()
	}
}

func (d *decoder) fail(format string, a ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("corrupt manifest cache at byte %d: %s", d.i, fmt.Sprintf(format, a...))
	}
	d.i = len(d.s)
}

func (d *decoder) uvarint() uint64 {
	n, k := uvarintString(d.s[d.i:])
	if k <= 0 {
		d.fail("a bad number")
		return 0
	}
	d.i += k
	return n
}

func (d *decoder) varint() int64 {
	u := d.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// length reads a length of at most what is left (each element takes a
// byte at least), so a corrupt length never allocates past the file.
func (d *decoder) length() int {
	n := d.uvarint()
	if n > uint64(len(d.s)-d.i) {
		d.fail("a length past the end")
		return 0
	}
	return int(n)
}

// raw reads a string written whole.
func (d *decoder) raw() string {
	n := d.length()
	s := d.s[d.i : d.i+n]
	d.i += n
	return s
}

// str reads a string of the table.
func (d *decoder) str() string {
	i := d.uvarint()
	if i >= uint64(len(d.strings)) {
		if d.err == nil {
			d.fail("a string past the table")
		}
		return ""
	}
	return d.strings[i]
}

func (d *decoder) byte() byte {
	if d.i >= len(d.s) {
		d.fail("the end of the file")
		return 0
	}
	b := d.s[d.i]
	d.i++
	return b
}

// uvarintString is binary.Uvarint over a string.
func uvarintString(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		b := s[i]
		if b < 0x80 {
			if i == binary.MaxVarintLen64-1 && b > 1 {
				return 0, -1
			}
			return x | uint64(b)<<shift, i + 1
		}
		x |= uint64(b&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// encPointer and decPointer are a pointer's codec: a presence byte, and
// the value it points to.
func encPointer[T any](e *encoder, p *T, elem func(*encoder, *T) error) error {
	if p == nil {
		e.b = append(e.b, 0)
		return nil
	}
	e.b = append(e.b, 1)
	return elem(e, p)
}

func decPointer[T any](d *decoder, elem func(*decoder, *T)) *T {
	if d.byte() != 1 {
		return nil
	}
	p := new(T)
	elem(d, p)
	return p
}

// encSlice and decSlice are a slice's codec: its length plus one (0 is
// nil), and its elements.
func encSlice[T any](e *encoder, s []T, elem func(*encoder, *T) error) error {
	if s == nil {
		e.uvarint(0)
		return nil
	}
	e.uvarint(uint64(len(s)) + 1)
	for i := range s {
		if err := elem(e, &s[i]); err != nil {
			return err
		}
	}
	return nil
}

func decSlice[T any](d *decoder, elem func(*decoder, *T)) []T {
	n := d.length()
	if n == 0 {
		return nil
	}
	s := make([]T, n-1)
	for i := range s {
		elem(d, &s[i])
	}
	return s
}

// encMap and decMap are a map's codec: 0 (nil), 1 and its contents (a new
// map, the next id), or its id plus 2 (the same map as one written
// before). typ names the map's type, so that equal contents of two types
// stay two maps.
func encMap[K cmp.Ordered, V any](e *encoder, typ string, m map[K]V, key func(*encoder, *K) error, elem func(*encoder, *V) error) error {
	if m == nil {
		e.uvarint(0)
		return nil
	}
	contents := func(e *encoder) error {
		e.uvarint(uint64(len(m)))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if err := key(e, &k); err != nil {
				return err
			}
			v := m[k]
			if err := elem(e, &v); err != nil {
				return err
			}
		}
		return nil
	}
	if e.maps == nil {
		e.uvarint(1)
		return contents(e)
	}
	spelt := &encoder{index: e.index, strings: e.strings}
	if err := contents(spelt); err != nil {
		return err
	}
	e.strings = spelt.strings
	id, seen := e.maps[typ+"\x00"+string(spelt.b)]
	if seen {
		e.uvarint(id + 2)
		return nil
	}
	e.uvarint(1)
	if err := contents(e); err != nil {
		return err
	}
	e.maps[typ+"\x00"+string(spelt.b)] = uint64(len(e.maps))
	return nil
}

func decMap[K cmp.Ordered, V any](d *decoder, key func(*decoder, *K), elem func(*decoder, *V)) map[K]V {
	switch tag := d.uvarint(); tag {
	case 0:
		return nil
	case 1:
		n := d.length()
		m := make(map[K]V, n)
		for range n {
			var k K
			var v V
			key(d, &k)
			elem(d, &v)
			m[k] = v
		}
		d.maps = append(d.maps, m)
		return m
	default:
		if tag-2 < uint64(len(d.maps)) {
			if m, ok := d.maps[tag-2].(map[K]V); ok {
				return m
			}
		}
		d.fail("a reference to no map of its type")
		return nil
	}
}

// Tags of a value of type any.
const (
	anyNil byte = iota
	anyFalse
	anyTrue
	anyString
	anyNumber // json.Number
	anyFloat
	anyList
	anyObject
)

func encodeAny(e *encoder, x any) error {
	switch x := x.(type) {
	case nil:
		e.b = append(e.b, anyNil)
	case bool:
		e.b = append(e.b, anyFalse+boolByte(x))
	case string:
		e.b = append(e.b, anyString)
		e.str(x)
	case json.Number:
		e.b = append(e.b, anyNumber)
		e.str(string(x))
	case float64:
		e.b = append(e.b, anyFloat)
		e.uvarint(math.Float64bits(x))
	case []any:
		e.b = append(e.b, anyList)
		e.uvarint(uint64(len(x)))
		for _, y := range x {
			if err := encodeAny(e, y); err != nil {
				return err
			}
		}
	case map[string]any:
		e.b = append(e.b, anyObject)
		e.uvarint(uint64(len(x)))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			e.str(k)
			if err := encodeAny(e, x[k]); err != nil {
				return err
			}
		}
	default:
		return errors.New("a value of type " + fmt.Sprintf("%T", x))
	}
	return nil
}

func decodeAny(d *decoder) any {
	switch tag := d.byte(); tag {
	case anyNil:
		return nil
	case anyFalse, anyTrue:
		return tag == anyTrue
	case anyString:
		return d.str()
	case anyNumber:
		return json.Number(d.str())
	case anyFloat:
		return math.Float64frombits(d.uvarint())
	case anyList:
		n := d.length()
		x := make([]any, n)
		for i := range x {
			x[i] = decodeAny(d)
		}
		return x
	case anyObject:
		n := d.length()
		x := make(map[string]any, n)
		for range n {
			k := d.str()
			x[k] = decodeAny(d)
		}
		return x
	default:
		d.fail("a value tagged %d", tag)
		return nil
	}
}
