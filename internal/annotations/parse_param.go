package annotations

import (
	"fmt"
	"strings"
)

// paramPlace is where a list of params is declared: cli.params (shared by
// every tool, always global flags) or a tool's params, one of which may be
// where the tool's stdin comes from.
type paramPlace struct {
	shared bool
	stdin  string
}

// oneOfTypes says, after "missing", what a type may be. Joined, not
// formatted: fmt takes its printer from a sync.Pool, so init would allocate
// one or not as the pool happened to hold it (TestInit_TablesAreNotBuiltAtStart).
var oneOfTypes = " (one of " + strings.Join(typeNames, ", ") + ")"

var paramKeys = []string{"name", "type", "items", "required", "description", "default", "enum",
	"pattern", "minimum", "maximum", "minLength", "maxLength", "flag", "positional", "negate",
	"global", "sensitive", "requires"}

// params reads a list of params, dropping the ones that did not load and
// duplicates (both reported).
func (p *parser) params(raws []any, field string, place paramPlace) []Param {
	var out []Param
	names := map[string]bool{}
	for j, rp := range raws {
		f := fmt.Sprintf("%s[%d]", field, j)
		prm, ok := p.param(rp, f, place)
		if !ok {
			continue
		}
		if names[prm.Name] {
			p.fail(f+".name", "duplicate parameter %q", prm.Name)
			continue
		}
		names[prm.Name] = true
		out = append(out, prm)
	}
	return out
}

// param reads one param: its shape (name, type, how it reaches the command
// line), its bounds, and then checks that the manifest's own values (enum,
// default) obey them.
func (p *parser) param(raw any, field string, place paramPlace) (Param, bool) {
	var prm Param
	obj := p.object(raw, field, paramKeys...)
	if obj == nil {
		return prm, false
	}
	before := len(p.problems)
	p.paramType(obj, field, &prm)
	p.paramPlacement(obj, field, &prm, place)
	if prm.elem() != nil {
		p.paramBounds(obj, field, &prm)
	}
	p.text(obj, field, "description", &prm.Description)
	p.decode(obj, field, "sensitive", &prm.Sensitive, "true or false")
	if p.decode(obj, field, "requires", &prm.Requires, "a list of parameter names") && len(prm.Requires) == 0 {
		p.fail(field+".requires", "is empty")
	}
	if len(p.problems) == before {
		p.paramValues(obj, field, &prm)
	}
	return prm, len(p.problems) == before
}

// paramType reads name, type and items.
func (p *parser) paramType(obj map[string]any, field string, prm *Param) {
	if p.require(obj, field, "name", &prm.Name, "a string", "") && p.declared != nil {
		p.declared[prm.Name] = true
	}
	if prm.Name != "" && !validParamName(prm.Name) {
		p.fail(field+".name", "%q must match %s", prm.Name, paramNamePattern)
	}
	if p.require(obj, field, "type", &prm.Type, "a string", oneOfTypes) &&
		scalarTypes[prm.Type] == nil && !prm.IsArray() {
		p.fail(field+".type", "is %q; must be one of %s", prm.Type, strings.Join(typeNames, ", "))
	}
	if p.decode(obj, field, "items", &prm.Items, "a string") {
		if !prm.IsArray() {
			p.fail(field+".items", "only arrays have items")
		} else if itemTypes[prm.Items] == nil {
			p.fail(field+".items", "is %q; must be string, integer or number", prm.Items)
		}
	} else if _, ok := obj["items"]; !ok && prm.IsArray() {
		p.fail(field+".items", "missing: an array says what it holds (string, integer or number)")
	}
}

