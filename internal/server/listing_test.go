package server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cachedFull is the whole aeat read back from a manifest cache that keeps
// each tool as the server lists it (annotations.Cache.Listed), as a start
// with a warm cache reads it.
func cachedFull(t *testing.T) *annotations.Manifest {
	t.Helper()
	path := filepath.Join(t.TempDir(), "aeat.full.manifest.json")
	data, err := os.ReadFile(fullAeatManifest)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	cache := &annotations.Cache{Dir: t.TempDir(), Version: "test", Listed: ListedJSON}
	_, err = cache.Load(path)
	require.NoError(t, err)
	m, err := cache.Load(path)
	require.NoError(t, err)
	return m
}

// stdioLister serves s over the stdio transport, as Serve does, to a
// 2025-11-25 host that has initialized; list asks tools/list and reads its
// answer through, returning its length and the answer itself when keep.
func stdioLister(t *testing.T, s *Server) func(keep bool) (int, []byte) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	ss, err := s.Connect(ctx, &StdioTransport{In: inR, Out: outW})
	require.NoError(t, err)
	t.Cleanup(func() { _ = outR.Close(); _ = inW.Close(); cancel(); ss.Close() })
	out := bufio.NewReaderSize(outR, 64<<10)
	send := func(line string) {
		_, err := io.WriteString(inW, line+"\n")
		require.NoError(t, err)
	}
	send(initLine)
	_, err = out.ReadString('\n')
	require.NoError(t, err)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	_, err = out.ReadString('\n')
	require.NoError(t, err)
	<-s.prepared // the start-up work after initialize, done: it allocates too
	return func(keep bool) (int, []byte) {
		send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		var kept []byte
		n := 0
		for {
			chunk, err := out.ReadSlice('\n')
			n += len(chunk)
			if keep {
				kept = append(kept, chunk...)
			}
			if err == nil {
				return n, kept
			}
			require.ErrorIs(t, err, bufio.ErrBufferFull)
		}
	}
}

// allocated is the bytes the process allocated while f ran.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestToolsList_MadeOnce: a server of the whole aeat whose tools came
// from the manifest cache answers its first tools/list without encoding
// them — the SDK's encoding of the list, the schemas compacted again, the
// tasks decorator's marking and copies were 7.1× the answer's bytes, 6.4×
// for a later one — and over stdio without making the answer whole either
// (written from its pieces, stdioConn.writeStream), and writes, byte for
// byte, what a server of tools encoded afresh writes.
func TestToolsList_MadeOnce(t *testing.T) {
	m := cachedFull(t)
	srv := serverOf(t, m, SurfaceAll)
	list := stdioLister(t, srv)
	// The tool table is built at its first use (Server.table), here the
	// first listing; it was built in New, outside this count, and is not
	// the answer either: counted apart, as the cache's sections are.
	built := allocated(func() { srv.table() })
	t.Logf("the tool table: %d allocated", built)
	// The tools' sections of the cache file are read at their first
	// listing (annotations.Manifest.LateListed). Before the file had
	// sections, the start read these same bytes with the rest of it,
	// outside this count; they are the cache's input, not a copy of the
	// answer, so they are counted apart and the bound below stays on what
	// it was written for — the answer made once and not copied to be
	// framed. (The read is one buffer of the sections' bytes, logged.)
	read := allocated(func() { annotations.ReadListings(m.Tools) })
	t.Logf("the tools' sections of the cache file: %d allocated", read)
	var n int
	bytesAlloc := allocated(func() { n, _ = list(false) })
	require.Greater(t, n, 400_000)
	t.Logf("first tools/list: %d bytes written, %d allocated (%.2f×)", n, bytesAlloc, float64(bytesAlloc)/float64(n))
	// Never made whole: written from its pieces (the cache's sections,
	// counted above) through the transport's buffer of the pipe's size —
	// a fresh half megabyte is a hundred page faults at a start, and made
	// once it was 1.16× its bytes.
	assert.Less(t, bytesAlloc, uint64(n/2), "the first tools/list allocated %.2f× its answer", float64(bytesAlloc)/float64(n))
	bytesAlloc = allocated(func() { n, _ = list(false) })
	t.Logf("a later tools/list: %d allocated (%.2f×)", bytesAlloc, float64(bytesAlloc)/float64(n))
	assert.Less(t, bytesAlloc, uint64(n/20), "a later tools/list allocated %.2f× its answer", float64(bytesAlloc)/float64(n))

	_, cached := list(true)
	fresh, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	_, want := stdioLister(t, serverOf(t, fresh, SurfaceAll))(true)
	if !bytes.Equal(want, cached) {
		t.Fatalf("tools/list from the cache's tools differs: %d bytes, afresh %d", len(cached), len(want))
	}
}

// TestStart_DecodesNoParams: a server of the whole aeat read back from a
// warm manifest cache answers initialize and tools/list — and does its
// start-up work after initialize — without decoding one tool's params or
// CLI help (annotations.Manifest.LateDecoded), on both surfaces, and
// reads the schema and listing of the tools it lists alone
// (annotations.Manifest.LateListed: 5 sections of the file on catalog);
// a call decodes its own tool's alone.
func TestStart_DecodesNoParams(t *testing.T) {
	for _, surface := range []string{SurfaceAll, SurfaceCatalog} {
		t.Run(surface, func(t *testing.T) {
			m := cachedFull(t)
			s := serverOf(t, m, surface)
			ask := wireSession(t, s, "2025-11-25")
			require.Greater(t, len(ask("tools/list", ``)), 1000)
			<-s.prepared
			assert.Zero(t, m.LateDecoded(), "tools decoded to start")
			fromManifest := 0
			for _, st := range s.table().listed {
				if !st.tool.Builtin() {
					fromManifest++
				}
			}
			assert.Equal(t, fromManifest, m.LateListed(), "sections read to start")
			if surface == SurfaceCatalog {
				assert.Less(t, m.LateListed(), 10)
			}
			res := ask("tools/call", `"name":"`+m.Tools[0].Name+`","arguments":{"no_such_argument":1}`)
			assert.Contains(t, string(res), "no_such_argument")
			assert.Equal(t, 1, m.LateDecoded(), "the called tool's alone")
		})
	}
}
