package annotations_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// renderTool has one parameter of every kind the contract knows.
const renderTool = `{
  "version": 1,
  "cli": {"command": "aeat", "args": ["--format", "json"]},
  "tools": [{
    "name": "t", "title": "T", "description": "D", "command": ["modelo", "303", "pull"],
    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true},
    "params": [
      {"name": "year", "type": "integer", "flag": "--year"},
      {"name": "ratio", "type": "number", "flag": "--ratio"},
      {"name": "period", "type": "string", "flag": "--period"},
      {"name": "dry_run", "type": "boolean", "flag": "--dry-run", "negate": "--no-dry-run"},
      {"name": "verbose", "type": "boolean", "flag": "-v"},
      {"name": "tags", "type": "array", "items": "string", "flag": "--tag"},
      {"name": "limit", "type": "integer", "flag": "--limit", "default": 50},
      {"name": "nif", "type": "string", "positional": true},
      {"name": "files", "type": "array", "items": "string", "positional": true}
    ]
  }]
}`

func loadRenderTool(t testing.TB) *annotations.Tool {
	t.Helper()
	m, err := annotations.Parse([]byte(renderTool), "")
	require.NoError(t, err)
	return m.Tools[0]
}

func render(t *testing.T, tl *annotations.Tool, args string) ([]string, error) {
	t.Helper()
	v, err := tl.Validate(json.RawMessage(args))
	if err != nil {
		return nil, err
	}
	inv, err := tl.Render(v, false)
	return inv.Argv, err
}

func TestRender(t *testing.T) {
	tl := loadRenderTool(t)
	prefix := []string{"--format", "json", "modelo", "303", "pull"}
	tests := []struct {
		name string
		args string
		want []string
	}{
		{"nothing: defaults only", `{}`, []string{"--limit=50"}},
		{"null arguments", `null`, []string{"--limit=50"}},
		{"flags in params order, one token each", `{"period": "1T", "year": 2025}`, []string{"--year=2025", "--period=1T", "--limit=50"}},
		{"value with spaces and shell syntax stays one token", `{"period": "1T; rm -rf / $(x) 'q'"}`, []string{"--period=1T; rm -rf / $(x) 'q'", "--limit=50"}},
		{"value that looks like a flag is the flag's value", `{"period": "--dry-run"}`, []string{"--period=--dry-run", "--limit=50"}},
		{"boolean true", `{"dry_run": true, "verbose": true}`, []string{"--dry-run", "-v", "--limit=50"}},
		{"boolean false with negate", `{"dry_run": false}`, []string{"--no-dry-run", "--limit=50"}},
		{"boolean false without negate is omitted", `{"verbose": false}`, []string{"--limit=50"}},
		{"array repeats its flag", `{"tags": ["a", "b c", ""]}`, []string{"--tag=a", "--tag=b c", "--tag=", "--limit=50"}},
		{"empty array", `{"tags": []}`, []string{"--limit=50"}},
		{"explicit value replaces the default", `{"limit": 7}`, []string{"--limit=7"}},
		{"number", `{"ratio": 0.1}`, []string{"--ratio=0.1", "--limit=50"}},
		{"big integer without exponent", `{"year": 123456789012}`, []string{"--year=123456789012", "--limit=50"}},
		{"positional after --", `{"nif": "B12345678"}`, []string{"--limit=50", "--", "B12345678"}},
		{"positional starting with a dash", `{"nif": "-rf"}`, []string{"--limit=50", "--", "-rf"}},
		{"positional array last", `{"nif": "X", "files": ["--a", "b"]}`, []string{"--limit=50", "--", "X", "--a", "b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			argv, err := render(t, tl, tc.args)
			require.NoError(t, err)
			assert.Equal(t, append(append([]string{}, prefix...), tc.want...), argv)
		})
	}
}

