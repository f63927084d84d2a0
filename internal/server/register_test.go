package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
)

// toolsListBytes is the result of tools/list, as the server writes it, from
// a server of m on surface.
func toolsListBytes(t *testing.T, m *annotations.Manifest, surface string) []byte {
	t.Helper()
	r, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	s, err := New(Config{Manifest: m, CLIPath: fakeaeat, Runner: r, Surface: surface, Printer: i18n.For(language.English)})
	require.NoError(t, err)
	t.Cleanup(s.Shutdown)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	conn, err := ct.Connect(context.Background())
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	ask := func(id float64, method, params string) []byte {
		req := &jsonrpc.Request{Method: method, Params: json.RawMessage(params)}
		if id > 0 {
			req.ID, _ = jsonrpc.MakeID(id)
		}
		require.NoError(t, conn.Write(context.Background(), req))
		if id == 0 {
			return nil
		}
		want, _ := jsonrpc.MakeID(id)
		for {
			msg, err := conn.Read(context.Background())
			require.NoError(t, err)
			if res, ok := msg.(*jsonrpc.Response); ok && res.ID == want {
				require.NoError(t, res.Error)
				return res.Result
			}
		}
	}
	ask(1, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	ask(0, "notifications/initialized", `{}`)
	return ask(2, "tools/list", `{}`)
}

// TestToolsList_CachedEqualsFresh: a server of the whole aeat read back
// from the manifest cache lists, byte for byte, what a server of the
// freshly loaded manifest lists — on both surfaces.
func TestToolsList_CachedEqualsFresh(t *testing.T) {
	path := filepath.Join(t.TempDir(), "aeat.full.manifest.json")
	data, err := os.ReadFile(fullAeatManifest)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	var log bytes.Buffer
	cache := &annotations.Cache{Dir: t.TempDir(), Version: "test", Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	_, err = cache.Load(path)
	require.NoError(t, err)
	for _, surface := range []string{SurfaceAll, SurfaceCatalog} {
		t.Run(surface, func(t *testing.T) {
			fresh, err := annotations.Load(path)
			require.NoError(t, err)
			log.Reset()
			cached, err := cache.Load(path)
			require.NoError(t, err)
			require.Contains(t, log.String(), "the manifest came from the cache")
			want, got := toolsListBytes(t, fresh, surface), toolsListBytes(t, cached, surface)
			require.Greater(t, len(want), 10_000)
			if !bytes.Equal(want, got) {
				t.Fatalf("tools/list differs: fresh %d bytes, cached %d bytes", len(want), len(got))
			}
		})
	}
}

// TestAddTool_ListsTheManifestSchemas: every manifest tool is listed with
// its own input schema, exactly as the manifest encoded it — never the
// placeholder it is added to the SDK with (Server.addTool).
func TestAddTool_ListsTheManifestSchemas(t *testing.T) {
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	var listed struct {
		Tools []struct {
			Name        string
			InputSchema json.RawMessage
		}
	}
	require.NoError(t, json.Unmarshal(toolsListBytes(t, m, SurfaceAll), &listed))
	byName := map[string]json.RawMessage{}
	for _, tl := range listed.Tools {
		byName[tl.Name] = tl.InputSchema
	}
	for _, tool := range m.Tools {
		got, ok := byName[tool.Name]
		if assert.True(t, ok, tool.Name) {
			assert.Equal(t, string(tool.InputSchemaJSON()), string(got), tool.Name)
		}
	}
}

// TestFixedTools_NoListChanged: the notification the SDK sends for the
// tools registered after initialize never reaches the host; every other
// message passes as it is.
func TestFixedTools_NoListChanged(t *testing.T) {
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	server, err := fixedTools{st}.Connect(ctx)
	require.NoError(t, err)
	client, err := ct.Connect(ctx)
	require.NoError(t, err)
	wrote := make(chan error, 1)
	go func() {
		if err := server.Write(ctx, &jsonrpc.Request{Method: "notifications/tools/list_changed"}); err != nil {
			wrote <- err
			return
		}
		wrote <- server.Write(ctx, &jsonrpc.Request{Method: "notifications/resources/list_changed"})
	}()
	msg, err := client.Read(ctx)
	require.NoError(t, err)
	require.NoError(t, <-wrote)
	assert.Equal(t, "notifications/resources/list_changed", msg.(*jsonrpc.Request).Method)
}
