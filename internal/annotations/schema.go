package annotations

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// InputSchema is the tool's MCP inputSchema: an object with one property per
// parameter, additionalProperties false, and the required ones listed.
func (t *Tool) InputSchema() *jsonschema.Schema { return t.schema }

func (t *Tool) buildSchema() error {
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	t.props = map[string]*jsonschema.Resolved{}
	for _, prm := range t.Params {
		ps, err := prm.schema()
		if err != nil {
			return fmt.Errorf("%s: %w", prm.Name, err)
		}
		s.Properties[prm.Name] = ps
		s.PropertyOrder = append(s.PropertyOrder, prm.Name)
		if prm.Required {
			s.Required = append(s.Required, prm.Name)
		}
		// Each property is also resolved on its own so a validation error
		// can name the parameter it is about.
		rs, err := ps.CloneSchemas().Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
		if err != nil {
			return fmt.Errorf("%s: %w", prm.Name, err)
		}
		t.props[prm.Name] = rs
	}
	rs, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return err
	}
	t.schema, t.resolved = s, rs
	return nil
}

func (prm Param) schema() (*jsonschema.Schema, error) {
	s := &jsonschema.Schema{Type: prm.Type, Description: prm.Description}
	target := s
	if prm.Type == "array" {
		s.Items = &jsonschema.Schema{Type: prm.Items}
		target = s.Items
	}
	target.Pattern = prm.Pattern
	target.Minimum, target.Maximum = prm.Minimum, prm.Maximum
	target.MinLength, target.MaxLength = prm.MinLength, prm.MaxLength
	target.Enum = prm.Enum
	if prm.Default != nil {
		b, err := json.Marshal(prm.Default)
		if err != nil {
			return nil, err
		}
		s.Default = b
	}
	return s, nil
}

// ValidationError says which argument of a call is wrong. Field is the
// parameter's name as declared, or the unknown property's name; it is empty
// when the arguments are not an object at all.
type ValidationError struct {
	Field string
	Msg   string
}

func (e *ValidationError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return fmt.Sprintf("argument %q: %s", e.Field, e.Msg)
}

// Validate checks a call's arguments against the tool's schema — types,
// unknown fields, enum, pattern, bounds, required — and returns them with
// defaults applied. raw may be empty or null for a tool without required
// parameters. Errors are [*ValidationError].
func (t *Tool) Validate(raw json.RawMessage) (map[string]any, error) {
	var v any
	if len(strings.TrimSpace(string(raw))) == 0 {
		v = map[string]any{}
	} else if err := decodeExact(raw, &v); err != nil {
		return nil, &ValidationError{Msg: "arguments are not valid JSON: " + err.Error()}
	}
	if v == nil {
		v = map[string]any{}
	}
	args, ok := v.(map[string]any)
	if !ok {
		return nil, &ValidationError{Msg: fmt.Sprintf("arguments must be an object, not %s", jsonType(v))}
	}
	var unknown []string
	for k := range args {
		if _, ok := t.props[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, &ValidationError{Field: unknown[0], Msg: "unknown argument; this tool takes " + t.paramList()}
	}
	for _, prm := range t.Params {
		val, present := args[prm.Name]
		if !present {
			if prm.Required {
				return nil, &ValidationError{Field: prm.Name, Msg: "is required"}
			}
			continue
		}
		if err := prm.check(val); err != nil {
			return nil, &ValidationError{Field: prm.Name, Msg: err.Error()}
		}
		if err := t.props[prm.Name].Validate(floatsForSchema(val)); err != nil {
			return nil, &ValidationError{Field: prm.Name, Msg: cleanSchemaError(err)}
		}
	}
	// The whole object once more against the tool's schema: the per-field
	// checks above are exact and name the field, this one is the contract.
	if err := t.resolved.Validate(floatsForSchema(args)); err != nil {
		return nil, &ValidationError{Msg: cleanSchemaError(err)}
	}
	if err := t.resolved.ApplyDefaults(&args); err != nil {
		return nil, &ValidationError{Msg: err.Error()}
	}
	return args, nil
}

// check explains, in words a model can act on, why v does not fit prm. The
// schema validation that follows is the contract; this is the wording.
func (prm Param) check(v any) error {
	if prm.Type == "array" {
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("must be an array of %ss (got %s)", prm.Items, jsonType(v))
		}
		for i, e := range list {
			if err := prm.checkScalar(prm.Items, e); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
		return nil
	}
	return prm.checkScalar(prm.Type, v)
}

func (prm Param) checkScalar(typ string, v any) error {
	switch typ {
	case "string":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("must be a string (got %s)", jsonType(v))
		}
		n := utf8.RuneCountInString(s)
		if prm.MinLength != nil && n < *prm.MinLength {
			return fmt.Errorf("must be at least %d characters long (got %d)", *prm.MinLength, n)
		}
		if prm.MaxLength != nil && n > *prm.MaxLength {
			return fmt.Errorf("must be at most %d characters long (got %d)", *prm.MaxLength, n)
		}
		if prm.Pattern != "" {
			if re, err := regexp.Compile(prm.Pattern); err == nil && !re.MatchString(s) {
				return fmt.Errorf("%q does not match the pattern %s", s, prm.Pattern)
			}
		}
	case "integer", "number":
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
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("must be true or false (got %s)", jsonType(v))
		}
	}
	if len(prm.Enum) > 0 {
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
	return nil
}

// decodeExact decodes JSON with numbers as json.Number, and refuses
// anything after the value.
func decodeExact(raw []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return errors.New("unexpected end of JSON input")
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the arguments object")
	}
	return nil
}

// numberString is a number as the client wrote it.
func numberString(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	return fmt.Sprint(v)
}

func article(typ string) string {
	if typ == "integer" {
		return "an integer"
	}
	return "a number"
}

func (t *Tool) paramList() string {
	if len(t.Params) == 0 {
		return "no arguments"
	}
	names := make([]string, len(t.Params))
	for i, p := range t.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// cleanSchemaError keeps the reason of a jsonschema-go error and drops the
// "validating <path>: " prefixes it nests.
func cleanSchemaError(err error) string {
	parts := strings.Split(err.Error(), ": ")
	for i, part := range parts {
		if !strings.HasPrefix(part, "validating") {
			return strings.Join(parts[i:], ": ")
		}
	}
	return err.Error()
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
