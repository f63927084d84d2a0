package main

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
)

// syncWriter is a buffer the writer goroutine and the test share.
type syncWriter = proctest.SyncBuffer

// TestAsyncHandler: records are written in order, none is lost however
// many are queued, attributes and groups hold, and after close a record
// is written in place.
func TestAsyncHandler(t *testing.T) {
	var w syncWriter
	h, flush := newAsyncHandler(slog.NewTextHandler(&w, nil))
	log := slog.New(h).With("server", "aeat").WithGroup("g")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 1000 {
				log.Info("call", "writer", g, "i", i)
			}
		})
	}
	wg.Wait()
	flush()
	lines := strings.Split(strings.TrimSpace(w.String()), "\n")
	assert.Len(t, lines, 4000)
	next := map[string]int{}
	for _, l := range lines {
		assert.Contains(t, l, "server=aeat")
		var g, i int
		_, err := fmt.Sscanf(l[strings.Index(l, "g.writer="):], "g.writer=%d g.i=%d", &g, &i)
		if assert.NoError(t, err, l) {
			key := fmt.Sprint(g)
			assert.Equal(t, next[key], i, "each writer's records in order")
			next[key] = i + 1
		}
	}
	log.Info("after close")
	assert.Contains(t, w.String(), "after close", "written in place after close")
	flush() // a second close does nothing
}
