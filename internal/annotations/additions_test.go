package annotations_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The keys v1 gained for the real aeat (docs/manifest.md): each
// loads, renders and validates as the contract says, and each mistake is
// named by file, tool and field.

const destructive = `"annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": false}`

// aeatLike is a manifest that uses every addition at once.
const aeatLike = `{
  "version": 1,
  "cli": {
    "command": "aeat",
    "args": ["--format", "json"],
    "env": {"pass": ["CADRUMO_*"], "require": ["CADRUMO_HOME"], "set": {"CADRUMO_NONINTERACTIVE": "1"}},
    "params": [
      {"name": "profile", "type": "string", "flag": "--profile"},
      {"name": "lang", "type": "string", "flag": "--lang", "enum": ["es", "en", "ca", "hu"]}
    ],
    "exit_codes": {"2": {"meaning": "refused"}, "3": {"meaning": "auth", "hint": "log in again"}, "7": {"meaning": "locked", "retryable": true}},
    "error_output": "json"
  },
  "tools": [
    {"name": "ledger_remove", "title": "Remove a ledger entry", "description": "D", "command": ["app", "ledger", "remove"],
     ` + destructive + `,
     "params": [
       {"name": "entry", "type": "string", "positional": true, "required": true},
       {"name": "dry_run", "type": "boolean", "flag": "--dry-run", "global": false},
       {"name": "verbose", "type": "boolean", "flag": "--verbose", "global": true},
       {"name": "year", "type": "integer", "flag": "--year", "requires": ["period"]},
       {"name": "period", "type": "string", "flag": "--period"},
       {"name": "note", "type": "string", "flag": "--note", "sensitive": true}
     ],
     "confirm": {"flag": "--yes", "skip_when": {"dry_run": true}},
     "exit_codes": {"2": {"meaning": "problems_found", "ok": true}},
     "progress": "none"},
    {"name": "secrets_import", "title": "Import secrets", "description": "D", "command": ["app", "secrets", "import", "--secrets-stdin"],
     "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
     "stdin": {"env": "AEAT_SECRETS_JSON"}, "error_output": "text"},
    {"name": "note_put", "title": "Put a note", "description": "D", "command": ["note", "put"],
     "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
     "stdin": {"param": "body"},
     "params": [{"name": "body", "type": "string", "required": true, "sensitive": true}, {"name": "key", "type": "string", "flag": "--key"}]}
  ]
}`

func loadAeatLike(t *testing.T) *annotations.Manifest {
	t.Helper()
	m, err := annotations.Parse([]byte(aeatLike), "aeat.json")
	require.NoError(t, err)
	return m
}

func TestAdditions_Load(t *testing.T) {
	m := loadAeatLike(t)
	assert.Equal(t, []string{"CADRUMO_*"}, m.CLI.Pass)
	assert.Equal(t, []string{"CADRUMO_HOME"}, m.CLI.Require)
	rm := m.Tools[0]
	// cli.params come first, in every tool, global and shared.
	require.Equal(t, "profile", rm.Params()[0].Name)
	assert.True(t, rm.Params()[0].Global && rm.Params()[0].Shared)
	assert.Equal(t, "lang", m.Tools[1].Params()[1].Name)
	// Exit codes: the tool's entry wins, the cli's others stay.
	assert.Equal(t, annotations.ExitCode{Meaning: "problems_found", OK: annotations.OKAlways}, rm.ExitCodes[2])
	assert.Equal(t, annotations.ExitCode{Meaning: "auth", Hint: "log in again"}, rm.ExitCodes[3])
	assert.True(t, rm.ExitCodes[7].Retryable)
	assert.Equal(t, annotations.DefaultErrorPointers, rm.ErrorOutput)
	assert.Equal(t, annotations.ErrorOutput{Format: "text"}, m.Tools[1].ErrorOutput)
	assert.Equal(t, "none", rm.Progress)
	assert.Equal(t, "stdout", m.Tools[1].Progress, "text output: progress from stdout by default")
	assert.Equal(t, &annotations.StdinSource{Env: "AEAT_SECRETS_JSON"}, m.Tools[1].Stdin)
	assert.Equal(t, "--yes", rm.Confirm.Flag)
	// The input schema says requires as dependentRequired, sensitive as writeOnly.
	s := rm.InputSchema()
	assert.Equal(t, map[string][]string{"year": {"period"}}, s.DependentRequired)
	assert.True(t, s.Properties["note"].WriteOnly)
	assert.Equal(t, []string{"profile", "lang", "entry", "dry_run", "verbose", "year", "period", "note"}, s.PropertyOrder)
}

