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
