package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What was cut stays readable: end to end, the built binary over stdio.

// outputLink is the result's resource_link to the whole of stream.
func outputLink(t *testing.T, res *mcp.CallToolResult, stream string) *mcp.ResourceLink {
	t.Helper()
	for _, c := range res.Content {
		if l, ok := c.(*mcp.ResourceLink); ok && strings.HasSuffix(l.URI, "/"+stream) {
			return l
		}
	}
	require.Failf(t, "no resource_link", "the result links no %s: %s", stream, text(res))
	return nil
}

// readWhole reads every page of uri, following each page's "next", and
// checks that each page is within maxPage bytes; it returns the pages
// joined and how many there were.
func readWhole(t *testing.T, cs *mcp.ClientSession, uri string, maxPage int) (string, int) {
	t.Helper()
	var b strings.Builder
	next, n := uri, 0
	for next != "" {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: next})
		require.NoError(t, err, "reading %s", next)
		assert.Equal(t, "private", res.CacheScope, "no intermediary may cache a user's output")
		require.Len(t, res.Contents, 1)
		c := res.Contents[0]
		assert.LessOrEqual(t, len(c.Text), maxPage, "page %s is within a result's bound", next)
		b.WriteString(c.Text)
		n++
		meta, _ := c.Meta[OutputPageMetaKey].(map[string]any)
		require.NotNil(t, meta, "page %s says where it is", next)
		assert.EqualValues(t, n, meta["page"])
		next, _ = meta["next"].(string)
		if next == "" {
			assert.EqualValues(t, n, meta["pages"], "the last page is the last")
		}
		require.Less(t, n, 1000, "pages end")
	}
	return b.String(), n
}

func rpcCode(err error) int64 {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we.Code
	}
	return 0
}

func TestE2E_CutOutputIsAResource(t *testing.T) {
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(eraName(era), func(t *testing.T) {
			cs, _ := connectBinary(t, era, nil)
			caps := cs.InitializeResult().Capabilities
			require.NotNil(t, caps.Resources, "the server declares resources")
			assert.False(t, caps.Resources.ListChanged, "whose list never changes")

			templates, err := cs.ListResourceTemplates(context.Background(), nil)
			require.NoError(t, err)
			require.Len(t, templates.ResourceTemplates, 1)
			assert.Equal(t, "aeat-mcp://runs/{id}/{stream}{?page}", templates.ResourceTemplates[0].URITemplate)

			for _, tc := range []struct {
				name, tool, mime string
				argv             []string
			}{
				// One line of JSON of 300 KB: pages end on a rune boundary.
				{"json on one line", "read_bigjson_n", "application/json", []string{"bigjson", "300000"}},
				// 80-byte lines: pages end after a newline.
				{"lines", "read_flood_n", "text/plain", []string{"flood", "stdout", "300000"}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					want, err := exec.Command(fakecli, tc.argv...).Output()
					require.NoError(t, err)
					res := callTool(t, cs, tc.tool, map[string]any{"bytes": tc.argv[len(tc.argv)-1]})
					require.False(t, res.IsError, text(res))
					assert.LessOrEqual(t, len(text(res)), DefaultMaxResultBytes, "the text stays within the bound")
					assert.Nil(t, res.StructuredContent, "a cut document is no structured content")

					link := outputLink(t, res, "stdout")
					assert.Regexp(t, `^aeat-mcp://runs/r-[0-9a-f]{16}/stdout$`, link.URI)
					assert.Equal(t, tc.mime, link.MIMEType)
					require.NotNil(t, link.Size)
					assert.EqualValues(t, len(want), *link.Size)
					assert.Contains(t, text(res), link.URI+"?page=", "the text says how to read it")
					assert.Contains(t, text(res), "call "+tc.tool+" again with narrower arguments (bytes)", "and how to narrow the call")

					whole, pages := readWhole(t, cs, link.URI, DefaultMaxResultBytes)
					assert.Equal(t, string(want), whole, "the pages joined are the CLI's output, byte for byte")
					assert.Greater(t, pages, 4)
					assert.Contains(t, text(res), "?page="+strconv.Itoa(pages), "the text names the last page")
					if tc.mime == "application/json" {
						assert.True(t, json.Valid([]byte(whole)))
					}

					_, err = cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: link.URI + "?page=" + strconv.Itoa(pages+1)})
					assert.Equal(t, int64(jsonrpc.CodeInvalidParams), rpcCode(err), "a page past the last: %v", err)
				})
			}

			// A result that was not cut links nothing.
			small := callTool(t, cs, "read_bigjson_n", map[string]any{"bytes": "1000"})
			for _, c := range small.Content {
				_, isLink := c.(*mcp.ResourceLink)
				assert.False(t, isLink, "a whole result links nothing")
			}
		})
	}
}

