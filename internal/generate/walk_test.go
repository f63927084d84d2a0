package generate

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestShebang(t *testing.T) {
	for _, tc := range []struct {
		name, head string
		want       []string
		err        string
	}{
		{"pip's console script", "#!/home/me/.venv/bin/python3\n# -*- coding: utf-8 -*-\nimport re\n", []string{"/home/me/.venv/bin/python3"}, ""},
		{"env", "#!/usr/bin/env python3\nimport sys\n", []string{"/usr/bin/env", "python3"}, ""},
		{"an argument", "#!/usr/bin/python3 -E -s\r\nimport sys\n", []string{"/usr/bin/python3", "-E -s"}, ""},
		{"pip's trampoline for a long path", "#!/bin/sh\n'''exec' \"/very long/venv/bin/python\" \"$0\" \"$@\"\n' '''\n", []string{"/very long/venv/bin/python"}, ""},
		{"pip's trampoline, unquoted", "#!/bin/sh\n'''exec' /v/bin/python \"$0\" \"$@\"\n' '''\n", []string{"/v/bin/python"}, ""},
		{"a shell script", "#!/bin/sh\nexec python -m x \"$@\"\n", nil, "its #! line runs /bin/sh, not Python"},
		{"no #! line", "MZ\x90\x00binary", nil, "no #! line naming its Python"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Shebang([]byte(tc.head))
			if tc.err != "" {
				assert.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestParseCobraFlag(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       string // the Param as JSON; "" for a line left out
		ok         bool
	}{
		{"string with a default", `      --format string          text or json (default "text")`,
			`{"name": "format", "kind": "option", "opts": ["--format"], "type": "str", "nargs": 1, "help": "text or json", "default": "text"}`, true},
		{"a usage that says default itself", `      --lang string            language (default from AEAT_MCP_LANG, LANG)`,
			`{"name": "lang", "kind": "option", "opts": ["--lang"], "type": "str", "nargs": 1, "help": "language (default from AEAT_MCP_LANG, LANG)"}`, true},
		{"bool, pflag 1.1", `      --pin[=true|false]       pin it`,
			`{"name": "pin", "kind": "option", "opts": ["--pin"], "type": "boolean", "is_flag": true, "nargs": 1, "help": "pin it"}`, true},
		{"bool, older pflag", `      --pin                    pin it`,
			`{"name": "pin", "kind": "option", "opts": ["--pin"], "type": "boolean", "is_flag": true, "nargs": 1, "help": "pin it"}`, true},
		{"bool on by default takes a value", `      --notify[=true|false]    tell the others (default true)`,
			`{"name": "notify", "kind": "option", "opts": ["--notify"], "type": "boolean", "nargs": 1, "help": "tell the others", "default": "true"}`, true},
		{"short and array", `  -t, --tag stringArray        a tag (repeatable)`,
			`{"name": "tag", "kind": "option", "opts": ["--tag", "-t"], "type": "str", "multiple": true, "nargs": 1, "help": "a tag (repeatable)"}`, true},
		{"slice default", `      --link strings           links (default [a,"b,c"])`,
			`{"name": "link", "kind": "option", "opts": ["--link"], "type": "str", "multiple": true, "nargs": 1, "help": "links", "default": ["a", "b,c"]}`, true},
		{"int", `      --priority int           priority (default 3)`,
			`{"name": "priority", "kind": "option", "opts": ["--priority"], "type": "int", "nargs": 1, "help": "priority", "default": 3}`, true},
		{"duration", `      --remind duration        after this long (default 1h0m0s)`,
			`{"name": "remind", "kind": "option", "opts": ["--remind"], "type": "duration", "nargs": 1, "help": "after this long", "default": "1h0m0s"}`, true},
		{"float", `      --weight float           weight (default 0.5)`,
			`{"name": "weight", "kind": "option", "opts": ["--weight"], "type": "float", "nargs": 1, "help": "weight", "default": 0.5}`, true},
		{"count", `  -d, --detail count           more detail`,
			`{"name": "detail", "kind": "option", "opts": ["--detail", "-d"], "type": "int", "min": 0, "nargs": 1, "help": "more detail"}`, true},
		{"a named placeholder", "      --manifest FILE          the manifest",
			`{"name": "manifest", "kind": "option", "opts": ["--manifest"], "type": "str", "nargs": 1, "help": "the manifest"}`, true},
		{"an optional value", `      --color string[="auto"]  colour (default "never")`,
			`{"name": "color", "kind": "option", "opts": ["--color"], "type": "str", "nargs": 1, "help": "colour", "default": "never"}`, true},
		{"help", `  -h, --help[=true|false]      help for add`, ``, true},
		{"deprecated", `      --old string             old (DEPRECATED: use --new)`, ``, true},
		{"not a flag", `  add         Add a note`, ``, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := parseCobraFlag(tc.line)
			assert.Equal(t, tc.ok, ok)
			if tc.want == "" {
				assert.Nil(t, p)
				return
			}
			require.NotNil(t, p)
			var want Param
			require.NoError(t, json.Unmarshal([]byte(tc.want), &want))
			if n, ok := want.Default.(float64); ok {
				want.Default = json.Number(jsonNum(n))
			}
			assert.Equal(t, want, *p)
		})
	}
}

func jsonNum(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

func TestParseCobraHelp(t *testing.T) {
	h := parseCobraHelp(`Copy files, then say so.

Usage: is what the next section shows:
  it does.

Usage:
  prog copy SRC [DST] [--mode MODE]… [flags]
  prog copy [command]

Aliases:
  copy, cp

Examples:
  prog copy a b

Available Commands:
  deep        Go deeper
  help        Help about any command

Management Commands:
  admin       Administer

Flags:
  -h, --help            help for copy
      --mode string     how to copy
                        (several lines of it)

Global Flags:
      --profile string   the profile

Use "prog copy [command] --help" for more information about a command.
`, []string{"prog", "copy"})
	assert.True(t, h.hasUsage)
	assert.True(t, h.runnable)
	assert.Equal(t, "Copy files, then say so.\n\nUsage: is what the next section shows:\n  it does.", h.description)
	assert.Equal(t, []cobraListed{{"deep", "Go deeper"}, {"admin", "Administer"}}, h.commands, "cobra's help command is left out; command groups are read")
	require.Len(t, h.flags, 1)
	assert.Equal(t, "how to copy\n(several lines of it)", h.flags[0].Help)
	require.Len(t, h.globals, 1)
	assert.Equal(t, "profile", h.globals[0].Name)
	require.Len(t, h.args, 2)
	assert.Equal(t, Param{Name: "src", Kind: "argument", Type: "str", Required: true, Nargs: 1}, h.args[0])
	assert.Equal(t, Param{Name: "dst", Kind: "argument", Type: "str", Nargs: 1}, h.args[1])

	for _, tc := range []struct {
		usage string
		args  []Param
	}{
		{"prog rm ID [ID...] [flags]", []Param{{Name: "id", Kind: "argument", Type: "str", Required: true, Nargs: -1}}},
		{"prog rm <name> [FILES]… [flags]", []Param{{Name: "name", Kind: "argument", Type: "str", Required: true, Nargs: 1}, {Name: "files", Kind: "argument", Type: "str", Nargs: -1}}},
		{"prog call TOOL [--arg NAME=VALUE]… | [--args-json '{…}'] [flags]", []Param{{Name: "tool", Kind: "argument", Type: "str", Required: true, Nargs: 1}}},
		{"prog list [flags]", nil},
	} {
		h := parseCobraHelp("Usage:\n  "+tc.usage+"\n", []string{"prog", "x"})
		assert.Equal(t, tc.args, h.args, tc.usage)
		assert.True(t, h.runnable)
	}
	group := parseCobraHelp("Usage:\n  prog remote [command]\n", []string{"prog", "remote"})
	assert.False(t, group.runnable, "a group only")
}
