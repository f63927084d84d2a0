package annotations_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
)

// TestServer_SpoiledDetailRefused: a call of a tool whose params the
// manifest cache could not give at its first use (Tool.DetailErr) is
// refused as "internal" — the arguments are not at fault, and nothing
// runs (the CLI here would fail the test by not existing) — the file is
// removed, and the server goes on serving the other tools.
func TestServer_SpoiledDetailRefused(t *testing.T) {
	m, err := annotations.Load("../../examples/aeat.manifest.json")
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "spoiled.cache")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	victim := m.Tools[0]
	annotations.SpoilDetail(victim, file)

	ctx := context.Background()
	cs := clientOf(t, m)

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: victim.Name, Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	o, _ := res.Meta[server.OutcomeKey].(map[string]any)
	assert.Equal(t, string(server.CodeInternal), o["code"], "%v", res.Meta)
	assert.NoFileExists(t, file)

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: m.Tools[1].Name, Arguments: map[string]any{"no_such_argument": 1}})
	require.NoError(t, err)
	o, _ = res.Meta[server.OutcomeKey].(map[string]any)
	assert.Equal(t, string(server.CodeInvalidArguments), o["code"], "the other tools are read as ever")
}

// TestServer_SpoiledListingRefused: a listed tool whose section of the
// manifest cache (its schema and listing) fails its checksum when the
// server lists it is listed with an empty object schema — the rest of
// tools/list is whole — and its calls are refused as "internal"; the file
// is removed.
func TestServer_SpoiledListingRefused(t *testing.T) {
	m, err := annotations.Load("../../examples/aeat.manifest.json")
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "spoiled.cache")
	victim := m.Tools[0]
	require.NoError(t, annotations.SpoilListing(victim, file))

	ctx := context.Background()
	cs := clientOf(t, m)

	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	listed := map[string]*mcp.Tool{}
	for _, tool := range list.Tools {
		listed[tool.Name] = tool
	}
	require.Contains(t, listed, victim.Name)
	require.Contains(t, listed, m.Tools[1].Name)
	schema, err := json.Marshal(listed[victim.Name].InputSchema)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object"}`, string(schema))
	assert.NoFileExists(t, file)

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: victim.Name, Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	o, _ := res.Meta[server.OutcomeKey].(map[string]any)
	assert.Equal(t, string(server.CodeInternal), o["code"], "%v", res.Meta)
}

// clientOf is a session of a server of m, all tools listed, whose CLI
// does not exist: nothing a test calls may run.
func clientOf(t *testing.T, m *annotations.Manifest) *mcp.ClientSession {
	t.Helper()
	r, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	s, err := server.New(server.Config{Manifest: m, CLIPath: filepath.Join(t.TempDir(), "no-such-cli"), Runner: r,
		Surface: server.SurfaceAll, Printer: i18n.For(language.English)})
	require.NoError(t, err)
	t.Cleanup(s.Shutdown)
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}
