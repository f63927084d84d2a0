package annotations_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// manifestWith wraps tool objects (JSON) in an otherwise valid manifest.
func manifestWith(tools ...string) []byte {
	return []byte(`{"version": 1, "cli": {"command": "aeat"}, "tools": [` + strings.Join(tools, ",") + `]}`)
}

const hints = `"annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}`

func tool(name string, extra ...string) string {
	fields := append([]string{`"name": "` + name + `"`, `"title": "T"`, `"description": "D"`, `"command": ["x"]`, hints}, extra...)
	return "{" + strings.Join(fields, ", ") + "}"
}

func TestParse_Valid(t *testing.T) {
	m, err := annotations.Parse(manifestWith(
		tool("a", `"params": [{"name": "year", "type": "integer", "required": true, "flag": "--year", "minimum": 2000},
			{"name": "tags", "type": "array", "items": "string", "flag": "--tag"},
			{"name": "nif", "type": "string", "positional": true, "pattern": "^[0-9A-Z]{9}$"}]`,
			`"output": "json"`, `"timeout": "90s"`),
		tool("b"),
	), "m.json")
	require.NoError(t, err)
	require.Len(t, m.Tools, 2)
	a := m.Tools[0]
	assert.Equal(t, "json", a.Output)
	assert.Equal(t, 90*time.Second, a.Timeout)
	assert.Len(t, a.Params(), 3)
	assert.Equal(t, "text", m.Tools[1].Output)
	assert.Empty(t, m.Warnings)
}

