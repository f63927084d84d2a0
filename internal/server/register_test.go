package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	ask := wireSession(t, serverOf(t, m, surface), "2025-11-25")
	return ask("tools/list", ``)
}

// serverOf is a server of m on surface, calling fakeaeat.
func serverOf(t *testing.T, m *annotations.Manifest, surface string) *Server {
	t.Helper()
	r, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	s, err := New(Config{Manifest: m, CLIPath: fakeaeat, Runner: r, Surface: surface, Printer: i18n.For(language.English)})
	require.NoError(t, err)
	t.Cleanup(s.Shutdown)
	return s
}

// wireSession connects to s as a host of the given era does, and returns
// what asks it one request, its params' members given as JSON without the
// braces, and gives the result as the server wrote it (a JSON-RPC error
// fails the test). A 2025-11-25 session is initialized
// first; a 2026-07-28 request carries its era and capabilities in _meta
// (claudeMeta), as Claude Code's do.
func wireSession(t *testing.T, s *Server, era string) func(method, params string) []byte {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	conn, err := ct.Connect(context.Background())
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	id := 0
	send := func(method, members string, call bool) []byte {
		var all []string
		if era == "2026-07-28" {
			all = append(all, claudeMeta)
		}
		if members != "" {
			all = append(all, members)
		}
		params := `{` + strings.Join(all, ",") + `}`
		req := &jsonrpc.Request{Method: method, Params: json.RawMessage(params)}
		if call {
			id++
			req.ID, _ = jsonrpc.MakeID(float64(id))
		}
		require.NoError(t, conn.Write(context.Background(), req))
		if !call {
			return nil
		}
		for {
			msg, err := conn.Read(context.Background())
			require.NoError(t, err)
			if res, ok := msg.(*jsonrpc.Response); ok && res.ID == req.ID {
				require.NoError(t, res.Error, "%s %s", method, params)
				return res.Result
			}
		}
	}
	if era != "2026-07-28" {
		send("initialize", `"protocolVersion":"`+era+`","capabilities":{},"clientInfo":{"name":"t","version":"1"}`, true)
		send("notifications/initialized", ``, false)
	}
	return func(method, params string) []byte { return send(method, params, true) }
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
	cache := &annotations.Cache{Dir: t.TempDir(), Version: "test", Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug})), Listed: ListedJSON}
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

// cursorFromTheStart is a tools/list cursor that pages from the first tool:
// the SDK's own (a gob of its page token, LastUID empty, in URL base64),
// which makes the server list its tools through the SDK (serveTools).
func cursorFromTheStart(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, gob.NewEncoder(&buf).Encode(struct{ LastUID string }{}))
	return base64.URLEncoding.EncodeToString(buf.Bytes())
}

// registeredNames are the tools s has registered with the SDK.
func registeredNames(s *Server) []string {
	s.regMu.Lock()
	defer s.regMu.Unlock()
	return slices.Sorted(maps.Keys(s.registered))
}

// TestToolsList_ServedEqualsRegistered: the tools/list a server writes
// without registering its tools with the SDK is, byte for byte, the one the
// SDK writes once every listed tool is registered with it — for the whole
// aeat (loaded, and read back from a cache that keeps each tool's listing)
// and for the test manifest under --read-only (tools hidden), on both
// surfaces, in both protocol eras.
func TestToolsList_ServedEqualsRegistered(t *testing.T) {
	full, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	cursor := cursorFromTheStart(t)
	for _, tc := range []struct {
		name     string
		m        *annotations.Manifest
		readOnly bool
	}{{"whole aeat", full, false}, {"whole aeat from the cache", cachedFull(t), false}, {"read-only", loadManifest(t), true}} {
		for _, surface := range []string{SurfaceAll, SurfaceCatalog} {
			for _, era := range []string{"2025-11-25", "2026-07-28"} {
				t.Run(tc.name+"/"+surface+"/"+era, func(t *testing.T) {
					s := serverOf(t, tc.m, surface)
					if tc.readOnly {
						s = newServer(t, func(c *Config) { c.Manifest, c.Surface, c.ReadOnly = tc.m, surface, true })
						require.NotEmpty(t, s.hidden)
					}
					ask := wireSession(t, s, era)
					served := ask("tools/list", ``)
					require.Zero(t, len(registeredNames(s)), "tools/list registered tools with the SDK")
					viaSDK := ask("tools/list", `"cursor":"`+cursor+`"`)
					require.Len(t, registeredNames(s), len(s.table().listed), "the SDK's list is not of every listed tool")
					var list struct{ Tools []json.RawMessage }
					require.NoError(t, json.Unmarshal(served, &list))
					require.Len(t, list.Tools, len(s.table().listed))
					if !bytes.Equal(served, viaSDK) {
						t.Fatalf("tools/list differs:\nserved %.600s\nSDK's  %.600s", served, viaSDK)
					}
				})
			}
		}
	}
}

