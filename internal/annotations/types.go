package annotations

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// paramType is everything one parameter type means, in one place: which
// manifest keys apply to it, how one value is checked (in words a model can
// act on), how it is written on the command line, and how a person's text
// (call --arg) becomes a value. The array type holds values of another
// type and delegates to it element by element (see [Param.elem]).
type paramType struct {
	name string
	// stringish types take pattern, minLength and maxLength; numeric ones
	// take minimum and maximum.
	stringish, numeric bool
	// check explains why v is not a value of this type within prm's bounds
	// (enum is checked by the caller, for every type alike).
	check func(prm *Param, v any) error
	// text is v as the CLI reads it back. Booleans have none: they are a
	// flag's presence.
	text func(v any) (string, error)
	// parse reads a person's text. Errors say what was expected.
	parse func(s string) (any, error)
}

// The types a parameter may have. Array is not among them: it is a list of
// one of the item types, and every per-value rule is the item type's.
var (
	typeString = &paramType{name: "string", stringish: true,
		check: checkString,
		text: func(v any) (string, error) {
			s, ok := v.(string)
			if !ok {
				return "", errors.New("must be a string")
			}
			return s, nil
		},
		parse: func(s string) (any, error) { return s, nil },
	}
	typeInteger = &paramType{name: "integer", numeric: true,
		check: func(prm *Param, v any) error { return checkNumber(prm, "integer", v) },
		text:  func(v any) (string, error) { return numberText("integer", v) },
		parse: func(s string) (any, error) { return parseNumber("integer", s) },
	}
	typeNumber = &paramType{name: "number", numeric: true,
		check: func(prm *Param, v any) error { return checkNumber(prm, "number", v) },
		text:  func(v any) (string, error) { return numberText("number", v) },
		parse: func(s string) (any, error) { return parseNumber("number", s) },
	}
	typeBoolean = &paramType{name: "boolean",
		check: func(_ *Param, v any) error {
			if _, ok := v.(bool); !ok {
				return fmt.Errorf("must be true or false (got %s)", jsonType(v))
			}
			return nil
		},
		parse: parseBool,
	}
)

// TypeArray is the one container type; its items are one of [itemTypes].
const TypeArray = "array"

var scalarTypes = map[string]*paramType{
	"string": typeString, "integer": typeInteger, "number": typeNumber, "boolean": typeBoolean,
}

// ownTypes are types only aeat-mcp's own tools' params take ([NewBuiltin]):
// the manifest's parser accepts scalarTypes and arrays only, because no
// command line carries an object.
var ownTypes = map[string]*paramType{"object": typeObject}

// typeObject is a JSON object passed on as it is (aeat_mcp_call's inner
// arguments, checked later by the tool they are for).
var typeObject = &paramType{name: "object",
	check: func(_ *Param, v any) error {
		if _, ok := v.(map[string]any); !ok {
			return fmt.Errorf("must be an object (got %s)", jsonType(v))
		}
		return nil
	},
	text:  func(any) (string, error) { return "", errors.New("an object is no command-line value") },
	parse: func(s string) (any, error) { return nil, fmt.Errorf("expected an object, got %q", s) },
}

// itemTypes may be an array's items.
var itemTypes = map[string]*paramType{"string": typeString, "integer": typeInteger, "number": typeNumber}

// typeNames lists the types in the order error messages give them.
var typeNames = []string{"string", "integer", "number", "boolean", TypeArray}

// IsArray reports whether the parameter takes a list (its flag repeated).
func (prm *Param) IsArray() bool { return prm.Type == TypeArray }

// elem is the type of one value of prm: its items for an array. Nil only
// for a parameter that did not load.
func (prm *Param) elem() *paramType {
	if prm.IsArray() {
		return itemTypes[prm.Items]
	}
	if t := scalarTypes[prm.Type]; t != nil {
		return t
	}
	return ownTypes[prm.Type]
}

// check explains, in words a model can act on, why v is not a valid value
// of prm. It is exact (numbers are compared as written, never as float64)
// and it is the one check of a value's type and bounds.
func (prm *Param) check(v any) error {
	if !prm.IsArray() {
		return prm.checkOne(v)
	}
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("must be an array of %ss (got %s)", prm.Items, jsonType(v))
	}
	for i, e := range list {
		if err := prm.checkOne(e); err != nil {
			return fmt.Errorf("item %d: %w", i, err)
		}
	}
	return nil
}