func TestE2E_CutOutputRedactsSecrets(t *testing.T) {
	// A careless CLI echoes the secret it got on stdin (as it is,
	// JSON-escaped, ASCII-escaped, in base64), then prints more than a
	// result holds.
	path := manifestWith(t, map[string]any{
		"name": "read_leak_big", "title": "Echoes its secret, then a big document", "description": "Leaks, then floods.",
		"command": []string{"leak", "+", "bigjson", "200000"}, "stdin": map[string]any{"param": "doc"},
		"annotations": map[string]any{"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
		"params":      []any{map[string]any{"name": "doc", "type": "string", "required": true}},
	})
	cs := connectManifest(t, path)

	secret := "s3cr3t-hunter2-ñ-42"
	res := callTool(t, cs, "read_leak_big", map[string]any{"doc": secret})
	require.False(t, res.IsError, text(res))
	link := outputLink(t, res, "stdout")
	whole, _ := readWhole(t, cs, link.URI, DefaultMaxResultBytes)
	require.Greater(t, len(whole), 200000)
	assert.Contains(t, whole, `{"input":"[redacted secret]"`, "the resource is redacted as the result is")
	for _, form := range []string{secret, `s3cr3t-hunter2-\u00f1-42`, base64.StdEncoding.EncodeToString([]byte(secret))} {
		assert.NotContains(t, whole, form, "the resource holds no form of the secret")
		assert.NotContains(t, text(res), form)
	}
}

// connectManifest is the built binary over the manifest at path, spoken to
// over stdio (2025-11-25).
func connectManifest(t *testing.T, path string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(binary, "--manifest", path, "--log-level", "warn")
	cmd.Env = hostEnv()
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(context.Background(),
		&mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// manifestWith writes the test manifest with one more tool.
func manifestWith(t *testing.T, tool map[string]any) string {
	t.Helper()
	raw, err := os.ReadFile(testManifestPath(t))
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	m["tools"] = append(m["tools"].([]any), tool)
	raw, err = json.Marshal(m)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "manifest.json")
	require.NoError(t, os.WriteFile(path, raw, 0o644))
	return path
}

func TestE2E_CutOutputOfAnotherSessionOrExpired(t *testing.T) {
	first, _ := connectBinary(t, "2025-11-25", nil)
	res := callTool(t, first, "read_bigjson_n", map[string]any{"bytes": "200000"})
	link := outputLink(t, res, "stdout")

	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(eraName(era), func(t *testing.T) {
			// A second server process never serves the first's run.
			second, _ := connectBinary(t, era, nil)
			_, err := second.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: link.URI})
			// "Resource not found": -32002, and from 2026-07-28 -32602
			// (SEP-2164).
			want := map[string]int64{"2025-11-25": -32002, "2026-07-28": -32602}[era]
			assert.Equal(t, want, rpcCode(err), "another session's run: %v", err)
			assert.ErrorContains(t, err, "Call the tool again")

			// A run this server never had.
			_, err = first.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "aeat-mcp://runs/r-0123456789abcdef/stdout"})
			assert.Equal(t, int64(-32002), rpcCode(err), "an unknown run: %v", err)
			assert.ErrorContains(t, err, "not kept")
		})
	}
}

