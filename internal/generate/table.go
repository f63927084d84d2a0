package generate

import "slices"

// table is a lookup table by name, written as a composite literal that
// the compiler lays out in the binary's data. generate's tables were map
// literals, built in package init at every start of the binary — a host
// waiting for initialize paid them, though only generate reads them
// (GODEBUG=inittrace=1: 4.5 KB). A table is a few dozen entries at most,
// read by a walk of a CLI's help, so a scan costs nothing that matters.
type table[V any] []entry[V]

type entry[V any] struct {
	key string
	v   V
}

// get is the value of key, and whether the table has it.
func (t table[V]) get(key string) (V, bool) {
	for _, e := range t {
		if e.key == key {
			return e.v, true
		}
	}
	var zero V
	return zero, false
}

// must is the value of key, which the table has: a key of the package's
// own, not a CLI's word.
func (t table[V]) must(key string) V {
	v, ok := t.get(key)
	if !ok {
		panic("generate: no table entry " + key)
	}
	return v
}

// wordList is a set of words, laid out by the compiler as a table is.
type wordList []string

// has reports whether w is one of ws.
func (ws wordList) has(w string) bool { return slices.Contains(ws, w) }
