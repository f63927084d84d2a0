package annotations

import (
	"encoding/json"
	"fmt"
)

// NewBuiltin is one of aeat-mcp's own tools (its name starts with
// [ReservedPrefix]): no verb of the CLI behind it, but params declared as a
// manifest's are, so that its input schema is encoded and its arguments
// are checked by [Tool.Validate] — one wording for a bad argument, whoever
// serves the tool. Its params may also be of the object type, which no
// manifest param can be (no command line carries an object). It panics on
// a param that would not load: the built-ins are written in Go, and a test
// builds every one (and compiles each pattern, which the tool compiles at
// its first use).
func NewBuiltin(name, title, description string, hints Hints, params ...Param) *Tool {
	t := &Tool{Name: name, Title: title, Description: description, Hints: hints,
		Progress: StreamNone, builtin: true, detail: toolDetail{Params: params}}
	t.detail.index()
	for i := range params {
		prm := &params[i]
		if prm.elem() == nil {
			panic(fmt.Sprintf("annotations: built-in %s: param %s has no type %q", name, prm.Name, prm.Type))
		}
		if prm.Pattern != "" {
			// Compiled at its first use, as a cached manifest's are: a
			// server builds its built-ins before the host's initialize,
			// which checks no argument. Each built-in's pattern compiles
			// (TestBuiltins_PatternsCompile).
			prm.pattern = &pattern{src: prm.Pattern}
		}
	}
	if err := t.buildSchema(); err != nil {
		panic(fmt.Sprintf("annotations: built-in %s: %v", name, err))
	}
	return t
}

// Builtin reports whether the tool is aeat-mcp's own ([NewBuiltin], and
// doctor's [Manifest.HealthTools]) rather than a verb the manifest serves:
// its outcome names no tier or ceiling.
func (t *Tool) Builtin() bool { return t.builtin }

// Text is the string argument called name, and whether it was given.
func (a Args) Text(name string) (string, bool) {
	s, ok := a.values[name].(string)
	return s, ok
}

// Number is the number argument called name, and whether it was given: an
// integer param's too, exact within its bounds (±2^53).
func (a Args) Number(name string) (float64, bool) {
	n, ok := a.values[name].(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}
