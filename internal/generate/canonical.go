package generate

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// keyOrder is the order a manifest's keys are written in, per kind of
// object, as a person reads them: a tool's name, title and description
// first. Keys not listed (added to the manifest later) follow, sorted.
// Built at first use, as every table of this package: only generate needs
// them, and a server that links the package waits for none of them.
var keyOrder = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"top":         {"$schema", "version", "cli", "surface", "tools"},
		"cli":         {"command", "args", "env", "cwd", "params", "exit_codes", "error_output"},
		"env":         {"pass", "require", "set"},
		"tool":        {"name", "title", "description", "cli_help", "command", "annotations", "hints_guessed", "params", "output", "timeout", "stdin", "progress", "confirm", "exit_codes", "error_output"},
		"annotations": hintOrder,
		"param": {"name", "type", "items", "required", "description", "default", "enum", "pattern", "minimum", "maximum",
			"minLength", "maxLength", "flag", "positional", "negate", "global", "sensitive", "requires"},
	}
})

// kindOf is the kind of the object found under key in an object of kind
// parent ("" for any other object: its keys are sorted).
func kindOf(parent, key string) string {
	switch {
	case parent == "top" && key == "cli":
		return "cli"
	case parent == "top" && key == "tools":
		return "tool"
	case parent == "cli" && key == "env":
		return "env"
	case (parent == "cli" || parent == "tool") && key == "params":
		return "param"
	case parent == "tool" && key == "annotations":
		return "annotations"
	}
	return ""
}

// Encode writes v (objects, lists, strings, json.Number, booleans, null)
// as canonical JSON: two-space indent, keys in [keyOrder] then sorted
// (numbers by value: exit codes), short lists of scalars on one line, no
// HTML escaping, a final newline. The same value always gives the same
// bytes.
func Encode(v any) []byte {
	var b bytes.Buffer
	encode(&b, v, "top", "")
	b.WriteByte('\n')
	return b.Bytes()
}

func encode(b *bytes.Buffer, v any, kind, indent string) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range orderedKeys(x, kind) {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(indent + "  ")
			scalar(b, k)
			b.WriteString(": ")
			encode(b, x[k], kindOf(kind, k), indent+"  ")
		}
		b.WriteString("\n" + indent + "}")
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		if line, ok := inline(x); ok && len(indent)+len(line) <= 100 {
			b.WriteString(line)
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(indent + "  ")
			encode(b, e, kind, indent+"  ")
		}
		b.WriteString("\n" + indent + "]")
	default:
		scalar(b, v)
	}
}

// inline is a list of scalars on one line.
func inline(list []any) (string, bool) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, e := range list {
		switch e.(type) {
		case map[string]any, []any:
			return "", false
		}
		if i > 0 {
			b.WriteString(", ")
		}
		scalar(&b, e)
	}
	b.WriteByte(']')
	return b.String(), true
}

func scalar(b *bytes.Buffer, v any) {
	if n, ok := v.(json.Number); ok {
		b.WriteString(n.String())
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		b.WriteString("null")
		return
	}
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func orderedKeys(m map[string]any, kind string) []string {
	order := keyOrder()[kind]
	rank := func(k string) int {
		for i, o := range order {
			if o == k {
				return i
			}
		}
		return len(order)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		ri, rj := rank(keys[i]), rank(keys[j])
		if ri != rj {
			return ri < rj
		}
		return lessKey(keys[i], keys[j])
	})
	return keys
}

// lessKey sorts numbers by value ("2" before "10"), then other keys.
func lessKey(a, b string) bool {
	na, ea := strconv.ParseUint(a, 10, 64)
	nb, eb := strconv.ParseUint(b, 10, 64)
	switch {
	case ea == nil && eb == nil:
		return na < nb
	case ea == nil:
		return true
	case eb == nil:
		return false
	}
	return strings.Compare(a, b) < 0
}
