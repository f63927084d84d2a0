package annotations

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// The cache's binary form of a Manifest: every exported field of every
// type it holds, in declaration order, walked once by reflection into a
// codec per type — so a field added to a manifest type is cached without a
// line here, and the types' shape is part of the key (typesFingerprint).
// Unexported fields are derived state that [Manifest.restore] rebuilds
// (and the input schemas, written after the manifest); any other
// unexported field is refused, and the cache turns itself off.
//
// Integers are varints; a string is its length and bytes; a slice or map
// is its length plus one (0 is nil, so nil and empty stay apart); a
// pointer is a presence byte; map keys are sorted. A value of type any
// (enum values, defaults, matches) is a tag and its value: what the parser
// stores there — nil, bools, strings, json.Number, float64, and lists and
// objects of those.

// derived are the unexported fields restore (or readCache) rebuilds, and
// Tool.builtin, false for every tool a manifest loads.
var derived = map[string]bool{
	"Tool.cli": true, "Tool.schemaJSON": true, "Tool.schemaMu": true, "Tool.schema": true, "Tool.byName": true,
	"Tool.builtin":  true,
	"Param.pattern": true,
}

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
	maps    []reflect.Value
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

type codec struct {
	enc func(*encoder, reflect.Value) error
	dec func(*decoder, reflect.Value)
}

var manifestCodecs = sync.OnceValues(func() (*codec, string) {
	var fp strings.Builder
	c, err := compileCodec(reflect.TypeFor[Manifest](), map[reflect.Type]*codec{}, &fp)
	if err != nil {
		// A type the codec does not know: no cache, and TestCache_CoversTheTypes says why.
		return &codec{
			enc: func(*encoder, reflect.Value) error { return err },
			dec: func(d *decoder, _ reflect.Value) { d.fail("%v", err) },
		}, "unsupported: " + err.Error()
	}
	return c, fp.String()
})

func manifestCodec() *codec { c, _ := manifestCodecs(); return c }

// typesFingerprint is the shape of the Go types the codec walks: a file
// written from other types is foreign.
func typesFingerprint() string { _, fp := manifestCodecs(); return fp }

var anyType = reflect.TypeFor[any]()

