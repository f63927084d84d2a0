package generate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// treeParam reads one param as a tree writes it.
func treeParam(t *testing.T, s string) Param {
	t.Helper()
	tree, err := ParseTree([]byte(`[{"path": ["x"], "params": [` + s + `]}]`))
	require.NoError(t, err)
	return tree[0].Params[0]
}

func TestMapParam(t *testing.T) {
	for _, tc := range []struct {
		name, param string
		// want is the manifest param; "" when none.
		want    string
		hidden  bool
		confirm string
		note    string
	}{
		{"string option", `{"name": "since", "kind": "option", "opts": ["--since"], "type": "str"}`,
			`{"flag": "--since", "name": "since", "type": "string"}`, false, "", ""},
		{"long option preferred to short", `{"name": "tag", "kind": "option", "opts": ["-t", "--tag"], "type": "str"}`,
			`{"flag": "--tag", "name": "tag", "type": "string"}`, false, "", ""},
		{"int range", `{"name": "limit", "kind": "option", "opts": ["--limit"], "type": "int range", "min": 1, "max": 500}`,
			`{"flag": "--limit", "maximum": 500, "minimum": 1, "name": "limit", "type": "integer"}`, false, "", ""},
		{"open int range moves in by one", `{"name": "n", "kind": "option", "opts": ["--n"], "type": "int range", "min": 0, "min_open": true, "max": 10, "max_open": true}`,
			`{"flag": "--n", "maximum": 9, "minimum": 1, "name": "n", "type": "integer"}`, false, "", ""},
		{"open float range stays", `{"name": "r", "kind": "option", "opts": ["--r"], "type": "float range", "min": 0, "min_open": true, "max": null}`,
			`{"flag": "--r", "minimum": 0, "name": "r", "type": "number"}`, false, "", ""},
		{"choice", `{"name": "period", "kind": "option", "opts": ["--period"], "type": "choice", "choices": ["1T", "2T"]}`,
			`{"enum": ["1T", "2T"], "flag": "--period", "name": "period", "type": "string"}`, false, "", ""},
		{"repeatable choice", `{"name": "modelo", "kind": "option", "opts": ["--modelo"], "type": "choice", "choices": ["303", "390"], "multiple": true}`,
			`{"enum": ["303", "390"], "flag": "--modelo", "items": "string", "name": "modelo", "type": "array"}`, false, "", ""},
		{"repeatable int", `{"name": "year", "kind": "option", "opts": ["--year"], "type": "int", "multiple": true}`,
			`{"flag": "--year", "items": "integer", "name": "year", "type": "array"}`, false, "", ""},
		{"--x/--no-x", `{"name": "dry_run", "kind": "option", "opts": ["--dry-run"], "secondary": ["--no-dry-run"], "type": "boolean", "is_flag": true, "default": true}`,
			`{"default": true, "flag": "--dry-run", "name": "dry_run", "negate": "--no-dry-run", "type": "boolean"}`, false, "", ""},
		{"plain flag, default false left out", `{"name": "all", "kind": "option", "opts": ["--all"], "type": "boolean", "is_flag": true, "default": false}`,
			`{"flag": "--all", "name": "all", "type": "boolean"}`, false, "", ""},
		{"counting flag", `{"name": "verbose", "kind": "option", "opts": ["-v", "--verbose"], "type": "int range", "count": true, "min": 0}`,
			`{"flag": "--verbose", "name": "verbose", "type": "boolean"}`, false, "", ""},
		{"a boolean that takes a value", `{"name": "on", "kind": "option", "opts": ["--on"], "type": "boolean", "default": "true"}`,
			`{"default": "true", "enum": ["true", "false"], "flag": "--on", "name": "on", "type": "string"}`, false, "", ""},
		{"required", `{"name": "year", "kind": "option", "opts": ["--year"], "type": "int", "required": true, "default": 2025}`,
			`{"flag": "--year", "name": "year", "required": true, "type": "integer"}`, false, "", ""},
		{"prompted: required; a hidden prompt is sensitive", `{"name": "password", "kind": "option", "opts": ["--password"], "type": "str", "prompt": true, "hide_input": true}`,
			`{"flag": "--password", "name": "password", "required": true, "sensitive": true, "type": "string"}`, false, "", ""},
		{"an eager option that takes a value stays (flask's --app)", `{"name": "app", "kind": "option", "opts": ["-A", "--app"], "type": "str", "eager": true, "expose_value": false}`,
			`{"flag": "--app", "name": "app", "type": "string"}`, false, "", ""},
		{"-y as another flag's shorthand is that flag (gh's --yaml)", `{"name": "yaml", "kind": "option", "opts": ["-y", "--yaml"], "type": "boolean", "is_flag": true}`,
			`{"flag": "--yaml", "name": "yaml", "type": "boolean"}`, false, "", ""},
		{"-y alone is the confirm flag", `{"name": "y", "kind": "option", "opts": ["-y"], "type": "boolean", "is_flag": true}`,
			``, false, "-y", ""},
		{"--yes is the confirm flag", `{"name": "yes", "kind": "option", "opts": ["--yes"], "type": "boolean", "is_flag": true}`,
			``, false, "--yes", ""},
		{"--confirm/--yes prefers --yes", `{"name": "confirm", "kind": "option", "opts": ["--confirm", "--yes"], "type": "boolean", "is_flag": true}`,
			``, false, "--yes", ""},
		{"a prompted flag is a confirmation", `{"name": "really", "kind": "option", "opts": ["--really"], "type": "boolean", "is_flag": true, "prompt": true}`,
			``, false, "--really", ""},
		{"argument", `{"name": "transaction_id", "kind": "argument", "opts": ["transaction_id"], "type": "str", "required": true, "nargs": 1}`,
			`{"name": "transaction_id", "positional": true, "required": true, "type": "string"}`, false, "", ""},
		{"variadic argument", `{"name": "files", "kind": "argument", "opts": ["files"], "type": "path", "nargs": -1}`,
			`{"items": "string", "name": "files", "positional": true, "type": "array"}`, false, "", ""},
		{"boolean argument", `{"name": "on", "kind": "argument", "opts": ["on"], "type": "boolean", "required": true}`,
			`{"enum": ["true", "false"], "name": "on", "positional": true, "required": true, "type": "string"}`, false, "", ""},
		{"a default of the param", `{"name": "currency", "kind": "option", "opts": ["--currency"], "type": "str", "default": "EUR"}`,
			`{"default": "EUR", "flag": "--currency", "name": "currency", "type": "string"}`, false, "", ""},
		{"a default outside the range", `{"name": "n", "kind": "option", "opts": ["--n"], "type": "int range", "min": 1, "default": 0}`,
			`{"flag": "--n", "minimum": 1, "name": "n", "type": "integer"}`, false, "", `param n: the CLI's default 0 is not a value of the param; left out`},
		{"a default outside the choices", `{"name": "k", "kind": "option", "opts": ["--k"], "type": "choice", "choices": ["a"], "default": "b"}`,
			`{"enum": ["a"], "flag": "--k", "name": "k", "type": "string"}`, false, "", `param k: the CLI's default "b" is not a value of the param; left out`},
		{"a string default for an int", `{"name": "n", "kind": "option", "opts": ["--n"], "type": "int", "default": "3"}`,
			`{"flag": "--n", "name": "n", "type": "integer"}`, false, "", `param n: the CLI's default "3" is not a value of the param; left out`},
		{"empty defaults say nothing", `{"name": "tags", "kind": "option", "opts": ["--tag"], "type": "str", "multiple": true, "default": []}`,
			`{"flag": "--tag", "items": "string", "name": "tags", "type": "array"}`, false, "", ""},
		{"a list default", `{"name": "tags", "kind": "option", "opts": ["--tag"], "type": "str", "multiple": true, "default": ["a", "b"]}`,
			`{"default": ["a", "b"], "flag": "--tag", "items": "string", "name": "tags", "type": "array"}`, false, "", ""},
		{"duration", `{"name": "remind", "kind": "option", "opts": ["--remind"], "type": "duration", "default": "1h0m0s"}`,
			`{"default": "1h0m0s", "flag": "--remind", "name": "remind", "pattern": "` + jsonString(durationPattern) + `", "type": "string"}`, false, "", ""},
		{"an unknown type is a string", `{"name": "when", "kind": "option", "opts": ["--when"], "type": "zoned moment"}`,
			`{"flag": "--when", "name": "when", "type": "string"}`, false, "", `param when: type "zoned moment" is not one generate knows: a string, the CLI checks it`},
		{"help is the description", `{"name": "year", "kind": "option", "opts": ["--year"], "type": "int", "help": "The tax year.\f internal"}`,
			`{"description": "The tax year.", "flag": "--year", "name": "year", "type": "integer"}`, false, "", ""},
		{"hidden", `{"name": "debug_dump", "kind": "option", "opts": ["--debug-dump"], "type": "str", "hidden": true}`,
			`{"flag": "--debug-dump", "name": "debug_dump", "type": "string"}`, true, "", ""},
		{"several values at once", `{"name": "point", "kind": "option", "opts": ["--point"], "type": "float", "nargs": 2}`,
			``, false, "", `option --point takes 2 values at once: a manifest writes one value per --flag=value token`},
		{"--version acts, gives no value", `{"name": "version", "kind": "option", "opts": ["--version"], "type": "boolean", "is_flag": true, "eager": true, "expose_value": false}`,
			``, false, "", ""},
		{"an eager option with a value stays", `{"name": "lang", "kind": "option", "opts": ["--lang"], "type": "choice", "choices": ["es", "en"], "eager": true}`,
			`{"enum": ["es", "en"], "flag": "--lang", "name": "lang", "type": "string"}`, false, "", ""},
		{"a name made valid", `{"name": "2fa-code", "kind": "option", "opts": ["--2fa-code"], "type": "str"}`,
			`{"flag": "--2fa-code", "name": "_2fa_code", "type": "string"}`, false, "", ""},
		{"an option without a name is named by its long flag", `{"name": "", "kind": "option", "opts": ["-o", "--out-dir"], "type": "str"}`,
			`{"flag": "--out-dir", "name": "out_dir", "type": "string"}`, false, "", ""},
		{"an argument without a name is none", `{"name": "", "kind": "argument", "opts": ["FILE"], "type": "str"}`,
			``, false, "", `param "FILE": no name to give it`},
		{"a boolean argument taking several values", `{"name": "flags", "kind": "argument", "type": "boolean", "nargs": -1}`,
			`{"enum": ["true", "false"], "items": "string", "name": "flags", "positional": true, "type": "array"}`, false, "", ""},
		{"an unknown type is a string, with a note; the CLI's default kept", `{"name": "when", "kind": "option", "opts": ["--when"], "type": "moment", "default": "now", "hidden": true}`,
			`{"default": "now", "flag": "--when", "name": "when", "type": "string"}`, true, "", `param when: type "moment" is not one generate knows: a string, the CLI checks it`},
		{"the CLI's own --yes is the confirm flag", `{"name": "yes", "kind": "option", "opts": ["--yes"], "type": "boolean", "is_flag": true}`,
			``, false, "--yes", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mapParam(treeParam(t, tc.param))
			if tc.want == "" {
				assert.Nil(t, m.p)
			} else {
				require.NotNil(t, m.p)
				got, err := json.Marshal(m.p)
				require.NoError(t, err)
				assert.JSONEq(t, tc.want, string(got))
			}
			assert.Equal(t, tc.hidden, m.hidden)
			assert.Equal(t, tc.confirm, m.confirm)
			assert.Equal(t, tc.note, m.note)
		})
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func TestTexts(t *testing.T) {
	for _, tc := range []struct {
		name               string
		cmd                Command
		title, description string
	}{
		{"no help", Command{Path: []string{"app", "ledger", "list"}}, "app ledger list", "Runs the CLI's `app ledger list` command."},
		{"help only", Command{Path: []string{"x"}, Help: "List the entries. Filters apply.\n\n\b\nMore here.\f\nHidden notes."},
			"List the entries", "List the entries. Filters apply.\n\nMore here."},
		{"short help wins for the title", Command{Path: []string{"x"}, ShortHelp: "Show one entry.", Help: "Shows an entry with all its fields."},
			"Show one entry", "Shows an entry with all its fields."},
		{"deprecated says so", Command{Path: []string{"x"}, Deprecated: true, ShortHelp: "Old list"}, "Old list", "Deprecated by the CLI. Old list"},
		{"a long first sentence is cut at a word", Command{Path: []string{"x"}, Help: "This one sentence goes on and on about everything the command does, far beyond what a title should ever carry for a person"},
			"This one sentence goes on and on about everything the command does, far beyond what a title should…",
			"This one sentence goes on and on about everything the command does, far beyond what a title should ever carry for a person"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			title, desc := texts(&tc.cmd, strings.Join(tc.cmd.Path, " "))
			assert.Equal(t, tc.title, title)
			assert.Equal(t, tc.description, desc)
		})
	}
}

// TestMapParam_MachineDefault: a default that names this machine's home
// directory is the machine's, not the CLI's: left out, and said.
func TestMapParam_MachineDefault(t *testing.T) {
	old := home
	home = "/home/ana"
	t.Cleanup(func() { home = old })
	mp := mapParam(Param{Name: "cache_dir", Kind: "option", Opts: []string{"--cache-dir"}, Type: "str", Default: "/home/ana/.kube/cache"})
	require.NotNil(t, mp.p)
	assert.NotContains(t, mp.p, "default")
	assert.Equal(t, `param cache_dir: the CLI's default "/home/ana/.kube/cache" names this machine's home directory: left out (the CLI applies it itself)`, mp.note)
	mp = mapParam(Param{Name: "dir", Kind: "option", Opts: []string{"--dir"}, Type: "str", Default: "/var/cache"})
	assert.Equal(t, "/var/cache", mp.p["default"])
}