// TestParse_Errors pins the exact text a manifest author sees.
func TestParse_Errors(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []string
	}{
		{"syntax error", "{\n  \"version\": 1,\n  \"cli\": {\"command\": \"aeat\"},,\n}",
			[]string{`m.json: invalid JSON at line 3, column 31: invalid character ',' looking for beginning of object key string`}},
		{"data after the manifest", "{\"version\": 1}\n{}",
			[]string{`m.json: invalid JSON at line 2, column 2: invalid character '{' after top-level value`}},
		{"cut short", "{\"version\": 1,\n \"cli\": {",
			[]string{`m.json: invalid JSON at line 2, column 10: unexpected end of JSON input`}},
		{"not an object", `[]`, []string{"m.json: must be an object"}},
		{"wrong version", `{"version": 2, "cli": {"command": "aeat"}, "tools": [` + tool("a") + `]}`,
			[]string{"m.json: version: is 2; this loader reads version 1"}},
		{"missing everything", `{}`, []string{
			"m.json: version: missing (this loader reads version 1)",
			"m.json: cli: missing",
			"m.json: tools: missing"}},
		{"unknown top-level key", `{"version": 1, "cli": {"command": "aeat"}, "tols": [], "tools": [` + tool("a") + `]}`,
			[]string{"m.json: tols: unknown key (known: $schema, version, cli, surface, tools)"}},
		{"surface names what is not a tool", `{"version": 1, "cli": {"command": "aeat"}, "surface": {"core": ["a", "b", "a"]}, "tools": [` + tool("a") + `]}`,
			[]string{`m.json: surface.core[1]: "b" is not a tool of this manifest`, `m.json: surface.core[2]: "a" is listed twice`}},
		{"surface empty", `{"version": 1, "cli": {"command": "aeat"}, "surface": {"core": []}, "tools": [` + tool("a") + `]}`,
			[]string{`m.json: surface.core: is empty: name the tools a small surface lists, or leave surface out`}},
		{"surface unknown key", `{"version": 1, "cli": {"command": "aeat"}, "surface": {"cores": ["a"]}, "tools": [` + tool("a") + `]}`,
			[]string{`m.json: surface.cores: unknown key (known: core)`}},
		{"unknown cli key", `{"version": 1, "cli": {"command": "aeat", "enviroment": {}}, "tools": [` + tool("a") + `]}`,
			[]string{"m.json: cli.enviroment: unknown key (known: command, args, env, cwd, params, exit_codes, error_codes, error_output, health, warm)"}},
		{"bad env names", `{"version": 1, "cli": {"command": "aeat", "env": {"pass": ["A B"], "set": {"1X": "y"}}}, "tools": [` + tool("a") + `]}`,
			[]string{`m.json: cli.env.pass[0]: "A B" is not a variable name`, `m.json: cli.env.set: "1X" is not a variable name`}},
		{"reserved name", string(manifestWith(tool("aeat_mcp_wait"))),
			[]string{`m.json: tools[0].name: "aeat_mcp_wait": names starting with aeat_mcp_ are reserved for aeat-mcp's own tools (aeat_mcp_wait, aeat_mcp_cancel, aeat_mcp_runs)`}},
		{"cwd keyword mistyped", `{"version": 1, "cli": {"command": "aeat", "cwd": "@scratch2"}, "tools": [` + tool("a") + `]}`,
			[]string{`m.json: cli.cwd: "@scratch2": the only keyword is "@scratch" (a fresh directory per call); a directory path does not start with @`}},
		{"empty tools", `{"version": 1, "cli": {"command": "aeat"}, "tools": []}`,
			[]string{"m.json: tools: is empty: a manifest advertises at least one tool"}},
		{"duplicate tool", string(manifestWith(tool("a"), tool("a"))),
			[]string{`m.json: tool "a": name: duplicate: tools[0] has the same name`}},
		{"bad name", string(manifestWith(tool("Pull-303"))),
			[]string{`m.json: tools[0].name: "Pull-303" must match ^[a-z0-9_]{1,64}$ (lower-case letters, digits, underscores)`}},
		{"name too long", string(manifestWith(tool(strings.Repeat("a", 65)))),
			[]string{`m.json: tools[0].name: "` + strings.Repeat("a", 65) + `" must match ^[a-z0-9_]{1,64}$ (lower-case letters, digits, underscores)`}},
		{"unknown tool key", string(manifestWith(tool("a", `"timout": "5s"`))),
			[]string{`m.json: tools[0].timout: unknown key (known: name, title, description, command, annotations, params, output, timeout, stdin, exit_codes, error_codes, error_output, confirm, progress, hints_guessed, cli_help)`}},
		{"missing title and description", string(manifestWith(`{"name": "a", "command": ["x"], ` + hints + `}`)),
			[]string{`m.json: tool "a": title: missing or empty: hosts show it to people`,
				`m.json: tool "a": description: missing or empty: the model reads it to choose the tool`}},
		{"missing annotations", string(manifestWith(`{"name": "a", "title": "T", "description": "D", "command": ["x"]}`)),
			[]string{`m.json: tool "a": annotations: missing: readOnlyHint, destructiveHint, idempotentHint and openWorldHint must all be given`}},
		{"missing hint", string(manifestWith(`{"name": "a", "title": "T", "description": "D", "command": ["x"], "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true}}`)),
			[]string{`m.json: tool "a": annotations.openWorldHint: missing: all four hints must be explicit (MCP's defaults are destructive and open-world)`}},
		{"non-boolean hint", string(manifestWith(`{"name": "a", "title": "T", "description": "D", "command": ["x"], "annotations": {"readOnlyHint": "yes", "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}`)),
			[]string{`m.json: tool "a": annotations.readOnlyHint: must be true or false`}},
		{"read-only and destructive", string(manifestWith(`{"name": "a", "title": "T", "description": "D", "command": ["x"], "annotations": {"readOnlyHint": true, "destructiveHint": true, "idempotentHint": true, "openWorldHint": false}}`)),
			[]string{`m.json: tool "a": annotations: readOnlyHint and destructiveHint are both true: a read-only tool cannot be destructive`}},
		{"bad duration", string(manifestWith(tool("a", `"timeout": "90"`))),
			[]string{`m.json: tool "a": timeout: "90" is not a duration (e.g. "90s", "5m")`}},
		{"negative duration", string(manifestWith(tool("a", `"timeout": "-5s"`))),
			[]string{`m.json: tool "a": timeout: "-5s" must be positive`}},
		{"bad output", string(manifestWith(tool("a", `"output": "yaml"`))),
			[]string{`m.json: tool "a": output: is "yaml"; must be "text" or "json"`}},
		{"flag and positional", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "string", "flag": "--n", "positional": true}]`))),
			[]string{`m.json: tool "a": params[0]: has both flag and positional: give exactly one`}},
		{"neither flag nor positional", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "string"}]`))),
			[]string{`m.json: tool "a": params[0]: has neither flag nor positional: give exactly one`}},
		{"positional array not last", string(manifestWith(tool("a", `"params": [{"name": "files", "type": "array", "items": "string", "positional": true}, {"name": "n", "type": "string", "positional": true}]`))),
			[]string{`m.json: tool "a": params[0]: a positional array must be the last positional parameter`}},
		{"bad regex", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "string", "flag": "--n", "pattern": "([a-z"}]`))),
			[]string{"m.json: tool \"a\": params[0].pattern: is not a valid regular expression: error parsing regexp: missing closing ]: `[a-z`"}},
		{"bad type", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "object", "flag": "--n"}]`))),
			[]string{`m.json: tool "a": params[0].type: is "object"; must be one of string, integer, number, boolean, array`}},
		{"array without items", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "array", "flag": "--n"}]`))),
			[]string{`m.json: tool "a": params[0].items: missing: an array says what it holds (string, integer or number)`}},
		{"negate on a string", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "string", "flag": "--n", "negate": "--no-n"}]`))),
			[]string{`m.json: tool "a": params[0].negate: only a boolean flag can have a negate flag`}},
		{"flag that is not an option", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "string", "flag": "n=1"}]`))),
			[]string{`m.json: tool "a": params[0].flag: "n=1" is not an option name (e.g. "--year")`}},
		{"unknown param key", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "string", "flag": "--n", "requird": true}]`))),
			[]string{`m.json: tool "a": params[0].requird: unknown key (known: name, type, items, required, description, default, enum, pattern, minimum, maximum, minLength, maxLength, flag, positional, negate, global, sensitive, requires)`}},
		{"duplicate param", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "string", "flag": "--n"}, {"name": "n", "type": "string", "flag": "--m"}]`))),
			[]string{`m.json: tool "a": params[1].name: duplicate parameter "n"`}},
		{"default that violates the schema", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "integer", "flag": "--n", "minimum": 5, "default": 1}]`))),
			[]string{`m.json: tool "a": params[0].default: must be at least 5 (got 1)`}},
		{"enum of the wrong type", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "integer", "flag": "--n", "enum": [1, "two"]}]`))),
			[]string{`m.json: tool "a": params[0].enum[1]: must be an integer (got a string)`}},
		{"required with default", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "integer", "flag": "--n", "required": true, "default": 1}]`))),
			[]string{`m.json: tool "a": params[0].default: a required parameter cannot have a default`}},
		{"min above max", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "integer", "flag": "--n", "minimum": 5, "maximum": 1}]`))),
			[]string{`m.json: tool "a": params[0]: minimum is greater than maximum`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := annotations.Parse([]byte(tc.data), "m.json")
			require.Error(t, err)
			var merr *annotations.Error
			require.ErrorAs(t, err, &merr)
			lines := strings.Split(err.Error(), "\n")
			require.Len(t, lines, len(tc.want), err.Error())
			for i, want := range tc.want {
				assert.True(t, strings.HasPrefix(lines[i], want), "got  %s\nwant %s", lines[i], want)
			}
		})
	}
}

func TestParse_WarnsOnLongNames(t *testing.T) {
	name := strings.Repeat("x", 41)
	m, err := annotations.Parse(manifestWith(tool(name)), "m.json")
	require.NoError(t, err)
	require.Len(t, m.Warnings, 1)
	assert.Contains(t, m.Warnings[0], "name has 41 characters")
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	require.NoError(t, os.WriteFile(path, manifestWith(tool("a")), 0o644))
	m, err := annotations.Load(path)
	require.NoError(t, err)
	assert.Equal(t, path, m.Source)

	_, err = annotations.Load(filepath.Join(dir, "missing.json"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing.json")
}

func TestTier(t *testing.T) {
	tests := []struct {
		readOnly, destructive, openWorld bool
		timeout                          string
		tier                             annotations.Tier
		ceiling                          time.Duration
	}{
		{readOnly: true, openWorld: true, tier: annotations.Live, ceiling: 420 * time.Second},
		{readOnly: false, destructive: true, openWorld: true, tier: annotations.Live, ceiling: 420 * time.Second},
		{readOnly: true, tier: annotations.Read, ceiling: 45 * time.Second},
		{readOnly: false, tier: annotations.Mutate, ceiling: 180 * time.Second},
		{readOnly: false, destructive: true, tier: annotations.Mutate, ceiling: 180 * time.Second},
		{readOnly: true, timeout: "5s", tier: annotations.Read, ceiling: 5 * time.Second},
	}
	for _, tc := range tests {
		h, _ := json.Marshal(map[string]bool{"readOnlyHint": tc.readOnly, "destructiveHint": tc.destructive, "idempotentHint": true, "openWorldHint": tc.openWorld})
		tl := `{"name": "a", "title": "T", "description": "D", "command": ["x"], "annotations": ` + string(h)
		if tc.timeout != "" {
			tl += `, "timeout": "` + tc.timeout + `"`
		}
		m, err := annotations.Parse(manifestWith(tl+"}"), "")
		require.NoError(t, err)
		assert.Equal(t, tc.tier, m.Tools[0].Tier())
		assert.Equal(t, tc.ceiling, m.Tools[0].Ceiling(annotations.DefaultCeilings))
	}
}

func TestResolveCommand(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	require.NoError(t, os.Mkdir(bin, 0o755))
	exe := filepath.Join(bin, "aeat")
	require.NoError(t, os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755))
	plain := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(plain, []byte("x"), 0o644))
	manifest := filepath.Join(dir, "m.json")

	load := func(command string) *annotations.Manifest {
		data := `{"version": 1, "cli": {"command": ` + strings.ReplaceAll(`"`+command+`"`, `\`, `\\`) + `}, "tools": [` + tool("a") + `]}`
		m, err := annotations.Parse([]byte(data), manifest)
		require.NoError(t, err)
		return m
	}
	t.Run("absolute", func(t *testing.T) {
		p, err := load(exe).ResolveCommand("", "")
		require.NoError(t, err)
		assert.Equal(t, exe, p)
	})
	t.Run("relative to the manifest", func(t *testing.T) {
		p, err := load("bin/aeat").ResolveCommand("", "")
		require.NoError(t, err)
		assert.Equal(t, exe, p)
	})
	t.Run("next to the binary before PATH", func(t *testing.T) {
		t.Setenv("PATH", "/nonexistent")
		p, err := load("aeat").ResolveCommand("", bin)
		require.NoError(t, err)
		assert.Equal(t, exe, p)
	})
	t.Run("on PATH", func(t *testing.T) {
		t.Setenv("PATH", bin)
		p, err := load("aeat").ResolveCommand("", t.TempDir())
		require.NoError(t, err)
		assert.Equal(t, exe, p)
	})
	t.Run("override", func(t *testing.T) {
		p, err := load("nope").ResolveCommand(exe, "")
		require.NoError(t, err)
		assert.Equal(t, exe, p)
	})
	t.Run("missing is reported, not fatal", func(t *testing.T) {
		t.Setenv("PATH", "/nonexistent")
		_, err := load("aeat-missing").ResolveCommand("", bin)
		require.ErrorIs(t, err, annotations.ErrCLIUnavailable)
		assert.Contains(t, err.Error(), `"aeat-missing" is not an executable file`)
		assert.Contains(t, err.Error(), filepath.Join(bin, "aeat-missing"))
	})
	t.Run("not executable", func(t *testing.T) {
		_, err := load(plain).ResolveCommand("", "")
		require.ErrorIs(t, err, annotations.ErrCLIUnavailable)
	})
}

func TestWorkDir(t *testing.T) {
	for cwd, want := range map[string]string{"": "", "@scratch": "@scratch", "/abs": "/abs", "rel": "/etc/aeat/rel"} {
		m, err := annotations.Parse([]byte(`{"version": 1, "cli": {"command": "aeat", "cwd": "`+cwd+`"}, "tools": [`+tool("a")+`]}`), "/etc/aeat/m.json")
		require.NoError(t, err)
		assert.Equal(t, want, m.WorkDir(), "cwd %q", cwd)
	}
}

// TestParse_RefusesControlSequences: a manifest is text a host prints and a
// model reads; a terminal escape (an OSC 8 link, a clear-screen, colour) or
// a direction override in what they read is refused, naming the field and
// what is there — the same rule the server cleans a CLI's output by.
func TestParse_RefusesControlSequences(t *testing.T) {
	const osc8 = `\u001b]8;;https://evil.example/\u0007docs\u001b]8;;\u0007`
	tests := []struct {
		name, data, want string
	}{
		{"title, OSC 8 link", string(manifestWith(`{"name": "a", "title": "Read ` + osc8 + `", "description": "D", "command": ["x"], ` + hints + `}`)),
			`m.json: tool "a": title: holds a terminal escape sequence "\x1b]8;;https://evil.exampl…" at byte 5: hosts print this text and models read it; remove it`},
		{"description, clear-screen", string(manifestWith(`{"name": "a", "title": "T", "description": "\u001b[2J\u001b[HList", "command": ["x"], ` + hints + `}`)),
			`m.json: tool "a": description: holds a terminal escape sequence "\x1b[2J" at byte 0: hosts print this text and models read it; remove it`},
		{"param description, SGR", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "string", "flag": "--n", "description": "the \u001b[1mname\u001b[0m"}]`))),
			`m.json: tool "a": params[0].description: holds a terminal escape sequence "\x1b[1m" at byte 4: hosts print this text and models read it; remove it`},
		{"description, BIDI override", string(manifestWith(`{"name": "a", "title": "T", "description": "pay \u202eyrtne\u202c", "command": ["x"], ` + hints + `}`)),
			`m.json: tool "a": description: holds the direction control U+202E (text reads differently from what it is) at byte 4: hosts print this text and models read it; remove it`},
		{"exit code hint, zero-width", `{"version": 1, "cli": {"command": "aeat", "exit_codes": {"3": {"meaning": "auth", "hint": "log\u200bin"}}}, "tools": [` + tool("a") + `]}`,
			`m.json: cli.exit_codes.3.hint: holds the invisible character U+200B at byte 3: hosts print this text and models read it; remove it`},
		{"error code hint, carriage return", `{"version": 1, "cli": {"command": "aeat", "error_codes": {"X": {"meaning": "x", "hint": "fine\rpwned"}}}, "tools": [` + tool("a") + `]}`,
			`m.json: cli.error_codes.X.hint: holds a carriage return (\r) at byte 4: hosts print this text and models read it; remove it`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := annotations.Parse([]byte(tc.data), "m.json")
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
	_, err := annotations.Parse(manifestWith(`{"name": "a", "title": "Año — “ok” 😀", "description": "Lines\n\tand tabs stay.", "command": ["x"], `+hints+`}`), "m.json")
	assert.NoError(t, err, "newlines, tabs and shown characters are text")
}