// checkOne checks one value (an array's element, or the whole of a scalar).
func (prm *Param) checkOne(v any) error {
	if err := prm.elem().check(prm, v); err != nil {
		return err
	}
	return prm.checkEnum(v)
}

func (prm *Param) checkEnum(v any) error {
	if len(prm.Enum) == 0 {
		return nil
	}
	for _, e := range prm.Enum {
		if sameValue(e, v) {
			return nil
		}
	}
	opts := make([]string, len(prm.Enum))
	for i, e := range prm.Enum {
		opts[i] = fmt.Sprint(e)
	}
	return fmt.Errorf("must be one of %s (got %v)", strings.Join(opts, ", "), v)
}

func checkString(prm *Param, v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("must be a string (got %s)", jsonType(v))
	}
	if strings.IndexByte(s, 0) >= 0 {
		return errors.New("contains a NUL byte: no command line can carry one")
	}
	n := utf8.RuneCountInString(s)
	if prm.MinLength != nil && n < *prm.MinLength {
		return fmt.Errorf("must be at least %d characters long (got %d)", *prm.MinLength, n)
	}
	if prm.MaxLength != nil && n > *prm.MaxLength {
		return fmt.Errorf("must be at most %d characters long (got %d)", *prm.MaxLength, n)
	}
	if re := prm.compiledPattern(); re != nil && !re.MatchString(s) {
		if prm.Sensitive {
			return fmt.Errorf("does not match the pattern %s", prm.Pattern)
		}
		return fmt.Errorf("%q does not match the pattern %s", s, prm.Pattern)
	}
	return nil
}

func checkNumber(prm *Param, typ string, v any) error {
	n, err := exactNumber(v)
	if errors.Is(err, errNotNumber) {
		return fmt.Errorf("must be %s (got %s)", article(typ), jsonType(v))
	} else if err != nil {
		return err
	}
	if typ == "integer" && !n.IsInt() {
		return fmt.Errorf("must be an integer (got %s)", numberString(v))
	}
	if prm.Minimum != nil && n.Cmp(new(big.Rat).SetFloat64(*prm.Minimum)) < 0 {
		return fmt.Errorf("must be at least %v (got %s)", *prm.Minimum, numberString(v))
	}
	if prm.Maximum != nil && n.Cmp(new(big.Rat).SetFloat64(*prm.Maximum)) > 0 {
		return fmt.Errorf("must be at most %v (got %s)", *prm.Maximum, numberString(v))
	}
	return nil
}

// parseNumber reads a person's number as the JSON number it stands for,
// exactly (no float64 in between).
func parseNumber(typ, s string) (any, error) {
	t := strings.TrimSpace(s)
	var n json.Number
	if json.Unmarshal([]byte(t), &n) != nil || t == "" || strings.HasPrefix(t, "\"") {
		return nil, fmt.Errorf("expected %s, got %q", article(typ), s)
	}
	if typ == "integer" {
		if r, err := exactNumber(n); err != nil || !r.IsInt() {
			return nil, fmt.Errorf("expected an integer, got %q", s)
		}
	}
	return n, nil
}

func parseBool(s string) (any, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "yes", "1", "on":
		return true, nil
	case "false", "no", "0", "off":
		return false, nil
	}
	return nil, fmt.Errorf("expected true or false, got %q", s)
}

// Parse turns a person's text (call --arg NAME=TEXT) into a value of prm:
// for an array, one more element after prev. The error says what was
// expected and what was given; the value is checked in full later, with
// every other argument.
func (prm *Param) Parse(text string, prev any) (any, error) {
	v, err := prm.elem().parse(text)
	if err != nil {
		return nil, err
	}
	if !prm.IsArray() {
		return v, nil
	}
	list, _ := prev.([]any)
	return append(list, v), nil
}

// TypeName is the type as a person reads it: "integer", "array of string".
func (prm *Param) TypeName() string {
	if prm.IsArray() {
		return "array of " + prm.Items
	}
	return prm.Type
}

