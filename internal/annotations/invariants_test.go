package annotations_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoManifests is every manifest shipped in the repository: the examples and
// the built-in demo.
func repoManifests(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, glob := range []string{"../../examples/*.manifest.json", "../demo/*.manifest.json"} {
		m, err := filepath.Glob(glob)
		require.NoError(t, err)
		out = append(out, m...)
	}
	require.NotEmpty(t, out)
	return out
}

// TestInvariants holds every shipped manifest to what hosts and models need:
// a title, all four hints explicit and coherent, names within budget,
// schemas that resolve, and no warnings.
func TestInvariants(t *testing.T) {
	for _, path := range repoManifests(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			m, err := annotations.Load(path)
			require.NoError(t, err)
			// The one warning a shipped manifest may have: a generated one
			// names the tools whose hints nobody could take from the CLI.
			for _, w := range m.Warnings {
				assert.True(t, strings.HasPrefix(w, "hints guessed for "), w)
			}
			var doc struct {
				Tools []struct {
					Annotations map[string]json.RawMessage `json:"annotations"`
				} `json:"tools"`
			}
			require.NoError(t, json.Unmarshal(raw, &doc))
			for i, tl := range m.Tools {
				assert.NotEmpty(t, tl.Title, tl.Name)
				assert.NotEmpty(t, tl.Description, tl.Name)
				assert.LessOrEqual(t, len(tl.Name), annotations.NameBudget, tl.Name)
				for _, h := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
					assert.Contains(t, doc.Tools[i].Annotations, h, "%s: %s must be explicit", tl.Name, h)
				}
				assert.False(t, tl.Hints.ReadOnly && tl.Hints.Destructive, tl.Name)
				if tl.Hints.ReadOnly {
					assert.True(t, tl.Hints.Idempotent, "%s: a read is idempotent", tl.Name)
				}
				require.NotNil(t, tl.InputSchema(), tl.Name)
				_, err := tl.InputSchema().CloneSchemas().Resolve(nil)
				assert.NoError(t, err, tl.Name)
				sameSchema(t, tl)
			}
		})
	}
}

// sameSchema holds InputSchemaJSON (encoded at load, what a server may
// hand hosts) to InputSchema marshalled: the same JSON value, and the
// properties in the same order.
func sameSchema(t *testing.T, tl *annotations.Tool) {
	t.Helper()
	want, err := json.Marshal(tl.InputSchema())
	require.NoError(t, err)
	got := tl.InputSchemaJSON()
	var w, g any
	require.NoError(t, json.Unmarshal(want, &w))
	require.NoError(t, json.Unmarshal(got, &g), "%s: InputSchemaJSON is not JSON: %s", tl.Name, got)
	assert.Equal(t, w, g, "%s: InputSchemaJSON and InputSchema differ", tl.Name)
	assert.Equal(t, propertyOrder(t, want), propertyOrder(t, got), "%s: the properties' order", tl.Name)
}

// propertyOrder is the order of the keys of a schema's "properties".
func propertyOrder(t *testing.T, schema []byte) []string {
	t.Helper()
	var top map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(schema, &top))
	raw, ok := top["properties"]
	if !ok {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var keys []string
	_, err := dec.Token() // {
	require.NoError(t, err)
	for dec.More() {
		k, err := dec.Token()
		require.NoError(t, err)
		keys = append(keys, k.(string))
		var skip json.RawMessage
		require.NoError(t, dec.Decode(&skip))
	}
	return keys
}

func manifestSchema(t testing.TB) *jsonschema.Resolved {
	t.Helper()
	raw, err := os.ReadFile("../../schema/manifest.v1.schema.json")
	require.NoError(t, err)
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal(raw, &s))
	rs, err := s.Resolve(nil)
	require.NoError(t, err)
	return rs
}

