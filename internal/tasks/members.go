package tasks

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// A tools/call's params may be as large as a line (16 MiB of arguments):
// the transport reads their top-level members where they lie and writes the
// params it passes on in one buffer of their exact size, so a call costs
// one copy of its params here, never a decoding and an encoding of them.

// objectMember is one top-level member of a JSON object: its key decoded, its
// value's bytes as written (a slice of the object's own, never a copy).
type objectMember struct {
	key   string
	value json.RawMessage
}

// membersOf splits data, a JSON object, into its top-level members, in the
// order written (a key written twice is there twice). It follows only the
// object's structure — the values are checked by whoever decodes them — and
// reports false for anything that is not an object or whose structure is
// broken: such params go on as they are, for the SDK to refuse.
func membersOf(data []byte) ([]objectMember, bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	i = skipSpace(data, i+1)
	out := []objectMember{}
	if i < len(data) && data[i] == '}' {
		return out, skipSpace(data, i+1) == len(data)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, false
		}
		end, ok := stringEnd(data, i)
		if !ok {
			return nil, false
		}
		key, ok := decodeKey(data[i:end])
		if !ok {
			return nil, false
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, false
		}
		i = skipSpace(data, i+1)
		vend, ok := valueEnd(data, i)
		if !ok {
			return nil, false
		}
		out = append(out, objectMember{key: key, value: data[i:vend]})
		i = skipSpace(data, vend)
		switch {
		case i < len(data) && data[i] == ',':
			i = skipSpace(data, i+1)
		case i < len(data) && data[i] == '}':
			return out, skipSpace(data, i+1) == len(data)
		default:
			return nil, false
		}
	}
}

// elementsOf splits data, a JSON array, into its elements' bytes, in
// order (slices of data, never copies); false for anything that is not an
// array or whose structure is broken.
func elementsOf(data []byte) ([]json.RawMessage, bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return nil, false
	}
	i = skipSpace(data, i+1)
	out := []json.RawMessage{}
	if i < len(data) && data[i] == ']' {
		return out, skipSpace(data, i+1) == len(data)
	}
	for {
		end, ok := valueEnd(data, i)
		if !ok {
			return nil, false
		}
		out = append(out, data[i:end])
		i = skipSpace(data, end)
		switch {
		case i < len(data) && data[i] == ',':
			i = skipSpace(data, i+1)
		case i < len(data) && data[i] == ']':
			return out, skipSpace(data, i+1) == len(data)
		default:
			return nil, false
		}
	}
}

// decodeKey is a key's string as Go's decoder reads it (escapes resolved,
// invalid UTF-8 replaced), from its quoted text.
func decodeKey(quoted []byte) (string, bool) {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) && !hasControl(inner) {
		return string(inner), true
	}
	var s string
	if json.Unmarshal(quoted, &s) != nil {
		return "", false
	}
	return s, true
}

func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index just past the string that opens at data[i] (a
// quote): the next quote not escaped, found a block at a time.
func stringEnd(data []byte, i int) (int, bool) {
	j := i + 1
	for {
		q := bytes.IndexByte(data[j:], '"')
		if q < 0 {
			return 0, false
		}
		j += q
		slashes := 0
		for k := j - 1; k > i && data[k] == '\\'; k-- {
			slashes++
		}
		if slashes%2 == 0 {
			return j + 1, true
		}
		j++
	}
}

// valueEnd is the index just past the value that starts at data[i]: a
// string, an object or array (to its matching end, strings skipped whole),
// or a literal (up to what ends it).
func valueEnd(data []byte, i int) (int, bool) {
	if i >= len(data) {
		return 0, false
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		var open []byte
		for j := i; j < len(data); j++ {
			switch c := data[j]; c {
			case '"':
				end, ok := stringEnd(data, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				open = append(open, c)
			case '}', ']':
				if len(open) == 0 || open[len(open)-1] != opener(c) {
					return 0, false
				}
				open = open[:len(open)-1]
				if len(open) == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	case ',', '}', ']', ':':
		return 0, false
	}
	j := i
	for j < len(data) && !endsLiteral(data[j]) {
		j++
	}
	return j, true
}

// opener is the bracket a closing one closes.
func opener(c byte) byte {
	if c == '}' {
		return '{'
	}
	return '['
}

// endsLiteral reports whether c ends a literal (a number, true, false,
// null): what may follow a value, or whitespace.
func endsLiteral(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}
