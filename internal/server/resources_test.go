package server

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOutputPages(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
	}{
		// No newline: pages end on a rune boundary, never inside "ñ" or "€".
		{"one line of two- and three-byte runes", strings.Repeat("añ€", 5000)},
		// Lines: pages end after a newline.
		{"lines", strings.Repeat("línea de la salida, con su fin\n", 700)},
		{"shorter than a page", "{}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o outputs
			t.Cleanup(o.close)
			kr := o.begin("r-0123456789abcdef", &annotations.Tool{Name: "t"}, nil, 100, 100)
			sp := kr.of(callruntime.Stdout)
			for rest := tc.text; rest != ""; { // in odd-sized writes, as pipes deliver
				n := min(len(rest), 777)
				_, err := kr.writer(callruntime.Stdout).Write([]byte(rest[:n]))
				require.NoError(t, err)
				rest = rest[n:]
			}
			require.True(t, sp.toFile())
			require.True(t, sp.paginate(1024))
			var joined strings.Builder
			for n := 1; n < len(sp.pages); n++ {
				page, err := sp.page(n)
				require.NoError(t, err)
				assert.LessOrEqual(t, len(page), 1024)
				assert.True(t, utf8.ValidString(page), "page %d is whole characters", n)
				if strings.Contains(tc.text, "\n") && n < len(sp.pages)-1 {
					assert.True(t, strings.HasSuffix(page, "\n"), "page %d ends a line", n)
				}
				joined.WriteString(page)
			}
			assert.Equal(t, tc.text, joined.String())
		})
	}
}

func TestOutputNarrowing(t *testing.T) {
	tool := (&annotations.Tool{Name: "t"}).WithDetail(nil,
		annotations.Param{Name: "profile", Shared: true}, annotations.Param{Name: "year"}, annotations.Param{Name: "doc", Stdin: true},
		annotations.Param{Name: "token", Sensitive: true}, annotations.Param{Name: "modelo"})
	assert.Equal(t, "year, modelo", narrowing(tool), "the tool's own arguments: not shared, stdin or secret ones")
	assert.Empty(t, narrowing((&annotations.Tool{Name: "t"}).WithDetail(nil, annotations.Param{Name: "lang", Shared: true})))
}

// keptFiles lists the files the server keeps outputs in.
func keptFiles(t *testing.T, s *Server) []string {
	t.Helper()
	s.outputs.mu.Lock()
	dir := s.outputs.dir
	s.outputs.mu.Unlock()
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestOutputsKeptPerSessionAndDeletedWithTheServer(t *testing.T) {
	s := newServer(t, func(c *Config) { c.KeepResults = time.Hour })
	mine, other := connect(t, s, "2025-11-25", nil), connect(t, s, "2025-11-25", nil)

	small := callTool(t, mine, "read_bigjson_n", map[string]any{"bytes": "1000"})
	require.False(t, small.IsError)
	assert.Empty(t, keptFiles(t, s), "a whole result keeps nothing")

	res := callTool(t, mine, "read_bigjson_n", map[string]any{"bytes": "200000"})
	link := outputLink(t, res, "stdout")
	require.Len(t, keptFiles(t, s), 1, "a cut stdout is kept, its whole stderr is not")

	_, err := mine.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: link.URI})
	require.NoError(t, err)
	// Another session of the same server, the same run store.
	_, err = other.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: link.URI})
	assert.Equal(t, int64(-32002), rpcCode(err), "another session never reads it: %v", err)

	// Another run: the files are the server's until it goes.
	callTool(t, mine, "read_bigjson_n", map[string]any{"bytes": "200000"})
	require.Len(t, keptFiles(t, s), 2)
	s.outputs.mu.Lock()
	dir := s.outputs.dir
	s.outputs.mu.Unlock()
	s.Shutdown()
	require.Eventually(t, func() bool { _, err := os.Stat(dir); return os.IsNotExist(err) }, time.Minute, 10*time.Millisecond,
		"the folder goes when the server does")
}

func TestOutputsExpireWithTheRun(t *testing.T) {
	// A keep of a nanosecond: the run is forgotten as soon as its registry
	// looks, and its output with it.
	s := newServer(t, func(c *Config) { c.KeepResults = time.Nanosecond })
	cs := connect(t, s, "2025-11-25", nil)
	link := outputLink(t, callTool(t, cs, "read_bigjson_n", map[string]any{"bytes": "200000"}), "stdout")
	_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: link.URI})
	assert.Equal(t, int64(-32002), rpcCode(err), "an expired run: %v", err)
	assert.Empty(t, keptFiles(t, s), "its file is deleted")
}