// values are the strings one validated argument becomes on the command
// line: one per element for an array, none for a boolean (its flag's
// presence says it).
func (prm *Param) values(v any) ([]string, error) {
	t := prm.elem()
	if t.text == nil {
		return nil, nil
	}
	if !prm.IsArray() {
		s, err := t.text(v)
		if err != nil {
			return nil, err
		}
		return []string{s}, nil
	}
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, err := t.text(e)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// schema is the parameter's property in the tool's input schema.
func (prm *Param) schema() (*jsonschema.Schema, error) {
	s := &jsonschema.Schema{Type: prm.Type, Description: prm.Description}
	target := s
	if prm.IsArray() {
		s.Items = &jsonschema.Schema{Type: prm.Items}
		target = s.Items
	}
	target.Pattern = prm.Pattern
	target.Minimum, target.Maximum = prm.Minimum, prm.Maximum
	target.MinLength, target.MaxLength = prm.MinLength, prm.MaxLength
	target.Enum = prm.Enum
	if prm.Sensitive {
		// JSON Schema's own word for a value hosts should not echo.
		s.WriteOnly = true
	}
	if prm.Default != nil {
		b, err := json.Marshal(prm.Default)
		if err != nil {
			return nil, err
		}
		s.Default = b
	}
	return s, nil
}

// encodeSchema writes what schema builds, as JSON.
func (prm *Param) encodeSchema(b *bytes.Buffer) error {
	b.WriteString(`{"type":`)
	writeJSON(b, prm.Type)
	if prm.Description != "" {
		b.WriteString(`,"description":`)
		writeJSON(b, prm.Description)
	}
	if prm.IsArray() {
		b.WriteString(`,"items":{"type":`)
		writeJSON(b, prm.Items)
		prm.encodeBounds(b)
		b.WriteByte('}')
	} else {
		prm.encodeBounds(b)
	}
	if prm.Sensitive {
		b.WriteString(`,"writeOnly":true`)
	}
	if prm.Default != nil {
		d, err := json.Marshal(prm.Default)
		if err != nil {
			return err
		}
		b.WriteString(`,"default":`)
		b.Write(d)
	}
	b.WriteByte('}')
	return nil
}

// encodeBounds writes the keys schema puts on the value's own schema (the
// items' for an array).
func (prm *Param) encodeBounds(b *bytes.Buffer) {
	if len(prm.Enum) > 0 {
		b.WriteString(`,"enum":`)
		writeJSON(b, prm.Enum)
	}
	if prm.Pattern != "" {
		b.WriteString(`,"pattern":`)
		writeJSON(b, prm.Pattern)
	}
	for _, n := range []struct {
		key string
		v   *float64
	}{{"minimum", prm.Minimum}, {"maximum", prm.Maximum}} {
		if n.v != nil {
			b.WriteString(`,"` + n.key + `":`)
			writeJSON(b, *n.v)
		}
	}
	for _, n := range []struct {
		key string
		v   *int
	}{{"minLength", prm.MinLength}, {"maxLength", prm.MaxLength}} {
		if n.v != nil {
			b.WriteString(`,"` + n.key + `":` + strconv.Itoa(*n.v))
		}
	}
}

// compiledPattern is prm's Pattern compiled, or nil for none.
func (prm *Param) compiledPattern() *regexp.Regexp {
	if prm.pattern == nil {
		return nil
	}
	return prm.pattern.regexp()
}

// compilePattern compiles a parameter's pattern.
func compilePattern(p string) (*regexp.Regexp, error) { return regexp.Compile(p) }

// pattern is a param's Pattern, compiled at its first use. A manifest
// read from the cache compiles none at load — its patterns compiled when
// it was validated, before it was written — and a call compiles only its
// own tool's: compiling them all was a tenth of a cached start's own work.
// A loaded manifest's params share one per distinct pattern.
type pattern struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// compiledPattern is the pattern of re, compiled already (a manifest being
// validated compiles each to report a bad one).
func compiledPattern(re *regexp.Regexp) *pattern {
	p := &pattern{src: re.String()}
	p.once.Do(func() { p.re = re })
	return p
}

// regexp is the compiled pattern, or nil if it does not compile — which a
// manifest that was validated never holds.
func (p *pattern) regexp() *regexp.Regexp {
	p.once.Do(func() { p.re, _ = compilePattern(p.src) })
	return p.re
}

// numberString is a number as the client wrote it.
func numberString(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

func article(typ string) string {
	if typ == "integer" {
		return "an integer"
	}
	return "a number"
}

func jsonType(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