func TestRender_RejectsNUL(t *testing.T) {
	tl := loadRenderTool(t)
	for _, args := range []string{`{"period": "a\u0000b"}`, `{"tags": ["ok", "\u0000"]}`, `{"nif": "\u0000"}`} {
		_, err := render(t, tl, args)
		var verr *annotations.ValidationError
		require.ErrorAs(t, err, &verr, args)
		assert.Contains(t, verr.Msg, "contains a NUL byte", args)
	}
}

func TestValidate(t *testing.T) {
	m, err := annotations.Parse([]byte(`{"version": 1, "cli": {"command": "aeat"}, "tools": [{
		"name": "t", "title": "T", "description": "D", "command": ["x"],
		"annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true},
		"params": [
			{"name": "year", "type": "integer", "required": true, "flag": "--year", "minimum": 2000, "maximum": 2100},
			{"name": "period", "type": "string", "enum": ["1T", "2T", "3T", "4T"], "flag": "--period"},
			{"name": "nif", "type": "string", "positional": true, "pattern": "^[0-9A-Z]{9}$"},
			{"name": "note", "type": "string", "flag": "--note", "minLength": 2, "maxLength": 5},
			{"name": "codes", "type": "array", "items": "integer", "flag": "--code", "minimum": 1}
		]}]}`), "")
	require.NoError(t, err)
	tl := m.Tools[0]
	tests := []struct {
		args, field, msg string
	}{
		{`[]`, "", "arguments must be an object, not an array"},
		{`"x"`, "", "arguments must be an object, not a string"},
		{`{"year": 2025`, "", "arguments are not valid JSON: unexpected end of JSON input"},
		{`{}`, "year", "is required"},
		{`{"year": 2025, "yaer": 1}`, "yaer", "unknown argument; this tool takes year, period, nif, note, codes"},
		{`{"year": "2025"}`, "year", "must be an integer (got a string)"},
		{`{"year": 2025.5}`, "year", "must be an integer (got 2025.5)"},
		{`{"year": 1999}`, "year", "must be at least 2000 (got 1999)"},
		{`{"year": 2101}`, "year", "must be at most 2100 (got 2101)"},
		{`{"year": 2025, "period": "5T"}`, "period", "must be one of 1T, 2T, 3T, 4T (got 5T)"},
		{`{"year": 2025, "nif": "b1234567"}`, "nif", `"b1234567" does not match the pattern ^[0-9A-Z]{9}$`},
		{`{"year": 2025, "note": "a"}`, "note", "must be at least 2 characters long (got 1)"},
		{`{"year": 2025, "note": "abcdef"}`, "note", "must be at most 5 characters long (got 6)"},
		{`{"year": 2025, "codes": [1, 0]}`, "codes", "item 1: must be at least 1 (got 0)"},
		{`{"year": 2025, "codes": 1}`, "codes", "must be an array of integers (got a number)"},
		{`{"year": null}`, "year", "must be an integer (got null)"},
		{`{"year": 9007199254740992.5}`, "year", "must be an integer (got 9007199254740992.5)"},
		{`{"year": 2025.0000000000000001}`, "year", "must be an integer (got 2025.0000000000000001)"},
		{`{"year": 2100.0000000000000001}`, "year", "must be an integer (got 2100.0000000000000001)"},
		{`{"year": 1e999999999}`, "year", "has an exponent out of range (1e999999999)"},
		{`{"year": 2025} {}`, "", "arguments are not valid JSON: data after the arguments object"},
	}
	for _, tc := range tests {
		t.Run(tc.args, func(t *testing.T) {
			_, err := tl.Validate(json.RawMessage(tc.args))
			var verr *annotations.ValidationError
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, tc.field, verr.Field)
			assert.Equal(t, tc.msg, verr.Msg)
		})
	}
	args, err := tl.Validate(json.RawMessage(`{"year": 2025, "period": "1T", "nif": "B12345678", "codes": [1, 2]}`))
	require.NoError(t, err)
	period, _ := args.Get("period")
	assert.Equal(t, "1T", period)
}