func TestE2E_CutOutputExpiresWithTheRun(t *testing.T) {
	// --keep-results of 1 ms: the run is forgotten once its result is
	// out, and the output with it.
	cs, _ := connectBinary(t, "2025-11-25", nil, "--keep-results", "1ms")
	res := callTool(t, cs, "read_bigjson_n", map[string]any{"bytes": "200000"})
	link := outputLink(t, res, "stdout")
	// Another call makes the registry look at what it keeps.
	callTool(t, cs, "read_bigjson_n", map[string]any{"bytes": "10"})
	_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: link.URI})
	assert.Equal(t, int64(-32002), rpcCode(err), "an expired run: %v", err)
}

func TestE2E_CutOutputThroughTasks(t *testing.T) {
	// linkOf is the resource_link of a result as JSON, and checks that
	// resources/read on the same connection serves it.
	linkOf := func(t *testing.T, c *taskClient, res map[string]any) {
		t.Helper()
		var uri string
		for _, raw := range res["content"].([]any) {
			if c := raw.(map[string]any); c["type"] == "resource_link" {
				uri, _ = c["uri"].(string)
			}
		}
		require.Regexp(t, `^aeat-mcp://runs/r-[0-9a-f]{16}/stdout$`, uri, "the task's result links the whole stdout")
		page := c.ok(t, "resources/read", fmt.Sprintf(`"uri":%q`, uri))
		contents := page["contents"].([]any)
		require.Len(t, contents, 1)
		n := len(contents[0].(map[string]any)["text"].(string))
		assert.True(t, n > DefaultMaxResultBytes-80 && n <= DefaultMaxResultBytes && n%80 == 0,
			"page 1 of 80-byte lines is whole lines, as many as fit: %d bytes", n)
	}

	t.Run("2025-11-25", func(t *testing.T) {
		c := startV1(t)
		id := c.ok(t, "tools/call", `"name":"live_flood","arguments":{"bytes":"200000"},"task":{}`)["task"].(map[string]any)["taskId"].(string)
		linkOf(t, c, c.ok(t, "tasks/result", fmt.Sprintf(`"taskId":%q`, id)))
	})
	t.Run("2026-07-28", func(t *testing.T) {
		c := &taskClient{rs: startRaw(t), meta: v2Meta(true, false)}
		h := c.ok(t, "tools/call", `"name":"live_flood","arguments":{"bytes":"200000"}`)
		require.Equal(t, "task", h["resultType"])
		done := c.poll(t, h["taskId"].(string), "completed")
		linkOf(t, c, done["result"].(map[string]any))
	})
}

func TestE2E_CutStderrOfAFailure(t *testing.T) {
	// A CLI that fails after 100 KB of error output: the error result keeps
	// the end of stderr, and links the whole of it.
	path := manifestWith(t, map[string]any{
		"name": "read_fail_loud", "title": "Fails loudly", "description": "Floods stderr, then exits 3.",
		"command":     []string{"flood", "stderr", "100000", "+", "exit", "3"},
		"annotations": map[string]any{"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
	})
	cs := connectManifest(t, path)

	want, _ := exec.Command(fakecli, "flood", "stderr", "100000").CombinedOutput()
	res := callTool(t, cs, "read_fail_loud", map[string]any{})
	require.True(t, res.IsError)
	link := outputLink(t, res, "stderr")
	assert.Equal(t, "text/plain", link.MIMEType)
	assert.Contains(t, text(res), "read_fail_loud takes no arguments that narrow its output")
	whole, _ := readWhole(t, cs, link.URI, DefaultMaxResultBytes)
	assert.Equal(t, string(want), whole, "the whole stderr, byte for byte")
}