// paramPlacement reads how the value reaches the CLI: a flag (global or
// not, with a negation for booleans), a position, or stdin.
func (p *parser) paramPlacement(obj map[string]any, field string, prm *Param, place paramPlace) {
	p.decode(obj, field, "required", &prm.Required, "true or false")
	p.decode(obj, field, "flag", &prm.Flag, "a string")
	p.decode(obj, field, "positional", &prm.Positional, "true or false")
	p.decode(obj, field, "negate", &prm.Negate, "a string")
	if p.decode(obj, field, "global", &prm.Global, "true or false") && !prm.Global && place.shared {
		p.fail(field+".global", "the params of cli.params are always global")
	}
	prm.Shared = place.shared
	prm.Global = prm.Global || place.shared
	prm.Stdin = place.stdin != "" && prm.Name == place.stdin
	switch {
	case prm.Stdin:
		if prm.Flag != "" || prm.Positional {
			p.fail(field, "is the tool's stdin: it has neither flag nor positional (it is never on the command line)")
		}
	case prm.Flag != "" && prm.Positional:
		p.fail(field, "has both flag and positional: give exactly one")
	case prm.Flag == "" && !prm.Positional:
		p.fail(field, "has neither flag nor positional: give exactly one")
	case prm.Global && prm.Positional:
		p.fail(field+".global", "only a flag can be global")
	}
	if prm.Flag != "" && !p.flagOK(prm.Flag) {
		p.fail(field+".flag", "%q is not an option name (e.g. \"--year\")", prm.Flag)
	}
	if prm.Negate != "" {
		if prm.Type != "boolean" || prm.Flag == "" {
			p.fail(field+".negate", "only a boolean flag can have a negate flag")
		} else if !p.flagOK(prm.Negate) {
			p.fail(field+".negate", "%q is not an option name (e.g. \"--no-dry-run\")", prm.Negate)
		}
	}
	if prm.Positional && prm.Type == "boolean" {
		p.fail(field, "a boolean cannot be positional: give it a flag")
	}
}

// paramBounds reads pattern, minimum, maximum, minLength, maxLength: each
// only where the type has it.
func (p *parser) paramBounds(obj map[string]any, field string, prm *Param) {
	t := prm.elem()
	if p.decode(obj, field, "pattern", &prm.Pattern, "a string") {
		re, err := p.pattern(prm.Pattern)
		if err != nil {
			p.fail(field+".pattern", "is not a valid regular expression: %v", err)
		}
		prm.pattern = re
		if !t.stringish {
			p.fail(field+".pattern", "only strings (or arrays of strings) have a pattern")
		}
	}
	for _, b := range []struct {
		key string
		v   **float64
	}{{"minimum", &prm.Minimum}, {"maximum", &prm.Maximum}} {
		var f float64
		if p.decode(obj, field, b.key, &f, "a number") {
			*b.v = &f
			if !t.numeric {
				p.fail(field+"."+b.key, "only numbers have a %s", b.key)
			}
		}
	}
	for _, b := range []struct {
		key string
		v   **int
	}{{"minLength", &prm.MinLength}, {"maxLength", &prm.MaxLength}} {
		var n int
		if p.decode(obj, field, b.key, &n, "a non-negative integer") {
			if n < 0 {
				p.fail(field+"."+b.key, "must not be negative")
			}
			*b.v = &n
			if !t.stringish {
				p.fail(field+"."+b.key, "only strings have a %s", b.key)
			}
		}
	}
	if prm.Minimum != nil && prm.Maximum != nil && *prm.Minimum > *prm.Maximum {
		p.fail(field, "minimum is greater than maximum")
	}
	if prm.MinLength != nil && prm.MaxLength != nil && *prm.MinLength > *prm.MaxLength {
		p.fail(field, "minLength is greater than maxLength")
	}
}

// paramValues reads enum and default, which must obey the param's own
// rules: a manifest cannot offer a value its tool would refuse.
func (p *parser) paramValues(obj map[string]any, field string, prm *Param) {
	if rawEnum, ok := obj["enum"]; ok {
		list, _ := rawEnum.([]any)
		enum, err := plainNumbers(list)
		if prm.Enum, _ = enum.([]any); err != nil || len(prm.Enum) == 0 {
			p.fail(field+".enum", "must be a non-empty list of values")
		}
	}
	if rawDef, ok := obj["default"]; ok {
		var err error
		if prm.Default, err = plainNumbers(rawDef); err != nil || prm.Default == nil {
			p.fail(field+".default", "must be a value")
		}
		if prm.Required {
			p.fail(field+".default", "a required parameter cannot have a default")
		}
	}
	bare := *prm
	bare.Enum = nil
	for i, e := range prm.Enum {
		if err := bare.elem().check(&bare, e); err != nil {
			p.fail(fmt.Sprintf("%s.enum[%d]", field, i), "%v", err)
		}
	}
	if prm.Default != nil {
		if err := prm.check(prm.Default); err != nil {
			p.fail(field+".default", "%v", err)
		}
	}
}