// TestToolsList_RegistersAtFirstCall: listing the whole aeat registers no
// tool with the SDK; a call registers the one tool it reaches — on the
// catalog surface an unlisted tool's call registers aeat_mcp_call, through
// which it is routed — and the SDK's answers are its own: a result of the
// called tool, and its unknown-tool error for a name nobody serves.
func TestToolsList_RegistersAtFirstCall(t *testing.T) {
	full, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	ctx := context.Background()

	s := serverOf(t, full, SurfaceAll)
	cs := connect(t, s, "2025-11-25", nil)
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.Tools, len(full.Tools)+3)
	assert.Empty(t, registeredNames(s))
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolRuns, Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.False(t, res.IsError, text(res))
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "app_diagnostics_errors", Arguments: map[string]any{"no_such_param": 1}})
	require.NoError(t, err)
	assert.Equal(t, CodeInvalidArguments, outcome(t, res).Code, text(res))
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}})
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), rpcCode(err), "the SDK's unknown tool: %v", err)
	assert.Equal(t, []string{ToolRuns, "app_diagnostics_errors"}, registeredNames(s))

	s = serverOf(t, full, SurfaceCatalog)
	cs = connect(t, s, "2025-11-25", nil)
	_, err = cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.False(t, s.catalog.lists("app_diagnostics_errors"))
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "app_diagnostics_errors", Arguments: map[string]any{"no_such_param": 1}})
	require.NoError(t, err)
	assert.Equal(t, CodeInvalidArguments, outcome(t, res).Code, text(res))
	assert.Equal(t, []string{ToolCall}, registeredNames(s))
}

// TestToolsList_PagedAsTheSDKPages: a server listing more tools than one
// page of the SDK's (mcp.DefaultPageSize) leaves tools/list to the SDK,
// which pages it: every tool once, in pages of at most that size.
func TestToolsList_PagedAsTheSDKPages(t *testing.T) {
	var tools []string
	for i := range mcp.DefaultPageSize + 1 {
		tools = append(tools, fmt.Sprintf(`{"name":"tool_%04d","title":"Tool","description":"A tool.","command":["echo"],`+
			`"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}`, i))
	}
	m, err := annotations.Parse([]byte(`{"version":1,"cli":{"command":"echo"},"tools":[`+strings.Join(tools, ",")+`]}`), "many.json")
	require.NoError(t, err)
	s := serverOf(t, m, SurfaceAll)
	cs := connect(t, s, "2025-11-25", nil)
	seen := map[string]bool{}
	pages := 0
	var cursor string
	for {
		res, err := cs.ListTools(context.Background(), &mcp.ListToolsParams{Cursor: cursor})
		require.NoError(t, err)
		pages++
		assert.LessOrEqual(t, len(res.Tools), mcp.DefaultPageSize)
		for _, tl := range res.Tools {
			assert.False(t, seen[tl.Name], tl.Name)
			seen[tl.Name] = true
		}
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	assert.Len(t, seen, len(s.table().listed))
	assert.Equal(t, 2, pages)
}
