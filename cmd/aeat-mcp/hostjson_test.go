package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testEntry = `{"type":"stdio","command":"/opt/aeat-mcp","args":["--demo"]}`

// TestMergeEntry: the merge changes the file only where the entry goes —
// layout, key order, escapes, comments and trailing commas of everything
// else stay byte for byte.
func TestMergeEntry(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		jsonc          bool
	}{
		{
			name: "new file",
			in:   "",
			want: "{\n  \"servers\": {\n    \"aeat\": {\n      \"type\": \"stdio\",\n      \"command\": \"/opt/aeat-mcp\",\n      \"args\": [\n        \"--demo\"\n      ]\n    }\n  }\n}\n",
		},
		{
			name: "empty object",
			in:   "{}",
			want: "{\n  \"servers\": {\n    \"aeat\": {\n      \"type\": \"stdio\",\n      \"command\": \"/opt/aeat-mcp\",\n      \"args\": [\n        \"--demo\"\n      ]\n    }\n  }\n}",
		},
		{
			name: "other keys and servers kept as written, tabs followed",
			in:   "{\n\t\"zeta\": \"\\u00e9\",\n\t\"servers\": {\n\t\t\"other\": {\"command\": \"x\"}\n\t},\n\t\"n\": 1.50\n}\n",
			want: "{\n\t\"zeta\": \"\\u00e9\",\n\t\"servers\": {\n\t\t\"other\": {\"command\": \"x\"},\n\t\t\"aeat\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"/opt/aeat-mcp\",\n\t\t\t\"args\": [\n\t\t\t\t\"--demo\"\n\t\t\t]\n\t\t}\n\t},\n\t\"n\": 1.50\n}\n",
		},
		{
			name: "an empty servers object",
			in:   "{\n  \"servers\": {}\n}\n",
			want: "{\n  \"servers\": {\n    \"aeat\": {\n      \"type\": \"stdio\",\n      \"command\": \"/opt/aeat-mcp\",\n      \"args\": [\n        \"--demo\"\n      ]\n    }\n  }\n}\n",
		},
		{
			name: "our old entry replaced in place",
			in:   "{\"servers\": {\"aeat\": {\"command\": \"/old\"}, \"b\": {}}}",
			want: "{\"servers\": {\"aeat\": {\"type\":\"stdio\",\"command\":\"/opt/aeat-mcp\",\"args\":[\"--demo\"]}, \"b\": {}}}",
		},
		{
			name:  "JSONC: comments and a trailing comma kept",
			jsonc: true,
			in:    "{\n  // my servers\n  \"servers\": {\n    \"other\": {\"command\": \"x\"}, // keep me\n  },\n  /* inputs */\n  \"inputs\": [],\n}\n",
			want:  "{\n  // my servers\n  \"servers\": {\n    \"other\": {\"command\": \"x\"}, // keep me\n    \"aeat\": {\n      \"type\": \"stdio\",\n      \"command\": \"/opt/aeat-mcp\",\n      \"args\": [\n        \"--demo\"\n      ]\n    },\n  },\n  /* inputs */\n  \"inputs\": [],\n}\n",
		},
		{
			name:  "JSONC: a comment after the last member stays on its line",
			jsonc: true,
			in:    "{\n  \"servers\": {\n    \"other\": {} // keep me\n  }\n}\n",
			want:  "{\n  \"servers\": {\n    \"other\": {}, // keep me\n    \"aeat\": {\n      \"type\": \"stdio\",\n      \"command\": \"/opt/aeat-mcp\",\n      \"args\": [\n        \"--demo\"\n      ]\n    }\n  }\n}\n",
		},
		{
			name:  "JSONC: no servers key yet",
			jsonc: true,
			in:    "// VS Code\n{\n  \"inputs\": [] // none\n}\n",
			want:  "// VS Code\n{\n  \"inputs\": [], // none\n  \"servers\": {\n    \"aeat\": {\n      \"type\": \"stdio\",\n      \"command\": \"/opt/aeat-mcp\",\n      \"args\": [\n        \"--demo\"\n      ]\n    }\n  }\n}\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := mergeEntry([]byte(tc.in), "servers", "aeat", []byte(testEntry), tc.jsonc)
			require.NoError(t, err)
			assert.True(t, changed)
			assert.Equal(t, tc.want, string(out))
			again, changed, err := mergeEntry(out, "servers", "aeat", []byte(testEntry), tc.jsonc)
			require.NoError(t, err)
			assert.False(t, changed, "the same entry twice changes nothing")
			assert.Equal(t, string(out), string(again))
		})
	}
}

func TestMergeEntry_Refuses(t *testing.T) {
	for _, tc := range []struct {
		name, in, says string
		jsonc          bool
	}{
		{name: "comments where the host reads strict JSON", in: "{\n  // c\n  \"servers\": {}\n}", says: "comments or trailing commas"},
		{name: "trailing comma where the host reads strict JSON", in: `{"servers": {},}`, says: "comments or trailing commas"},
		{name: "an array", in: "[]", says: "not a JSON object"},
		{name: "garbage", in: `{"a": `, says: "not JSON"},
		{name: "servers not an object", in: `{"servers": []}`, says: `"servers" is not an object`},
		{name: "a duplicate top-level key", in: `{"servers": {}, "x": 1, "x": 2}`, says: `the key "x" appears twice`},
		{name: "a duplicate escaped top-level key", in: `{"servers": {}, "x": 1, "\u0078": 2}`, says: `the key "x" appears twice`},
		{name: "a duplicate server", in: `{"servers": {"a": {}, "a": {}}}`, says: `the server "a" appears twice`},
		{name: "a duplicate in JSONC", jsonc: true, in: "{\"servers\": {}, // c\n \"servers\": {}}", says: `the key "servers" appears twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := mergeEntry([]byte(tc.in), "servers", "aeat", []byte(testEntry), tc.jsonc)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.says)
		})
	}
}
