package annotations

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// InputSchema is the tool's MCP inputSchema: an object with one property per
// parameter (the cli's shared ones first), additionalProperties false, the
// required ones listed, and each param's requires as dependentRequired. It
// is built on first use: a server that hands hosts [Tool.InputSchemaJSON]
// never builds it.
func (t *Tool) InputSchema() *jsonschema.Schema {
	t.schemaMu.Lock()
	defer t.schemaMu.Unlock()
	if t.schema == nil {
		s, err := t.schemaStruct()
		if err != nil {
			// buildSchema encoded the same params at load, or the tool
			// would not have loaded.
			panic(fmt.Sprintf("annotations: the schema of %s: %v", t.Name, err))
		}
		t.schema = s
	}
	return t.schema
}

// InputSchemaJSON is [Tool.InputSchema] as JSON, encoded at load: what a
// server gives hosts without building and marshalling a jsonschema.Schema
// per tool (at 300 tools that was most of a server's start-up). A test
// holds the two to the same meaning.
func (t *Tool) InputSchemaJSON() json.RawMessage {
	t.listed()
	return t.schemaJSON
}

// ListedParts are the tool as the server lists it (its tools/list entry)
// around its schema: head, then [Tool.InputSchemaJSON], then tail —
// encoded when the manifest was validated and kept by the manifest cache
// ([Cache.Listed]); both nil when nothing kept it, or its section of the
// cache could not be read (the server then encodes the tool itself, as
// Cache.Listed did). Nothing may write to them.
func (t *Tool) ListedParts() (head, tail []byte) {
	t.listed()
	return t.listedHead, t.listedTail
}

// buildSchema encodes the input schema (InputSchemaJSON) and drops the
// struct built from older params, if any.
func (t *Tool) buildSchema() error {
	t.listed() // read now, or its late read would undo this one
	return t.setSchema()
}

// setSchema encodes the input schema from the tool's params and drops the
// struct built from older params, if any: what buildSchema does once the
// tool's section is read, and what a section that cannot be read is
// rebuilt with (sectionFromHead).
func (t *Tool) setSchema() error {
	b, err := t.encodeSchema()
	if err != nil {
		return err
	}
	t.schemaMu.Lock()
	t.schemaJSON, t.schema = b, nil
	t.schemaMu.Unlock()
	return nil
}

func (t *Tool) schemaStruct() (*jsonschema.Schema, error) {
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	params := t.Params()
	for i := range params {
		prm := &params[i]
		ps, err := prm.schema()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", prm.Name, err)
		}
		s.Properties[prm.Name] = ps
		s.PropertyOrder = append(s.PropertyOrder, prm.Name)
		if prm.Required {
			s.Required = append(s.Required, prm.Name)
		}
		if len(prm.Requires) > 0 {
			if s.DependentRequired == nil {
				s.DependentRequired = map[string][]string{}
			}
			s.DependentRequired[prm.Name] = prm.Requires
		}
	}
	return s, nil
}

// encodeSchema writes what schemaStruct builds, as JSON: properties in the
// params' order, then required, additionalProperties and
// dependentRequired.
func (t *Tool) encodeSchema() (json.RawMessage, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	params := t.Params()
	for i := range params {
		prm := &params[i]
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(&b, prm.Name)
		b.WriteByte(':')
		if err := prm.encodeSchema(&b); err != nil {
			return nil, fmt.Errorf("%s: %w", prm.Name, err)
		}
	}
	b.WriteByte('}')
	var required, requires []string
	for _, prm := range params {
		if prm.Required {
			required = append(required, prm.Name)
		}
		if len(prm.Requires) > 0 {
			requires = append(requires, prm.Name)
		}
	}
	if len(required) > 0 {
		b.WriteString(`,"required":`)
		writeJSON(&b, required)
	}
	b.WriteString(`,"additionalProperties":false`)
	if len(requires) > 0 {
		b.WriteString(`,"dependentRequired":{`)
		for i, name := range requires {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(&b, name)
			b.WriteByte(':')
			writeJSON(&b, t.details().byName[name].Requires)
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writeJSON appends v (strings, lists of strings, numbers, booleans: what
// a schema holds) as JSON, escaped as encoding/json escapes it.
func writeJSON(b *bytes.Buffer, v any) {
	out, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("annotations: %T does not encode: %v", v, err)) // only ever called with plain values
	}
	b.Write(out)
}

// Args are a call's arguments after [Tool.Validate]: checked, with
// defaults applied, numbers exact (json.Number). Only Validate makes them,
// so whatever takes Args needs not check them again.
type Args struct {
	values map[string]any
}

// Get returns the argument called name.
func (a Args) Get(name string) (any, bool) {
	v, ok := a.values[name]
	return v, ok
}

// MarshalJSON writes the arguments as one object, keys sorted: the same
// arguments always give the same bytes.
func (a Args) MarshalJSON() ([]byte, error) { return json.Marshal(a.values) }

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

// Validate checks a call's arguments — types, unknown fields, enum,
// pattern, bounds, required, requires — once, and returns them with
// defaults applied. raw may be empty or null for a tool without required
// parameters. Errors are [*ValidationError] and name the field, but for
// a tool whose params the manifest cache could not give (DetailErr):
// that error, for a call nobody can check.
//
// The checks are exact (numbers as written, never as float64) and say what
// is wrong in words a model can act on. They enforce exactly what the
// tool's input schema tells the host: a fuzz test (FuzzValidateAgrees)
// holds them to a JSON Schema validator's verdict, so the schema is not
// resolved and run again on every call.
func (t *Tool) Validate(raw json.RawMessage) (Args, error) {
	if err := t.DetailErr(); err != nil {
		return Args{}, err
	}
	var v any
	if len(bytes.TrimSpace(raw)) == 0 {
		v = map[string]any{}
	} else if err := decodeExact(raw, &v); err != nil {
		return Args{}, &ValidationError{Msg: "arguments are not valid JSON: " + err.Error()}
	}
	if v == nil {
		v = map[string]any{}
	}
	args, ok := v.(map[string]any)
	if !ok {
		return Args{}, &ValidationError{Msg: fmt.Sprintf("arguments must be an object, not %s", jsonType(v))}
	}
	var unknown []string
	for k := range args {
		if _, ok := t.details().byName[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return Args{}, &ValidationError{Field: unknown[0], Msg: "unknown argument; this tool takes " + t.paramList()}
	}
	params := t.Params()
	var missing []string
	for i := range params {
		prm := &params[i]
		val, present := args[prm.Name]
		if !present {
			if prm.Required {
				missing = append(missing, prm.Name)
			}
			continue
		}
		if err := prm.check(val); err != nil {
			return Args{}, &ValidationError{Field: prm.Name, Msg: err.Error()}
		}
		for _, other := range prm.Requires {
			if _, ok := args[other]; !ok {
				return Args{}, &ValidationError{Field: prm.Name, Msg: fmt.Sprintf("requires %q: give %q too, or leave %q out", other, other, prm.Name)}
			}
		}
	}
	if len(missing) > 0 {
		msg := "is required"
		if len(missing) > 1 {
			msg = fmt.Sprintf("is required (so are %s)", quoteList(missing[1:]))
		}
		return Args{}, &ValidationError{Field: missing[0], Msg: msg}
	}
	for i := range params {
		prm := &params[i]
		if _, present := args[prm.Name]; !present && prm.Default != nil {
			args[prm.Name] = prm.Default
		}
	}
	return Args{values: args}, nil
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
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

func (t *Tool) paramList() string {
	params := t.Params()
	if len(params) == 0 {
		return "no arguments"
	}
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}
