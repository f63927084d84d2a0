package generate

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strings"
)

// Diff compares a manifest on disk with a fresh generation, by meaning
// (key order, spacing and number spelling aside), and says each
// difference in words: tools only in one of them, and for a tool in both
// each field that differs, params matched by name. Empty when they agree.
func Diff(onDisk, fresh []byte) ([]string, error) {
	a, err := decodeJSON(onDisk)
	if err != nil {
		return nil, fmt.Errorf("the manifest is not JSON: %w", err)
	}
	b, err := decodeJSON(fresh)
	if err != nil {
		return nil, err
	}
	am, _ := a.(map[string]any)
	bm, _ := b.(map[string]any)
	if am == nil {
		return []string{"the manifest is not a JSON object"}, nil
	}
	var out []string
	for _, k := range unionKeys(am, bm) {
		if k == "tools" || k == "$schema" {
			continue
		}
		out = append(out, diffValue(k, am[k], bm[k])...)
	}
	at, bt := toolsByName(am["tools"]), toolsByName(bm["tools"])
	for _, name := range unionKeys(at, bt) {
		switch {
		case at[name] == nil:
			out = append(out, fmt.Sprintf("tool %s: only in a fresh generation (new in the CLI or the overrides)", name))
		case bt[name] == nil:
			out = append(out, fmt.Sprintf("tool %s: only in the manifest (gone from the CLI, or left out by the overrides)", name))
		default:
			for _, d := range diffValue("", at[name], bt[name]) {
				out = append(out, fmt.Sprintf("tool %s: %s", name, d))
			}
		}
	}
	return out, nil
}

func toolsByName(v any) map[string]any {
	out := map[string]any{}
	list, _ := v.([]any)
	for i, t := range list {
		obj, _ := t.(map[string]any)
		name, _ := obj["name"].(string)
		if name == "" {
			name = fmt.Sprintf("#%d (no name)", i)
		}
		out[name] = t
	}
	return out
}

func unionKeys[V any](a, b map[string]V) []string {
	set := map[string]bool{}
	for k := range a {
		set[k] = true
	}
	for k := range b {
		set[k] = true
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return lessKey(keys[i], keys[j]) })
	return keys
}

// diffValue says where a (on disk) and b (fresh) differ, below path.
func diffValue(path string, a, b any) []string {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		var out []string
		for _, k := range unionKeys(am, bm) {
			out = append(out, diffValue(join(path, k), am[k], bm[k])...)
		}
		return out
	}
	if al, bl, ok := namedLists(a, b); ok {
		var out []string
		if !sameOrder(a.([]any), b.([]any)) {
			out = append(out, fmt.Sprintf("%s: the order differs: the manifest has %s, a fresh generation %s", path, nameList(a), nameList(b)))
		}
		for _, n := range unionKeys(al, bl) {
			out = append(out, diffValue(fmt.Sprintf("%s[%s]", path, n), al[n], bl[n])...)
		}
		return out
	}
	if equal(a, b) {
		return nil
	}
	switch {
	case a == nil:
		return []string{fmt.Sprintf("%s: not in the manifest; a fresh generation has %s", path, short(b))}
	case b == nil:
		return []string{fmt.Sprintf("%s: the manifest has %s; a fresh generation has none", path, short(a))}
	}
	return []string{fmt.Sprintf("%s: the manifest has %s; a fresh generation has %s", path, short(a), short(b))}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// namedLists reads two lists of objects with names (params) as maps.
func namedLists(a, b any) (map[string]any, map[string]any, bool) {
	byName := func(v any) (map[string]any, bool) {
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return nil, false
		}
		out := map[string]any{}
		for _, e := range list {
			obj, _ := e.(map[string]any)
			n, ok := obj["name"].(string)
			if !ok {
				return nil, false
			}
			out[n] = e
		}
		return out, len(out) == len(list)
	}
	am, aok := byName(a)
	bm, bok := byName(b)
	return am, bm, aok && bok
}

func sameOrder(a, b []any) bool {
	var an, bn []string
	for _, e := range a {
		an = append(an, e.(map[string]any)["name"].(string))
	}
	for _, e := range b {
		bn = append(bn, e.(map[string]any)["name"].(string))
	}
	common := func(x, y []string) []string {
		var out []string
		for _, n := range x {
			for _, m := range y {
				if n == m {
					out = append(out, n)
				}
			}
		}
		return out
	}
	return strings.Join(common(an, bn), ",") == strings.Join(common(bn, an), ",")
}

func nameList(v any) string {
	var names []string
	for _, e := range v.([]any) {
		names = append(names, e.(map[string]any)["name"].(string))
	}
	return strings.Join(names, ", ")
}

// equal compares JSON values, numbers by value (1 and 1.0 agree).
func equal(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		rx, ok1 := new(big.Rat).SetString(x.String())
		ry, ok2 := new(big.Rat).SetString(y.String())
		return ok1 && ok2 && rx.Cmp(ry) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	}
	return a == b
}

// short is a value as a difference shows it: compact, within 120
// characters.
func short(v any) string {
	s := compact(v)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:117]) + "…"
	}
	return s
}
