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
	h, _, flush := newAsyncHandler(slog.NewTextHandler(&w, nil), false)
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

// TestAsyncHandler_Held: a held queue writes nothing until release, then
// everything in order; a warning, a full queue and close each release it,
// so that nothing waits for a host that never answers.
func TestAsyncHandler_Held(t *testing.T) {
	held := func() (*syncWriter, *slog.Logger, func(), func()) {
		var w syncWriter
		h, release, flush := newAsyncHandler(slog.NewTextHandler(&w, nil), true)
		return &w, slog.New(h), release, flush
	}
	t.Run("until release", func(t *testing.T) {
		w, log, release, flush := held()
		log.Info("one")
		log.Info("two")
		assert.Empty(t, w.String(), "held: nothing written before release")
		release()
		flush()
		assert.Regexp(t, `(?s)msg=one.*msg=two`, w.String())
	})
	t.Run("a warning", func(t *testing.T) {
		w, log, _, flush := held()
		log.Info("one")
		log.Warn("two")
		flush() // waits for the writer, which the warning started
		assert.Regexp(t, `(?s)msg=one.*msg=two`, w.String())
	})
	t.Run("a full queue", func(t *testing.T) {
		w, log, _, flush := held()
		for i := range 3 * logQueueSize {
			log.Info("line", "i", i) // returns: a full held queue is written
		}
		flush()
		assert.Equal(t, 3*logQueueSize, strings.Count(w.String(), "msg=line"))
	})
	t.Run("close", func(t *testing.T) {
		w, log, _, flush := held()
		log.Info("one")
		flush()
		assert.Contains(t, w.String(), "msg=one")
	})
}