// TestManifestSchemaInSync keeps schema/manifest.v1.schema.json (what editors
// check) in step with the loader: the same keys at every level, every shipped
// manifest accepted by both, and the rules the schema can express rejected by
// both.
func TestManifestSchemaInSync(t *testing.T) {
	rs := manifestSchema(t)
	s := rs.Schema()
	keys := func(ps map[string]*jsonschema.Schema) []string {
		var out []string
		for k := range ps {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	// The loader names its known keys in its "unknown key" errors.
	known := func(data string) []string {
		_, err := annotations.Parse([]byte(data), "")
		require.Error(t, err)
		m := regexp.MustCompile(`known: ([^)]*)\)`).FindStringSubmatch(err.Error())
		require.NotNil(t, m, err.Error())
		out := strings.Split(m[1], ", ")
		sort.Strings(out)
		return out
	}
	assert.Equal(t, keys(s.Properties), known(`{"zz": 1}`), "top level")
	assert.Equal(t, keys(s.Properties["cli"].Properties), known(`{"version": 1, "cli": {"zz": 1}, "tools": []}`), "cli")
	assert.Equal(t, keys(s.Properties["cli"].Properties["env"].Properties), known(`{"version": 1, "cli": {"command": "a", "env": {"zz": 1}}, "tools": []}`), "cli.env")
	toolDef := s.Defs["tool"]
	assert.Equal(t, keys(toolDef.Properties), known(string(manifestWith(`{"zz": 1}`))), "tool")
	assert.Equal(t, keys(toolDef.Properties["annotations"].Properties), known(string(manifestWith(`{"name": "a", "annotations": {"zz": 1}}`))), "annotations")
	assert.Equal(t, keys(s.Defs["param"].Properties), known(string(manifestWith(tool("a", `"params": [{"zz": 1}]`)))), "param")

	for _, path := range repoManifests(t) {
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		var v any
		require.NoError(t, json.Unmarshal(raw, &v))
		assert.NoError(t, rs.Validate(v), path)
	}
	for _, tc := range schemaCases {
		var v any
		require.NoError(t, json.Unmarshal([]byte(tc.data), &v), tc.name)
		_, loadErr := annotations.Parse([]byte(tc.data), "")
		schemaErr := rs.Validate(v)
		assert.Equal(t, tc.valid, loadErr == nil, "loader on %s: %v", tc.name, loadErr)
		assert.Equal(t, tc.valid, schemaErr == nil, "schema on %s: %v", tc.name, schemaErr)
	}
}

var schemaCases = []struct {
	name  string
	data  string
	valid bool
}{
	{"minimal", string(manifestWith(tool("a"))), true},
	{"every param kind", renderTool, true},
	{"unknown key", string(manifestWith(tool("a", `"zz": 1`))), false},
	{"bad name", string(manifestWith(tool("A"))), false},
	{"missing hint", string(manifestWith(`{"name": "a", "title": "T", "description": "D", "command": ["x"], "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true}}`)), false},
	{"read-only and destructive", string(manifestWith(`{"name": "a", "title": "T", "description": "D", "command": ["x"], "annotations": {"readOnlyHint": true, "destructiveHint": true, "idempotentHint": true, "openWorldHint": false}}`)), false},
	{"flag and positional", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "string", "flag": "--n", "positional": true}]`))), false},
	{"positional false with flag", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "string", "flag": "--n", "positional": false}]`))), true},
	{"bad type", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "object", "flag": "--n"}]`))), false},
	{"bad output", string(manifestWith(tool("a", `"output": "xml"`))), false},
	{"bad timeout", string(manifestWith(tool("a", `"timeout": "soon"`))), false},
	{"good timeout", string(manifestWith(tool("a", `"timeout": "1m30s"`))), true},
	// docs/manifest.md, cli_help.
	{"cli help", string(manifestWith(tool("a", `"cli_help": {"en": "Import a statement", "es": "Importar un extracto", "pt-BR": "Importar um extrato"}`))), true},
	{"cli help empty", string(manifestWith(tool("a", `"cli_help": {}`))), false},
	{"cli help bad language", string(manifestWith(tool("a", `"cli_help": {"Spanish": "Importar"}`))), false},
	{"cli help empty text", string(manifestWith(tool("a", `"cli_help": {"es": ""}`))), false},
	{"cli help not text", string(manifestWith(tool("a", `"cli_help": {"es": 3}`))), false},
	{"cli help escape", string(manifestWith(tool("a", `"cli_help": {"es": "a\u001b[31mb"}`))), false},
	{"version 2", `{"version": 2, "cli": {"command": "a"}, "tools": [` + tool("a") + `]}`, false},
	{"no tools", `{"version": 1, "cli": {"command": "a"}, "tools": []}`, false},
	{"empty command", `{"version": 1, "cli": {"command": ""}, "tools": [` + tool("a") + `]}`, false},
	{"bad env name", `{"version": 1, "cli": {"command": "a", "env": {"pass": ["A-B"]}}, "tools": [` + tool("a") + `]}`, false},
	// docs/manifest.md, "`cli`".
	{"keychain", `{"version": 1, "cli": {"command": "a", "env": {"keychain": ["K", {"name": "L", "optional": true}]}}, "tools": [` + tool("a") + `]}`, true},
	{"keychain bad name", `{"version": 1, "cli": {"command": "a", "env": {"keychain": ["K-1"]}}, "tools": [` + tool("a") + `]}`, false},
	{"keychain unknown key", `{"version": 1, "cli": {"command": "a", "env": {"keychain": [{"name": "K", "opt": true}]}}, "tools": [` + tool("a") + `]}`, false},
	{"health words", `{"version": 1, "cli": {"command": "a", "health": ["config", "auth", "status"]}, "tools": [` + tool("a") + `]}`, true},
	{"health object", `{"version": 1, "cli": {"command": "a", "health": {"command": ["x"], "version": ["--version"]}}, "tools": [` + tool("a") + `]}`, true},
	{"health empty", `{"version": 1, "cli": {"command": "a", "health": []}, "tools": [` + tool("a") + `]}`, false},
	// DESIGN.md §14, "Health that means ready".
	{"health ready", `{"version": 1, "cli": {"command": "a", "health": {"command": ["x"], "ready": {"pointer": "/result/s", "values": ["ready", 1, true, null], "fix": "/result/next"}}}, "tools": [` + tool("a") + `]}`, true},
	{"health ready one value", `{"version": 1, "cli": {"command": "a", "health": {"command": ["x"], "ready": {"pointer": "/ok", "values": true}}}, "tools": [` + tool("a") + `]}`, true},
	{"health ready no values", `{"version": 1, "cli": {"command": "a", "health": {"command": ["x"], "ready": {"pointer": "/ok", "values": []}}}, "tools": [` + tool("a") + `]}`, false},
	{"health ready bad pointer", `{"version": 1, "cli": {"command": "a", "health": {"command": ["x"], "ready": {"pointer": "ok", "values": [1]}}}, "tools": [` + tool("a") + `]}`, false},
	{"health ready empty fix", `{"version": 1, "cli": {"command": "a", "health": {"command": ["x"], "ready": {"pointer": "/ok", "values": [1], "fix": ""}}}, "tools": [` + tool("a") + `]}`, false},
	{"health ready object value", `{"version": 1, "cli": {"command": "a", "health": {"command": ["x"], "ready": {"pointer": "/ok", "values": [{"a": 1}]}}}, "tools": [` + tool("a") + `]}`, false},
	{"ok with_stdout", string(manifestWith(tool("a", `"exit_codes": {"2": {"meaning": "x", "ok": "with_stdout"}}`))), true},
	{"ok maybe", string(manifestWith(tool("a", `"exit_codes": {"2": {"meaning": "x", "ok": "maybe"}}`))), false},
	{"error output pointers", `{"version": 1, "cli": {"command": "a", "error_output": {"format": "json", "code": "/e/code", "suggestion": "/e/a~1b"}}, "tools": [` + tool("a") + `]}`, true},
	{"error output bad pointer", `{"version": 1, "cli": {"command": "a", "error_output": {"code": "e/code"}}, "tools": [` + tool("a") + `]}`, false},
	{"error output text object", `{"version": 1, "cli": {"command": "a", "error_output": {"format": "text"}}, "tools": [` + tool("a") + `]}`, false},
	{"error codes", `{"version": 1, "cli": {"command": "a", "error_codes": {"X": {"meaning": "x", "match": {"/e/r": ["a", null]}}, "Y": [{"meaning": "y", "retryable": true}]}}, "tools": [` + tool("a") + `]}`, true},
	{"error code without meaning", `{"version": 1, "cli": {"command": "a", "error_codes": {"X": {"hint": "h"}}}, "tools": [` + tool("a") + `]}`, false},
	{"error code match object", `{"version": 1, "cli": {"command": "a", "error_codes": {"X": {"meaning": "x", "match": {"/e": {"a": 1}}}}}, "tools": [` + tool("a") + `]}`, false},
	{"stdin keychain json_key", string(manifestWith(tool("a", `"stdin": {"keychain": "K", "json_key": "secret"}`))), true},
	{"stdin env and keychain", string(manifestWith(tool("a", `"stdin": {"env": "E", "keychain": "K"}`))), false},
	// A text a host prints and a model reads holds no terminal escape.
	{"title with an OSC 8 link", string(manifestWith(`{"name": "a", "title": "\u001b]8;;https://x/\u0007T", "description": "D", "command": ["x"], ` + hints + `}`)), false},
	{"description with a direction override", string(manifestWith(`{"name": "a", "title": "T", "description": "pay \u202eD", "command": ["x"], ` + hints + `}`)), false},
	{"param description with colour", string(manifestWith(tool("a", `"params": [{"name": "n", "type": "string", "flag": "--n", "description": "\u001b[1mn"}]`))), false},
	{"texts with newlines and tabs", string(manifestWith(`{"name": "a", "title": "T", "description": "D\n\tmore: año", "command": ["x"], ` + hints + `}`)), true},
	// docs/catalog.md.
	{"surface core", `{"version": 1, "cli": {"command": "a"}, "surface": {"core": ["a"]}, "tools": [` + tool("a") + `]}`, true},
	{"surface core not a name", `{"version": 1, "cli": {"command": "a"}, "surface": {"core": ["A-1"]}, "tools": [` + tool("a") + `]}`, false},
	{"surface core twice", `{"version": 1, "cli": {"command": "a"}, "surface": {"core": ["a", "a"]}, "tools": [` + tool("a") + `]}`, false},
	// docs/warm-start.md: cli.warm.preload.
	{"warm preload click", warmWith(`"click"`), true},
	{"warm preload list", warmWith(`["click", "pkg.a", "pkg.b:setup"]`), true},
	{"warm preload by path", warmWith(`{"*": ["click"], "ledger list": ["pkg.a"]}`), true},
	{"warm preload word", warmWith(`"walk"`), false},
	{"warm preload not a module", warmWith(`["pkg a"]`), false},
	{"warm preload bad path", warmWith(`{" x": ["pkg.a"]}`), false},
	{"warm preload path not a list", warmWith(`{"x": "pkg.a"}`), false},
}

func warmWith(preload string) string {
	return `{"version": 1, "cli": {"command": "a", "warm": {"python": "pkg.cli:main", "preload": ` + preload + `}}, "tools": [` + tool("a") + `]}`
}

// FuzzLoad: no input makes the loader panic, and whatever it accepts is
// usable: every tool has a resolved schema and renders its defaults.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/manifests/*.json")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(renderTool))
	f.Add([]byte(aeatLike))
	f.Add([]byte(`{"version": 1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := annotations.Parse(data, "fuzz.json")
		if err != nil {
			assert.NotEmpty(t, err.Error())
			return
		}
		for _, tl := range m.Tools {
			require.NotNil(t, tl.InputSchema())
			sameSchema(t, tl)
			// Load no longer resolves the schema: whatever loads must
			// still give hosts a schema a validator accepts.
			_, err := tl.InputSchema().CloneSchemas().Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
			require.NoError(t, err, "the input schema of %s", tl.Name)
			args, err := tl.Validate(nil)
			if err != nil {
				continue // required params
			}
			_, _ = tl.Render(args, false)
		}
	})
}
