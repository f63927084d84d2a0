package annotations

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
)

// The parser reads a manifest decoded once into plain values — objects as
// map[string]any, lists as []any, numbers as json.Number (exact), strings,
// booleans, nil — and takes each field from there. Decoding each object
// again at every level, as json.RawMessage would, made a 300-tool manifest
// load in 14 times the time of one decode.

// decodeTree decodes a whole manifest. Any error is the one json.Unmarshal
// gives for the same bytes (a *json.SyntaxError carries the offset the
// line and column are computed from), whatever the decoder's own wording.
func decodeTree(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) == 0 {
			return v, nil
		}
	}
	var raw json.RawMessage
	if uerr := json.Unmarshal(data, &raw); uerr != nil {
		return nil, uerr
	}
	if err == nil {
		err = errors.New("data after the manifest")
	}
	return nil, err
}

// assign stores a decoded value in *dst when it has dst's type, as
// json.Unmarshal into dst would — except that null is never a value (a key
// given as null is a mistake, not an absence) — and reports whether it did.
// dst is one of the types the parser reads fields into.
func assign(v any, dst any) bool {
	if v == nil {
		return false
	}
	switch d := dst.(type) {
	case *string:
		s, ok := v.(string)
		*d = s
		return ok
	case *bool:
		b, ok := v.(bool)
		*d = b
		return ok
	case *int:
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || i < math.MinInt || i > math.MaxInt {
			return false
		}
		*d = int(i)
		return true
	case *float64:
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		f, err := strconv.ParseFloat(string(n), 64)
		*d = f
		return err == nil
	case *[]string:
		list, ok := v.([]any)
		if !ok {
			return false
		}
		out := make([]string, len(list))
		for i, e := range list {
			if !assign(e, &out[i]) {
				return false
			}
		}
		*d = out
		return true
	case *[][]string:
		list, ok := v.([]any)
		if !ok {
			return false
		}
		out := make([][]string, len(list))
		for i, e := range list {
			if !assign(e, &out[i]) {
				return false
			}
		}
		*d = out
		return true
	case *map[string]string:
		obj, ok := v.(map[string]any)
		if !ok {
			return false
		}
		out := make(map[string]string, len(obj))
		for k, e := range obj {
			var s string
			if !assign(e, &s) {
				return false
			}
			out[k] = s
		}
		*d = out
		return true
	case *[]any:
		list, ok := v.([]any)
		*d = list
		return ok
	case *map[string]any:
		obj, ok := v.(map[string]any)
		*d = obj
		return ok
	}
	panic("annotations: assign into an unsupported type")
}

// plainNumbers is v with every number a float64, as json.Unmarshal into an
// any gives it (enum values and defaults are kept so); an error for a
// number a float64 cannot hold.
func plainNumbers(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		return strconv.ParseFloat(string(x), 64)
	case []any:
		if x == nil {
			return nil, nil
		}
		out := make([]any, len(x))
		for i, e := range x {
			var err error
			if out[i], err = plainNumbers(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			var err error
			if out[k], err = plainNumbers(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return v, nil
}
