package server

import (
	"errors"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInspection_Problems: one wording of what makes calls refuse, every
// call's first — the CLI, a required variable, a secret every call needs —
// then what only some tools lack, each naming them; a secret that is
// found, or optional, is no problem.
func TestInspection_Problems(t *testing.T) {
	m, err := annotations.Parse([]byte(`{"version": 1, "cli": {"command": "/opt/x/store", "env": {"require": ["STORE_ROOT"],
	    "keychain": [{"name": "STORE_TOKEN"}, {"name": "STORE_HINT", "optional": true}]}},
	  "tools": [{"name": "a", "title": "A", "description": "d", "command": ["a"], "stdin": {"env": "A_SECRET"},
	   "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}},
	  {"name": "b", "title": "B", "description": "d", "command": ["b"], "stdin": {"keychain": "B_KEY"},
	   "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`), "m.json")
	require.NoError(t, err)
	t.Setenv("STORE_ROOT", "")
	t.Setenv("A_SECRET", "")
	in := Inspect(Config{Manifest: m, CLIError: errors.New("CLI unavailable: no store")})
	in.Secrets = []SecretState{
		{Name: "STORE_TOKEN", Required: true},
		{Name: "STORE_HINT"},
		{Name: "B_KEY", Tools: []string{"b"}, Required: true},
		{Name: "C_KEY", Tools: []string{"b", "c"}, Required: true},
		{Name: "FOUND", Required: true, From: "keychain"},
	}
	var got []string
	for _, p := range in.Problems() {
		got = append(got, p.What)
		assert.NotEmpty(t, p.Fix, p.What)
	}
	assert.Equal(t, []string{
		"the CLI does not resolve: CLI unavailable: no store — a host shows the server Connected, and every call fails",
		"STORE_ROOT is not set: every call refuses until it is",
		"STORE_TOKEN is neither in the OS keychain nor in aeat-mcp's environment: every call refuses",
		"A_SECRET is not set: a refuses until it is",
		"B_KEY is neither in the OS keychain nor in aeat-mcp's environment: b refuses until it is stored",
		"C_KEY is neither in the OS keychain nor in aeat-mcp's environment: b, c refuse until it is stored",
	}, got, "the verb agrees with how many tools refuse")
	ps := in.Problems()
	assert.True(t, ps[0].EveryCall())
	assert.Contains(t, ps[0].Fix, "--cli /path/to/store")
	assert.Equal(t, []string{"a"}, ps[3].Tools)
	assert.False(t, ps[3].EveryCall())
	assert.Equal(t, "`aeat-mcp secret set B_KEY`", ps[4].Fix)
}

// TestServer_ProblemsAreInspects: serve's start-up log reads the
// problems from the server New built (Server.Problems, without building
// the environment again); they are Inspect's of the same Config, word for
// word.
func TestServer_ProblemsAreInspects(t *testing.T) {
	m, err := annotations.Parse([]byte(`{"version": 1, "cli": {"command": "/opt/x/store", "env": {"require": ["STORE_ROOT"]}},
	  "tools": [{"name": "a", "title": "A", "description": "d", "command": ["a"], "stdin": {"env": "A_SECRET"},
	   "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}},
	  {"name": "b", "title": "B", "description": "d", "command": ["b"], "stdin": {"env": "B_SECRET"},
	   "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`), "m.json")
	require.NoError(t, err)
	t.Setenv("STORE_ROOT", "")
	t.Setenv("A_SECRET", "")
	t.Setenv("B_SECRET", "set")
	r, err := callruntime.NewRunner(callruntime.Options{Deferred: true})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	cfg := Config{Manifest: m, CLIError: errors.New("CLI unavailable: no store"), Runner: r}
	s, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(s.Shutdown)
	want := Inspect(cfg).Problems()
	require.Len(t, want, 3, "the CLI, STORE_ROOT, A_SECRET")
	assert.Equal(t, want, s.Problems())
}

// TestInspection_BuiltInIsTheRegistrys: what `aeat-mcp tools` lists as
// built-in is read from the tool registry, so a new built-in (one entry)
// is listed there too, on either surface.
func TestInspection_BuiltInIsTheRegistrys(t *testing.T) {
	for _, surface := range []string{SurfaceAll, SurfaceCatalog} {
		s := newServer(t, func(c *Config) { c.Surface = surface })
		var own []string
		for name, st := range s.table().registry {
			if st.tool.Builtin() {
				own = append(own, name)
			}
		}
		assert.ElementsMatch(t, own, Inspect(s.cfg).BuiltIn, surface)
		assert.Len(t, own, map[string]int{SurfaceAll: 3, SurfaceCatalog: 5}[surface], surface)
	}
}
