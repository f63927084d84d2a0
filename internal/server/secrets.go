package server

import (
	"bytes"
	"encoding/json"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// Secrets a call hands the CLI (its stdin, DESIGN.md §3.1) never reach the
// model, even when the CLI prints them back: callruntime redacts them from
// both streams as they flow (callruntime.Spec.Secrets), which covers the
// result's text, progress and a task's status; what the server derives
// from the output afterwards — text cleaned of control sequences, JSON
// decoded for structuredContent and cli_error — is redacted again here,
// because cleaning and decoding can join what the stream kept apart
// ("hun\x1b[0mter2", "\u0068unter2").

// secretsOf are the values to redact for a value the CLI is given as a
// secret: the value itself, without the blanks a variable may end with,
// and, when it is a JSON document — the real aeat reads one object of
// strings on stdin (facts.json, "stdin") — each string in it: a parser
// that refuses the document echoes a value (pydantic's input_value='…'),
// not the whole document. Keys are names ("secret", "passphrase"), not
// secrets.
func secretsOf(v []byte) [][]byte {
	if len(v) == 0 {
		return nil
	}
	out := [][]byte{v}
	if trimmed := bytes.TrimSpace(v); len(trimmed) != len(v) && len(trimmed) > 0 {
		out = append(out, trimmed)
	}
	var doc any
	if json.Unmarshal(v, &doc) == nil {
		for _, s := range stringsIn(doc, nil) {
			if s != "" {
				out = append(out, []byte(s))
			}
		}
	}
	return out
}

// stringsIn appends the strings of a decoded JSON value, at any depth.
func stringsIn(v any, out []string) []string {
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case map[string]any:
		for _, e := range x {
			out = stringsIn(e, out)
		}
	case []any:
		for _, e := range x {
			out = stringsIn(e, out)
		}
	}
	return out
}

// redactValue redacts the secrets from a decoded JSON value — its strings
// and its keys — in place where it can, and reports whether any was found.
func redactValue(r *callruntime.SecretRedactor, v any) (any, bool) {
	if r == nil {
		return v, false
	}
	switch x := v.(type) {
	case string:
		y := r.RedactString(x)
		return y, y != x
	case map[string]any:
		changed := false
		renamed := map[string]string{}
		for k, e := range x {
			var c bool
			x[k], c = redactValue(r, e)
			if k2 := r.RedactString(k); k2 != k {
				renamed[k] = k2
				c = true
			}
			changed = changed || c
		}
		for k, k2 := range renamed {
			x[k2] = x[k]
			delete(x, k)
		}
		return x, changed
	case []any:
		changed := false
		for i, e := range x {
			var c bool
			x[i], c = redactValue(r, e)
			changed = changed || c
		}
		return x, changed
	}
	return v, false
}