func TestAdditions_Render(t *testing.T) {
	m := loadAeatLike(t)
	rm := m.Tools[0]
	args, err := rm.Validate(json.RawMessage(`{"entry": "-42", "profile": "casa", "lang": "es", "verbose": true, "dry_run": false, "note": "s3cret"}`))
	require.NoError(t, err)
	inv, err := rm.Render(args, false)
	require.NoError(t, err)
	// Globals (cli.params, then params marked global) before the verb;
	// the confirm flag only when confirmed; "--" before positionals.
	assert.Equal(t, []string{"--format", "json", "--profile=casa", "--lang=es", "--verbose",
		"app", "ledger", "remove", "--note=s3cret", "--", "-42"}, inv.Argv)
	assert.Equal(t, "--note="+annotations.Mask, inv.Shown[8], "sensitive values are masked for people")
	assert.NotContains(t, strings.Join(inv.Shown, " "), "s3cret")
	inv, err = rm.Render(args, true)
	require.NoError(t, err)
	assert.Equal(t, []string{"app", "ledger", "remove", "--note=s3cret", "--yes", "--", "-42"}, inv.Argv[5:])

	// A param that is the tool's stdin never reaches argv.
	np := m.Tools[2]
	args, err = np.Validate(json.RawMessage(`{"body": "--secret-body", "key": "k"}`))
	require.NoError(t, err)
	inv, err = np.Render(args, false)
	require.NoError(t, err)
	assert.Equal(t, []string{"--format", "json", "note", "put", "--key=k"}, inv.Argv)
	require.NotNil(t, inv.Stdin)
	assert.Equal(t, "--secret-body", *inv.Stdin)
}

func TestAdditions_SkipWhen(t *testing.T) {
	rm := loadAeatLike(t).Tools[0]
	for _, tc := range []struct {
		args string
		skip bool
	}{
		{`{"entry": "1", "dry_run": true}`, true},
		{`{"entry": "1", "dry_run": false}`, false},
		{`{"entry": "1"}`, false},
	} {
		args, err := rm.Validate(json.RawMessage(tc.args))
		require.NoError(t, err)
		assert.Equal(t, tc.skip, rm.SkipsConfirmation(args), tc.args)
	}
}

func TestAdditions_Requires(t *testing.T) {
	rm := loadAeatLike(t).Tools[0]
	_, err := rm.Validate(json.RawMessage(`{"entry": "1", "year": 2025}`))
	var verr *annotations.ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, "year", verr.Field)
	assert.Equal(t, `requires "period": give "period" too, or leave "year" out`, verr.Msg)
	_, err = rm.Validate(json.RawMessage(`{"entry": "1", "year": 2025, "period": "1T"}`))
	assert.NoError(t, err)
	_, err = rm.Validate(json.RawMessage(`{"entry": "1", "period": "1T"}`))
	assert.NoError(t, err, "requires goes one way")
}

