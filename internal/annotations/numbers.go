package annotations

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Numbers arrive as JSON text and leave as argv text. In between they are
// held exactly — as the json.Number the client wrote — never as a float64,
// which would turn 9007199254740993 into 9007199254740992 and 1e-400 into 0.

// maxNumberText bounds a number's JSON text, and maxExponent its exponent: a
// number past either is refused before anything computes with it ("1e999999999"
// is valid JSON).
const (
	maxNumberText = 400
	maxExponent   = 10000
)

// exactNumber reads a JSON number exactly: a json.Number (as decoded with
// UseNumber) or a Go number (values built in-process, manifest defaults).
func exactNumber(v any) (*big.Rat, error) {
	r := new(big.Rat)
	switch n := v.(type) {
	case json.Number:
		s := n.String()
		if len(s) > maxNumberText {
			return nil, fmt.Errorf("is too long a number (%d digits)", len(s))
		}
		if i := strings.IndexAny(s, "eE"); i >= 0 {
			if exp, err := strconv.Atoi(s[i+1:]); err != nil || exp > maxExponent || exp < -maxExponent {
				return nil, fmt.Errorf("has an exponent out of range (%s)", s)
			}
		}
		if _, ok := r.SetString(s); !ok {
			return nil, fmt.Errorf("is not a number (%s)", s)
		}
	case float64:
		if math.IsInf(n, 0) || math.IsNaN(n) {
			return nil, fmt.Errorf("must be a finite number")
		}
		r.SetFloat64(n)
	case int:
		r.SetInt64(int64(n))
	case int64:
		r.SetInt64(n)
	default:
		return nil, errNotNumber
	}
	return r, nil
}

var errNotNumber = fmt.Errorf("not a number")

// numberText is how a number goes on the command line. An integer is its
// digits, without fraction or exponent (2025.0 and 2.025e3 are 2025), as
// CLIs parse integers; any other number is the client's own JSON text, which
// every CLI's float parser reads back to the same value.
func numberText(typ string, v any) (string, error) {
	r, err := exactNumber(v)
	if err != nil {
		return "", err
	}
	if typ == "integer" {
		if !r.IsInt() {
			return "", fmt.Errorf("must be an integer")
		}
		return r.Num().String(), nil
	}
	switch n := v.(type) {
	case json.Number:
		return n.String(), nil
	case float64:
		return strconv.FormatFloat(n, 'g', -1, 64), nil
	}
	return r.RatString(), nil
}

// sameValue compares an argument with an enum value: numbers by value
// (2025 equals 2025.0), anything else by its text.
func sameValue(enum, v any) bool {
	a, errA := exactNumber(enum)
	b, errB := exactNumber(v)
	if errA == nil && errB == nil {
		return a.Cmp(b) == 0
	}
	return fmt.Sprint(enum) == fmt.Sprint(v)
}