// compileCodec builds t's codec, writing t's shape to fp.
func compileCodec(t reflect.Type, seen map[reflect.Type]*codec, fp *strings.Builder) (*codec, error) {
	if c, ok := seen[t]; ok {
		fp.WriteString(t.String())
		return c, nil
	}
	fp.WriteString(t.Kind().String())
	switch t.Kind() {
	case reflect.String:
		return &codec{
			enc: func(e *encoder, v reflect.Value) error { e.str(v.String()); return nil },
			dec: func(d *decoder, v reflect.Value) { v.SetString(d.str()) },
		}, nil
	case reflect.Bool:
		return &codec{
			enc: func(e *encoder, v reflect.Value) error { e.b = append(e.b, boolByte(v.Bool())); return nil },
			dec: func(d *decoder, v reflect.Value) { v.SetBool(d.byte() == 1) },
		}, nil
	case reflect.Int, reflect.Int64:
		return &codec{
			enc: func(e *encoder, v reflect.Value) error { e.varint(v.Int()); return nil },
			dec: func(d *decoder, v reflect.Value) { v.SetInt(d.varint()) },
		}, nil
	case reflect.Float64:
		return &codec{
			enc: func(e *encoder, v reflect.Value) error { e.uvarint(math.Float64bits(v.Float())); return nil },
			dec: func(d *decoder, v reflect.Value) { v.SetFloat(math.Float64frombits(d.uvarint())) },
		}, nil
	case reflect.Interface:
		if t != anyType {
			return nil, fmt.Errorf("the interface %s", t)
		}
		return &codec{
			enc: func(e *encoder, v reflect.Value) error { return encodeAny(e, v.Interface()) },
			dec: func(d *decoder, v reflect.Value) {
				if x := decodeAny(d); x != nil {
					v.Set(reflect.ValueOf(x))
				}
			},
		}, nil
	case reflect.Pointer:
		return compilePointer(t, seen, fp)
	case reflect.Slice:
		return compileSlice(t, seen, fp)
	case reflect.Map:
		return compileMap(t, seen, fp)
	case reflect.Struct:
		return compileStruct(t, seen, fp)
	}
	return nil, fmt.Errorf("the type %s", t)
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func compilePointer(t reflect.Type, seen map[reflect.Type]*codec, fp *strings.Builder) (*codec, error) {
	elem, err := compileCodec(t.Elem(), seen, fp)
	if err != nil {
		return nil, err
	}
	return &codec{
		enc: func(e *encoder, v reflect.Value) error {
			if v.IsNil() {
				e.b = append(e.b, 0)
				return nil
			}
			e.b = append(e.b, 1)
			return elem.enc(e, v.Elem())
		},
		dec: func(d *decoder, v reflect.Value) {
			if d.byte() == 1 {
				p := reflect.New(t.Elem())
				elem.dec(d, p.Elem())
				v.Set(p)
			}
		},
	}, nil
}

func compileSlice(t reflect.Type, seen map[reflect.Type]*codec, fp *strings.Builder) (*codec, error) {
	elem, err := compileCodec(t.Elem(), seen, fp)
	if err != nil {
		return nil, err
	}
	return &codec{
		enc: func(e *encoder, v reflect.Value) error {
			if v.IsNil() {
				e.uvarint(0)
				return nil
			}
			e.uvarint(uint64(v.Len()) + 1)
			for i := range v.Len() {
				if err := elem.enc(e, v.Index(i)); err != nil {
					return err
				}
			}
			return nil
		},
		dec: func(d *decoder, v reflect.Value) {
			n := d.length()
			if n == 0 {
				return
			}
			s := reflect.MakeSlice(t, n-1, n-1)
			for i := range n - 1 {
				elem.dec(d, s.Index(i))
			}
			v.Set(s)
		},
	}, nil
}

func compileMap(t reflect.Type, seen map[reflect.Type]*codec, fp *strings.Builder) (*codec, error) {
	fp.WriteByte('[')
	key, err := compileCodec(t.Key(), seen, fp)
	if err != nil {
		return nil, err
	}
	fp.WriteByte(']')
	elem, err := compileCodec(t.Elem(), seen, fp)
	if err != nil {
		return nil, err
	}
	contents := func(e *encoder, v reflect.Value) error {
		e.uvarint(uint64(v.Len()))
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			if a.Kind() == reflect.String {
				return strings.Compare(a.String(), b.String())
			}
			return cmp.Compare(a.Int(), b.Int())
		})
		for _, k := range keys {
			if err := key.enc(e, k); err != nil {
				return err
			}
			if err := elem.enc(e, v.MapIndex(k)); err != nil {
				return err
			}
		}
		return nil
	}
	// A map is 0 (nil), 1 and its contents (a new map, the next id), or
	// its id plus 2 (the same map as one written before).
	return &codec{
		enc: func(e *encoder, v reflect.Value) error {
			if v.IsNil() {
				e.uvarint(0)
				return nil
			}
			if e.maps == nil {
				e.uvarint(1)
				return contents(e, v)
			}
			spelt := &encoder{index: e.index, strings: e.strings}
			if err := contents(spelt, v); err != nil {
				return err
			}
			e.strings = spelt.strings
			id, seen := e.maps[t.String()+"\x00"+string(spelt.b)]
			if seen {
				e.uvarint(id + 2)
				return nil
			}
			e.uvarint(1)
			if err := contents(e, v); err != nil {
				return err
			}
			e.maps[t.String()+"\x00"+string(spelt.b)] = uint64(len(e.maps))
			return nil
		},
		dec: func(d *decoder, v reflect.Value) {
			switch tag := d.uvarint(); tag {
			case 0:
			case 1:
				n := d.length()
				m := reflect.MakeMapWithSize(t, n)
				for range n {
					k, x := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
					key.dec(d, k)
					elem.dec(d, x)
					m.SetMapIndex(k, x)
				}
				d.maps = append(d.maps, m)
				v.Set(m)
			default:
				if tag-2 >= uint64(len(d.maps)) || d.maps[tag-2].Type() != t {
					d.fail("a reference to no map of its type")
					return
				}
				v.Set(d.maps[tag-2])
			}
		},
	}, nil
}

func compileStruct(t reflect.Type, seen map[reflect.Type]*codec, fp *strings.Builder) (*codec, error) {
	c := &codec{}
	seen[t] = c
	fp.WriteString(t.String() + "{")
	type field struct {
		index int
		codec *codec
	}
	var fields []field
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			if !derived[t.Name()+"."+f.Name] {
				return nil, fmt.Errorf("the unexported field %s.%s (add it to restore and derived)", t.Name(), f.Name)
			}
			continue
		}
		fp.WriteString(f.Name + ":")
		fc, err := compileCodec(f.Type, seen, fp)
		if err != nil {
			return nil, err
		}
		fp.WriteByte(',')
		fields = append(fields, field{i, fc})
	}
	fp.WriteByte('}')
	c.enc = func(e *encoder, v reflect.Value) error {
		for _, f := range fields {
			if err := f.codec.enc(e, v.Field(f.index)); err != nil {
				return err
			}
		}
		return nil
	}
	c.dec = func(d *decoder, v reflect.Value) {
		for _, f := range fields {
			f.codec.dec(d, v.Field(f.index))
		}
	}
	return c, nil
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
