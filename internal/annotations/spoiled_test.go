package annotations_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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

// TestServer_UnreadableSectionServed: the manifest cache is an
// optimisation, never a dependency. A listed tool whose section cannot be
// read when the server lists it — the file removed, another's renamed over
// it (a rewrite after the manifest was edited), the section failing its
// checksum — is built from the head the start checked, as a load without
// the cache builds it: tools/list is byte for byte a no-cache server's, and
// the tool's calls are checked as ever. A spoilt file is removed (the next
// start rebuilds it), another's is left alone.
func TestServer_UnreadableSectionServed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		spoil   func(t *testing.T, file, path string, c *annotations.Cache, m *annotations.Manifest)
		removed bool
	}{
		{"removed", func(t *testing.T, file, _ string, _ *annotations.Cache, _ *annotations.Manifest) {
			require.NoError(t, os.Remove(file))
		}, true},
		{"replaced", func(t *testing.T, _, path string, c *annotations.Cache, _ *annotations.Manifest) {
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(path, append(data, '\n'), 0o600))
			_, err = c.Load(path) // another server's rewrite for the edited bytes
			require.NoError(t, err)
			// The edit undone: the tools' details come from the manifest,
			// its bytes the start's again (with the edit in place their
			// calls are refused: TestDetail_ChangedManifestRefused).
			require.NoError(t, os.WriteFile(path, data, 0o600))
		}, false},
		{"corrupt-section", func(t *testing.T, file, _ string, _ *annotations.Cache, m *annotations.Manifest) {
			spoilByteAt(t, file, annotations.DetailsOffset(m)-1) // the last tool's section's CRC
		}, true},
		{"corrupt-details", func(t *testing.T, file, _ string, _ *annotations.Cache, m *annotations.Manifest) {
			spoilByteAt(t, file, annotations.DetailsOffset(m)+annotations.DetailsLen(m)-1) // the details part's CRC
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "aeat.manifest.json")
			data, err := os.ReadFile("../../examples/aeat.manifest.json")
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(path, data, 0o600))
			fresh, err := annotations.Load(path)
			require.NoError(t, err)
			want := rawToolsList(t, fresh)

			dir := t.TempDir()
			c := &annotations.Cache{Dir: dir, Version: "v1", Listed: server.ListedJSON}
			_, err = c.Load(path)
			require.NoError(t, err)
			m, err := c.Load(path)
			require.NoError(t, err)
			files, err := filepath.Glob(filepath.Join(dir, "*.cache"))
			require.NoError(t, err)
			require.Len(t, files, 1)
			tc.spoil(t, files[0], path, c, m)

			sameBytes(t, want, rawToolsList(t, m), "tools/list as without the cache")
			for i, tool := range m.Tools {
				require.NoError(t, tool.DetailErr(), tool.Name)
				assert.Equal(t, fresh.Tools[i].Params(), tool.Params(), tool.Name)
			}
			if tc.removed {
				assert.NoFileExists(t, files[0], "spoilt: removed")
			} else {
				assert.FileExists(t, files[0], "another's: left alone")
			}
			cs := clientOf(t, m)
			victim := m.Tools[len(m.Tools)-1]
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: victim.Name, Arguments: map[string]any{"no_such_argument": 1}})
			require.NoError(t, err)
			o, _ := res.Meta[server.OutcomeKey].(map[string]any)
			assert.Equal(t, string(server.CodeInvalidArguments), o["code"], "its arguments checked as ever")
		})
	}
}

// TestServer_UnbuildableToolRefused: a tool whose section cannot be read
// and which cannot be built from the head either (its params fail to
// decode) is what the user sees of a spoilt tool: listed with an empty
// object schema — the rest of tools/list whole — and its calls refused as
// "internal"; the file is removed.
func TestServer_UnbuildableToolRefused(t *testing.T) {
	m, err := annotations.Load("../../examples/aeat.manifest.json")
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "spoiled.cache")
	victim := m.Tools[0]
	require.NoError(t, annotations.SpoilListing(victim, file))
	annotations.SpoilDetail(victim, file)

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

// TestServer_SpoiledListingServed: a listed tool whose section fails its
// checksum (SpoilListing) but whose params are whole is listed, byte for
// byte, as a server of the manifest loaded afresh lists it; the file is
// removed.
func TestServer_SpoiledListingServed(t *testing.T) {
	fresh, err := annotations.Load("../../examples/aeat.manifest.json")
	require.NoError(t, err)
	m, err := annotations.Load("../../examples/aeat.manifest.json")
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "spoiled.cache")
	require.NoError(t, annotations.SpoilListing(m.Tools[0], file))

	sameBytes(t, rawToolsList(t, fresh), rawToolsList(t, m), "tools/list as without the cache")
	require.NoError(t, m.Tools[0].DetailErr())
	assert.NoFileExists(t, file)
}

// spoilByteAt changes the byte at of file in place.
func spoilByteAt(t *testing.T, file string, at int64) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte{0xa5}, at)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// rawToolsList is tools/list's result, as the bytes a server of m, all
// tools listed, sends.
func rawToolsList(t *testing.T, m *annotations.Manifest) []byte {
	t.Helper()
	ctx := context.Background()
	conn, err := transportOf(t, m).Connect(ctx)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	call := func(n int, method, params string) []byte {
		id, _ := jsonrpc.MakeID(float64(n))
		require.NoError(t, conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: json.RawMessage(params)}))
		for {
			msg, err := conn.Read(ctx)
			require.NoError(t, err)
			if res, ok := msg.(*jsonrpc.Response); ok && res.ID == id {
				require.NoError(t, res.Error, method)
				return res.Result
			}
		}
	}
	call(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	require.NoError(t, conn.Write(ctx, &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}))
	return call(2, "tools/list", `{}`)
}

// clientOf is a client's session of a server of m (transportOf).
func clientOf(t *testing.T, m *annotations.Manifest) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, transportOf(t, m), nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// transportOf is the client's end of a connection to a server of m, all
// tools listed, whose CLI does not exist: nothing a test calls may run.
func transportOf(t *testing.T, m *annotations.Manifest) mcp.Transport {
	t.Helper()
	r, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	s, err := server.New(server.Config{Manifest: m, CLIPath: filepath.Join(t.TempDir(), "no-such-cli"), Runner: r,
		Surface: server.SurfaceAll, Printer: i18n.For(language.English)})
	require.NoError(t, err)
	t.Cleanup(s.Shutdown)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	return ct
}

// sameBytes fails t unless got is want, naming where they part (not the
// whole of two tools/list answers).
func sameBytes(t *testing.T, want, got []byte, what string) {
	t.Helper()
	if bytes.Equal(want, got) {
		return
	}
	i := 0
	for i < min(len(want), len(got)) && want[i] == got[i] {
		i++
	}
	from := max(0, i-80)
	t.Errorf("%s: %d and %d bytes, parting at %d:\nwant …%s\n got …%s", what, len(want), len(got), i,
		want[from:min(len(want), i+80)], got[from:min(len(got), i+80)])
}