// FuzzRender checks the argv contract for any arguments that validate: the
// argv parses back to the same values, no value lands before "--" as an
// option or is split or merged, and nothing but a declared flag starts with
// "-" before "--".
func FuzzRender(f *testing.F) {
	f.Add("1T", "B12345678", "a\x1fb", "--x\x1f-y", int64(2025), 0.5, true, true)
	f.Add("--dry-run", "-rf", "", "", int64(-1), -1e300, false, false)
	f.Add("a=b", "--", "--tag=x", "--\x1f--", int64(0), 0.0, true, false)
	tl := loadRenderTool(f)
	aeat, err := annotations.Parse([]byte(aeatLike), "")
	require.NoError(f, err)
	remove, notePut := aeat.Tools[0], aeat.Tools[2]
	flags := map[string]string{} // flag -> param
	for _, p := range tl.Params() {
		if p.Flag != "" {
			flags[p.Flag] = p.Name
		}
	}
	f.Fuzz(func(t *testing.T, period, nif, tags, files string, year int64, ratio float64, dry, hasDry bool) {
		// JSON cannot carry invalid UTF-8: MCP arguments never hold it.
		// Each string on its own: two invalid halves can make a valid
		// whole ("\xc5" + "\x94" is "Ŕ").
		for _, s := range []string{period, nif, tags, files} {
			if !utf8.ValidString(s) {
				return
			}
		}
		args := map[string]any{"period": period, "nif": nif, "year": year, "ratio": ratio}
		if tags != "" {
			args["tags"] = strings.Split(tags, "\x1f")
		}
		if files != "" {
			args["files"] = strings.Split(files, "\x1f")
		}
		if hasDry {
			args["dry_run"] = dry
		}
		raw, err := json.Marshal(args)
		if err != nil {
			return // NaN, Inf
		}
		v, err := tl.Validate(raw)
		if err != nil {
			return
		}
		inv, err := tl.Render(v, false)
		argv := inv.Argv
		if err != nil {
			if strings.ContainsRune(period+nif+tags+files, 0) {
				return
			}
			t.Fatalf("render: %v", err)
		}
		got := parseBack(t, argv[5:], flags)
		assert.Equal(t, period, got["period"][0])
		assert.Equal(t, []string{nif}, got["nif"][:1])
		assert.Equal(t, strconv.FormatInt(year, 10), got["year"][0])
		back, err := strconv.ParseFloat(got["ratio"][0], 64)
		require.NoError(t, err)
		assert.Equal(t, ratio, back)
		if tags != "" {
			assert.Equal(t, strings.Split(tags, "\x1f"), got["tags"])
		}
		wantPos := []string{nif}
		if files != "" {
			wantPos = append(wantPos, strings.Split(files, "\x1f")...)
		}
		assert.Equal(t, wantPos, got["nif"])
		if hasDry {
			assert.Equal(t, fmt.Sprint(dry), got["dry_run"][0])
		}
		checkAdditions(t, remove, notePut, period, nif, tags, files, dry, hasDry)
	})
}

