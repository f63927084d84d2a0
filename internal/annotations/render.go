package annotations

import (
	"errors"
	"fmt"
	"strings"
)

// Render turns validated arguments into the argv that follows the program
// name, exactly as DESIGN.md §4 says:
//
//	argv = cli.args ++ tool.command ++ flags ++ ["--"] ++ positionals
//
// Flags come in params order as one "--flag=value" token each; a boolean
// true is "--flag", false is the negate flag if declared, else nothing; an
// array repeats its flag once per element. "--" is emitted before the first
// positional, and only when there is one, so no value can ever be read as an
// option. Absent optional params are omitted. A value with a NUL byte is
// rejected. There is no shell anywhere: the argv goes to execve as it is.
//
// args should come from [Tool.Validate]; Render re-checks what it relies on.
func (t *Tool) Render(args map[string]any) ([]string, error) {
	argv := make([]string, 0, len(t.cli.Args)+len(t.Command)+len(t.Params)+1)
	argv = append(argv, t.cli.Args...)
	argv = append(argv, t.Command...)
	var positionals []string
	for _, prm := range t.Params {
		v, ok := args[prm.Name]
		if !ok || v == nil {
			if prm.Default == nil {
				continue
			}
			v = prm.Default
		}
		vals, err := prm.values(v)
		if err != nil {
			return nil, &ValidationError{Field: prm.Name, Msg: err.Error()}
		}
		for _, s := range vals {
			if strings.IndexByte(s, 0) >= 0 {
				return nil, &ValidationError{Field: prm.Name, Msg: "contains a NUL byte"}
			}
		}
		switch {
		case prm.Positional:
			positionals = append(positionals, vals...)
		case prm.Type == "boolean":
			if v.(bool) {
				argv = append(argv, prm.Flag)
			} else if prm.Negate != "" {
				argv = append(argv, prm.Negate)
			}
		default:
			for _, s := range vals {
				argv = append(argv, prm.Flag+"="+s)
			}
		}
	}
	if len(positionals) > 0 {
		argv = append(argv, "--")
		argv = append(argv, positionals...)
	}
	return argv, nil
}

// values renders one argument as the strings it becomes on the command line.
func (prm Param) values(v any) ([]string, error) {
	if prm.Type == "array" {
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("must be an array")
		}
		out := make([]string, 0, len(list))
		for _, e := range list {
			s, err := scalar(prm.Items, e)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, nil
	}
	if prm.Type == "boolean" {
		if _, ok := v.(bool); !ok {
			return nil, fmt.Errorf("must be true or false")
		}
		return nil, nil
	}
	s, err := scalar(prm.Type, v)
	if err != nil {
		return nil, err
	}
	return []string{s}, nil
}

// scalar formats a string, integer or number the way a CLI parses it back:
// integers without exponent, numbers in the shortest form that round-trips.
func scalar(typ string, v any) (string, error) {
	switch typ {
	case "string":
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("must be a string")
		}
		return s, nil
	case "integer", "number":
		s, err := numberText(typ, v)
		if errors.Is(err, errNotNumber) {
			return "", fmt.Errorf("must be %s", article(typ))
		}
		return s, err
	}
	return "", fmt.Errorf("unsupported type %s", typ)
}