// TestAdditions_Errors pins what a manifest author sees for each new key.
func TestAdditions_Errors(t *testing.T) {
	cliWith := func(cli string) string {
		return `{"version": 1, "cli": {"command": "aeat", ` + cli + `}, "tools": [` + tool("a") + `]}`
	}
	destroy := func(extra ...string) string {
		fields := append([]string{`"name": "d"`, `"title": "T"`, `"description": "D"`, `"command": ["x"]`, destructive}, extra...)
		return "{" + strings.Join(fields, ", ") + "}"
	}
	tests := []struct {
		name string
		data string
		want []string
	}{
		{"pass prefix alone", cliWith(`"env": {"pass": ["*"]}`),
			[]string{`m.json: cli.env.pass[0]: "*" is not a variable name, or a prefix ending in * ("CADRUMO_*")`}},
		{"require a prefix", cliWith(`"env": {"require": ["CADRUMO_*"]}`),
			[]string{`m.json: cli.env.require[0]: "CADRUMO_*" is not a variable name`}},
		{"cli param positional", cliWith(`"params": [{"name": "p", "type": "string", "positional": true}]`),
			[]string{`m.json: cli.params[0].global: only a flag can be global`}},
		{"cli param not global", cliWith(`"params": [{"name": "p", "type": "string", "flag": "--p", "global": false}]`),
			[]string{`m.json: cli.params[0].global: the params of cli.params are always global`}},
		{"tool param shadows cli param", `{"version": 1, "cli": {"command": "aeat", "params": [{"name": "profile", "type": "string", "flag": "--profile"}]}, "tools": [` +
			tool("a", `"params": [{"name": "profile", "type": "string", "flag": "--p"}]`) + `]}`,
			[]string{`m.json: tool "a": params[0].name: "profile" is already a parameter of cli.params (shared by every tool)`}},
		{"global positional", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "string", "positional": true, "global": true}]`))),
			[]string{`m.json: tool "a": params[0].global: only a flag can be global`}},
		{"exit code not a number", cliWith(`"exit_codes": {"three": {"meaning": "auth"}, "0": {"meaning": "ok"}, "03": {"meaning": "x"}}`),
			[]string{`m.json: cli.exit_codes.0: "0" is not an exit code (a number from 1 up: 0 is success already)`,
				`m.json: cli.exit_codes.03: "03" is not an exit code (a number from 1 up: 0 is success already)`,
				`m.json: cli.exit_codes.three: "three" is not an exit code (a number from 1 up: 0 is success already)`}},
		{"exit code without meaning", cliWith(`"exit_codes": {"3": {"hint": "h"}}`),
			[]string{`m.json: cli.exit_codes.3.meaning: missing: a short word for programs ("auth", "locked")`}},
		{"exit code bad meaning and key", cliWith(`"exit_codes": {"3": {"meaning": "Auth Error", "retry": true}}`),
			[]string{`m.json: cli.exit_codes.3.retry: unknown key (known: meaning, retryable, hint, ok)`,
				`m.json: cli.exit_codes.3.meaning: "Auth Error" must match ^[a-z][a-z0-9_]{0,39}$ (a word programs can test)`}},
		{"ok and retryable", string(manifestWith(tool("a", `"exit_codes": {"2": {"meaning": "x", "ok": true, "retryable": true}}`))),
			[]string{`m.json: tool "a": exit_codes.2: a successful exit (ok) is not retryable`}},
		{"error output", cliWith(`"error_output": "xml"`),
			[]string{`m.json: cli.error_output: is "xml"; must be "text", "json" or an object of JSON Pointers ({"format": "json", "code": "/error/code", …})`}},
		{"progress", string(manifestWith(tool("a", `"progress": "both"`))),
			[]string{`m.json: tool "a": progress: is "both"; must be "stdout", "stderr" or "none"`}},
		{"stdin both", string(manifestWith(tool("a", `"stdin": {"env": "X", "param": "p"}`))),
			[]string{`m.json: tool "a": stdin: give exactly one of env (a server variable the model never sees), keychain (a secret stored with aeat-mcp secret set) and param`}},
		{"stdin bad env", string(manifestWith(tool("a", `"stdin": {"env": "X-Y"}`))),
			[]string{`m.json: tool "a": stdin.env: "X-Y" is not a variable name`}},
		{"stdin unknown param", string(manifestWith(tool("a", `"stdin": {"param": "p"}`))),
			[]string{`m.json: tool "a": stdin.param: "p" is not a parameter of this tool`}},
		{"stdin param with a flag", string(manifestWith(tool("a", `"stdin": {"param": "p"}`, `"params": [{"name": "p", "type": "string", "flag": "--p"}]`))),
			[]string{`m.json: tool "a": params[0]: is the tool's stdin: it has neither flag nor positional (it is never on the command line)`}},
		{"stdin param not a string", string(manifestWith(tool("a", `"stdin": {"param": "p"}`, `"params": [{"name": "p", "type": "integer"}]`))),
			[]string{`m.json: tool "a": stdin.param: "p" must be a string parameter of this tool`}},
		{"requires unknown", string(manifestWith(tool("a", `"params": [{"name": "y", "type": "integer", "flag": "--y", "requires": ["p"]}]`))),
			[]string{`m.json: tool "a": params[0].requires: "p" is not a parameter of this tool`}},
		{"requires itself", string(manifestWith(tool("a", `"params": [{"name": "y", "type": "integer", "flag": "--y", "requires": ["y"]}]`))),
			[]string{`m.json: tool "a": params[0].requires: a parameter cannot require itself`}},
		{"requires a default", string(manifestWith(tool("a", `"params": [{"name": "y", "type": "integer", "flag": "--y", "requires": ["p"]}, {"name": "p", "type": "string", "flag": "--p", "default": "1T"}]`))),
			[]string{`m.json: tool "a": params[0].requires: "p" has a default, so it is always given: requiring it says nothing`}},
		{"requires empty", string(manifestWith(tool("a", `"params": [{"name": "y", "type": "integer", "flag": "--y", "requires": []}]`))),
			[]string{`m.json: tool "a": params[0].requires: is empty`}},
		{"confirm on a non-destructive tool", string(manifestWith(tool("a", `"confirm": {"flag": "--yes"}`))),
			[]string{`m.json: tool "a": confirm: only a destructive tool is confirmed (destructiveHint is false)`}},
		{"confirm flag a param gives", string(manifestWith(destroy(`"confirm": {"flag": "--yes"}`, `"params": [{"name": "yes", "type": "boolean", "flag": "--yes"}]`))),
			[]string{`m.json: tool "d": confirm.flag: "--yes" is also given by the parameter "yes" (the model could pass it): only a person's yes may add it`}},
		{"confirm flag in cli.args", `{"version": 1, "cli": {"command": "aeat", "args": ["--yes"]}, "tools": [` + destroy(`"confirm": {"flag": "--yes"}`) + `]}`,
			[]string{`m.json: tool "d": confirm.flag: "--yes" is also given by cli.args: only a person's yes may add it`}},
		{"confirm flag in the command", string(manifestWith(`{"name": "d", "title": "T", "description": "D", "command": ["x", "--yes=true"], ` + destructive + `, "confirm": {"flag": "--yes"}}`)),
			[]string{`m.json: tool "d": confirm.flag: "--yes" is also given by the tool's command: only a person's yes may add it`}},
		{"confirm bad flag", string(manifestWith(destroy(`"confirm": {"flag": "yes"}`))),
			[]string{`m.json: tool "d": confirm.flag: "yes" is not an option name (e.g. "--yes")`}},
		{"skip_when unknown param", string(manifestWith(destroy(`"confirm": {"skip_when": {"dry_run": true}}`))),
			[]string{`m.json: tool "d": confirm.skip_when.dry_run: "dry_run" is not a parameter of this tool`}},
		{"skip_when wrong value", string(manifestWith(destroy(`"confirm": {"skip_when": {"dry_run": "yes"}}`, `"params": [{"name": "dry_run", "type": "boolean", "flag": "--dry-run"}]`))),
			[]string{`m.json: tool "d": confirm.skip_when.dry_run: must be true or false (got a string)`}},
		{"unknown confirm key", string(manifestWith(destroy(`"confirm": {"flags": "--yes"}`))),
			[]string{`m.json: tool "d": confirm.flags: unknown key (known: flag, skip_when)`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := annotations.Parse([]byte(tc.data), "m.json")
			require.Error(t, err)
			assert.Equal(t, strings.Join(tc.want, "\n"), err.Error())
		})
	}
}