// checkAdditions is FuzzRender's part for the keys of DESIGN §3.1: global
// flags before the verb, the confirm flag only when confirmed and never
// from a value, a stdin param never on the command line.
func checkAdditions(t *testing.T, remove, notePut *annotations.Tool, profile, entry, note, body string, confirmed, hasDry bool) {
	args := map[string]any{"entry": entry, "profile": profile, "note": note}
	if hasDry {
		args["dry_run"] = confirmed
	}
	raw, _ := json.Marshal(args)
	if v, err := remove.Validate(raw); err == nil {
		inv, err := remove.Render(v, confirmed)
		require.NoError(t, err)
		argv := inv.Argv
		require.Equal(t, []string{"--format", "json", "--profile=" + profile, "app", "ledger", "remove"}, argv[:6])
		dd := slices.Index(argv, "--")
		require.Equal(t, []string{entry}, argv[dd+1:], "the positional, alone after --")
		yes := slices.Index(argv[:dd], "--yes")
		assert.Equal(t, confirmed, yes >= 0, "--yes only when confirmed: %q", argv)
		for i, tok := range argv[6:dd] {
			if tok == "--yes" {
				assert.Equal(t, dd-1, 6+i, "--yes is the last flag")
			}
		}
		assert.Equal(t, len(argv), len(inv.Shown))
		if note != "" && note != annotations.Mask {
			assert.NotContains(t, inv.Shown, "--note="+note, "a sensitive value is shown masked")
			assert.Contains(t, inv.Shown, "--note="+annotations.Mask)
		}
	}
	raw, _ = json.Marshal(map[string]any{"body": body, "key": "k"})
	if v, err := notePut.Validate(raw); err == nil {
		inv, err := notePut.Render(v, false)
		require.NoError(t, err)
		assert.Equal(t, []string{"--format", "json", "note", "put", "--key=k"}, inv.Argv)
		require.NotNil(t, inv.Stdin)
		assert.Equal(t, body, *inv.Stdin)
	}
}

// parseBack reads an argv the way a CLI's option parser would.
func parseBack(t *testing.T, argv []string, flags map[string]string) map[string][]string {
	got := map[string][]string{}
	for i, tok := range argv {
		if tok == "--" {
			got["nif"] = append([]string{}, argv[i+1:]...)
			return got
		}
		switch {
		case tok == "--dry-run":
			got["dry_run"] = append(got["dry_run"], "true")
		case tok == "--no-dry-run":
			got["dry_run"] = append(got["dry_run"], "false")
		case tok == "-v":
			got["verbose"] = append(got["verbose"], "true")
		default:
			name, val, ok := strings.Cut(tok, "=")
			param, declared := flags[name]
			if !ok || !declared {
				t.Fatalf("token %q before -- is not a declared flag", tok)
			}
			got[param] = append(got[param], val)
		}
	}
	return got
}

// TestRender_NumbersExact: a number reaches argv exactly as the client
// meant it — no float64 on the way.
func TestRender_NumbersExact(t *testing.T) {
	m, err := annotations.Parse([]byte(`{"version": 1, "cli": {"command": "x"}, "tools": [{
		"name": "n", "title": "N", "description": "d", "command": ["n"],
		"annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
		"params": [
			{"name": "i", "type": "integer", "flag": "--i"},
			{"name": "f", "type": "number", "flag": "--f"},
			{"name": "e", "type": "integer", "flag": "--e", "enum": [1, 2]},
			{"name": "is", "type": "array", "items": "integer", "flag": "--is"}
		]}]}`), "")
	require.NoError(t, err)
	tl := m.Tools[0]
	for _, tc := range []struct{ args, want string }{
		{`{"i": 9007199254740993}`, "--i=9007199254740993"},
		{`{"i": 12345678901234567890}`, "--i=12345678901234567890"},
		{`{"i": -9223372036854775809}`, "--i=-9223372036854775809"},
		{`{"i": 2025.0}`, "--i=2025"},
		{`{"i": 2.025e3}`, "--i=2025"},
		{`{"f": 1e-400}`, "--f=1e-400"},
		{`{"f": 0.1}`, "--f=0.1"},
		{`{"f": 9007199254740993.25}`, "--f=9007199254740993.25"},
		{`{"e": 2.0}`, "--e=2"},
		{`{"is": [9007199254740993, 1]}`, "--is=9007199254740993 --is=1"},
	} {
		t.Run(tc.args, func(t *testing.T) {
			args, err := tl.Validate(json.RawMessage(tc.args))
			require.NoError(t, err)
			inv, err := tl.Render(args, false)
			require.NoError(t, err)
			argv := inv.Argv
			assert.Equal(t, tc.want, strings.Join(argv[1:], " "))
		})
	}
}
