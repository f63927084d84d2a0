package annotations

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// agreeManifest has a tool with every constraint the input schema can say.
const agreeManifest = `{"version": 1, "cli": {"command": "x",
  "params": [{"name": "profile", "type": "string", "flag": "--profile", "minLength": 1}]},
  "tools": [{"name": "t", "title": "T", "description": "D", "command": ["x"],
  "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
  "params": [
    {"name": "year", "type": "integer", "flag": "--year", "minimum": 2000, "maximum": 2099, "requires": ["period"]},
    {"name": "period", "type": "string", "flag": "--period", "pattern": "^(0A|[1-4]T)$"},
    {"name": "kind", "type": "string", "flag": "--kind", "enum": ["a", "b"]},
    {"name": "code", "type": "integer", "flag": "--code", "enum": [1, 2, 3]},
    {"name": "ratio", "type": "number", "flag": "--ratio", "minimum": -1.5, "maximum": 1e6},
    {"name": "note", "type": "string", "flag": "--note", "minLength": 2, "maxLength": 5},
    {"name": "dry", "type": "boolean", "flag": "--dry"},
    {"name": "tags", "type": "array", "items": "string", "flag": "--tag", "pattern": "^[a-z]+$", "maxLength": 4},
    {"name": "ids", "type": "array", "items": "integer", "flag": "--id", "minimum": 1},
    {"name": "limit", "type": "integer", "flag": "--limit", "default": 5, "minimum": 1},
    {"name": "entry", "type": "string", "positional": true, "required": true}
  ]}]}`

// FuzzValidateAgrees holds Validate to a JSON Schema validator's verdict on
// the tool's own input schema (what the host was told): Validate accepts
// exactly what the schema accepts. Where they differ by design it skips:
// numbers a float64 cannot hold exactly (Validate is exact, the validator
// is not) and strings with a NUL byte (no command line carries one).
func FuzzValidateAgrees(f *testing.F) {
	m, err := Parse([]byte(agreeManifest), "")
	if err != nil {
		f.Fatal(err)
	}
	tl := m.Tools[0]
	rs, err := tl.InputSchema().CloneSchemas().Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		`{"entry": "e"}`, `{}`, `{"entry": 1}`, `{"entry": "e", "zz": 1}`, `[]`, `null`, `"x"`,
		`{"entry": "e", "year": 2025, "period": "1T"}`, `{"entry": "e", "year": 2025}`, `{"entry": "e", "period": "5T"}`,
		`{"entry": "e", "year": 1999, "period": "0A"}`, `{"entry": "e", "year": 2025.0, "period": "0A"}`, `{"entry": "e", "year": 2025.5, "period": "0A"}`,
		`{"entry": "e", "kind": "c"}`, `{"entry": "e", "kind": "a"}`, `{"entry": "e", "code": 2.0}`, `{"entry": "e", "code": 4}`,
		`{"entry": "e", "ratio": -1.5}`, `{"entry": "e", "ratio": -1.6}`, `{"entry": "e", "ratio": 1e6}`, `{"entry": "e", "ratio": "1"}`,
		`{"entry": "e", "note": "é"}`, `{"entry": "e", "note": "éé"}`, `{"entry": "e", "note": "abcdef"}`,
		`{"entry": "e", "dry": 1}`, `{"entry": "e", "dry": false}`, `{"entry": "e", "tags": ["ab", "c"]}`, `{"entry": "e", "tags": ["AB"]}`,
		`{"entry": "e", "tags": ["abcde"]}`, `{"entry": "e", "tags": "ab"}`, `{"entry": "e", "ids": [1, 0]}`, `{"entry": "e", "ids": [1.5]}`,
		`{"entry": "e", "limit": 0}`, `{"entry": "e", "limit": null}`, `{"entry": "e", "profile": ""}`, `{"entry": "e", "profile": "p"}`,
		`{"entry": ""}`, `{"entry": "e", "year": 20250, "period": "1T"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var v any
		if decodeExact(raw, &v) != nil {
			if _, err := tl.Validate(raw); err == nil && len(strings.TrimSpace(string(raw))) > 0 {
				t.Fatalf("Validate accepted what is not JSON: %q", raw)
			}
			return
		}
		if !comparable(v) {
			return
		}
		_, ours := tl.Validate(raw)
		obj, isObj := v.(map[string]any)
		if v == nil {
			obj, isObj = map[string]any{}, true // Validate reads null as no arguments
		}
		if !isObj {
			if ours == nil {
				t.Fatalf("Validate accepted a non-object: %s", raw)
			}
			return
		}
		theirs := rs.Validate(floatsForSchema(obj))
		if (ours == nil) != (theirs == nil) {
			t.Fatalf("%s: Validate says %v, the schema says %v", raw, ours, theirs)
		}
	})
}

// comparable reports whether v is free of what the two validators treat
// differently by design.
func comparable(v any) bool {
	switch x := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(x.String())
		if !ok || len(x.String()) > 30 {
			return false
		}
		f, _ := strconv.ParseFloat(x.String(), 64)
		fr := new(big.Rat)
		if fr.SetFloat64(f) == nil {
			return false
		}
		return r.Cmp(fr) == 0
	case string:
		return !strings.ContainsRune(x, 0)
	case map[string]any:
		for _, e := range x {
			if !comparable(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !comparable(e) {
				return false
			}
		}
	}
	return true
}

// floatsForSchema is args with every json.Number as a float64, for the JSON
// Schema pass (jsonschema-go types a json.Number as a string). The exact
// checks have run before it; this copy is only for the schema's contract.
func floatsForSchema(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := strconv.ParseFloat(x.String(), 64)
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = floatsForSchema(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = floatsForSchema(e)
		}
		return out
	}
	return v
}