func TestSelection(t *testing.T) {
	m := loadAeatLike(t)
	for _, tc := range []struct {
		patterns []string
		want     []string
	}{
		{nil, []string{"ledger_remove", "secrets_import", "note_put"}},
		{[]string{"ledger_*"}, []string{"ledger_remove"}},
		{[]string{"ledger_*", "note_*"}, []string{"ledger_remove", "note_put"}},
		{[]string{"!secrets_*"}, []string{"ledger_remove", "note_put"}},
		{[]string{"*_*,!note_put"}, []string{"ledger_remove", "secrets_import"}},
		{[]string{" ledger_remove , "}, []string{"ledger_remove"}},
	} {
		sel, err := annotations.ParseSelection(tc.patterns)
		require.NoError(t, err)
		var got []string
		for _, tl := range m.Tools {
			if sel.Selects(tl.Name) {
				got = append(got, tl.Name)
			}
		}
		assert.Equal(t, tc.want, got, "%q", tc.patterns)
	}
	sel, err := annotations.ParseSelection([]string{"ledger_*", "!nothing_*", "typo"})
	require.NoError(t, err)
	assert.Equal(t, []string{"typo", "nothing_*"}, sel.Unmatched(m.Tools))
	_, err = annotations.ParseSelection([]string{"ledger_["})
	assert.EqualError(t, err, `tool pattern "ledger_[": syntax error in pattern`)
}

// TestParam_Parse: a person's --arg text becomes a value, or an error that
// says the type expected and the value given.
func TestParam_Parse(t *testing.T) {
	m, err := annotations.Parse(manifestWith(tool("a", `"params": [
		{"name": "year", "type": "integer", "flag": "--year"},
		{"name": "ratio", "type": "number", "flag": "--ratio"},
		{"name": "dry", "type": "boolean", "flag": "--dry"},
		{"name": "tags", "type": "array", "items": "integer", "flag": "--tag"}]`)), "")
	require.NoError(t, err)
	tl := m.Tools[0]
	p := func(name string) *annotations.Param { prm, ok := tl.Param(name); require.True(t, ok); return prm }
	_, err = p("year").Parse("dos-mil", nil)
	assert.EqualError(t, err, `expected an integer, got "dos-mil"`)
	_, err = p("year").Parse("2025.5", nil)
	assert.EqualError(t, err, `expected an integer, got "2025.5"`)
	v, err := p("year").Parse("9007199254740993", nil)
	require.NoError(t, err)
	assert.Equal(t, json.Number("9007199254740993"), v)
	_, err = p("ratio").Parse("NaN", nil)
	assert.EqualError(t, err, `expected a number, got "NaN"`)
	v, err = p("dry").Parse("yes", nil)
	require.NoError(t, err)
	assert.Equal(t, true, v)
	_, err = p("dry").Parse("maybe", nil)
	assert.EqualError(t, err, `expected true or false, got "maybe"`)
	v, _ = p("tags").Parse("1", nil)
	v, _ = p("tags").Parse("2", v)
	assert.Equal(t, []any{json.Number("1"), json.Number("2")}, v)
	assert.Equal(t, "array of integer", p("tags").TypeName())
}
