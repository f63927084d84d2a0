package main

import (
	"context"
	"log/slog"
	"sync"
)

// asyncHandler hands records to one writer goroutine, so that a call's log
// line is written off its response path (a write to stderr or a log file
// per call, while the host waits for the result). Records keep their order;
// nothing is dropped: when the queue is full, Handle waits; after close,
// records are written in place.
//
// # Held until the host has its answer
//
// A held queue (serve's) writes nothing until release: a host waits for
// the answer to initialize, and the start-up lines (serving, the SDK's
// connect lines, what the manifest lacks) are formatted — the first one
// loads the local time zone — and written on the second of the machine's
// cores meanwhile. Serve releases it at the first message after
// initialize (server.Config.Initialized), or at once when a person runs
// it in a terminal. Nothing waits for a host that never answers: a
// warning, a full queue and close release it too.
type asyncHandler struct {
	next slog.Handler
	q    *logQueue
}

type logQueue struct {
	mu       sync.RWMutex
	closed   bool
	jobs     chan logJob
	done     chan struct{}
	released sync.Once
}

type logJob struct {
	h slog.Handler
	r slog.Record
}

// logQueueSize bounds the records waiting to be written. A record is 304
// bytes in the queue: 1024 of them were a 304 KiB buffer cleared and
// faulted in before initialize, where a burst of a few dozen lines (the
// start-up warnings, calls ending together) is what it ever holds; when it
// is full a writer waits, nothing is lost.
const logQueueSize = 64

// newAsyncHandler queues records for next. Unless held, they are written
// from now on; held, from release on. close writes what is queued and
// stops the writer.
func newAsyncHandler(next slog.Handler, held bool) (h *asyncHandler, release, close func()) {
	q := &logQueue{jobs: make(chan logJob, logQueueSize), done: make(chan struct{})}
	if !held {
		q.release()
	}
	return &asyncHandler{next: next, q: q}, q.release, q.close
}

// release starts the writer, once.
func (q *logQueue) release() {
	q.released.Do(func() {
		go func() {
			defer close(q.done)
			for j := range q.jobs {
				_ = j.h.Handle(context.Background(), j.r)
			}
		}()
	})
}

// close writes what is queued and stops the writer.
func (q *logQueue) close() {
	q.release()
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.jobs)
	}
	q.mu.Unlock()
	<-q.done
}

func (a *asyncHandler) Enabled(ctx context.Context, l slog.Level) bool { return a.next.Enabled(ctx, l) }

func (a *asyncHandler) Handle(ctx context.Context, r slog.Record) error {
	a.q.mu.RLock()
	defer a.q.mu.RUnlock()
	if a.q.closed {
		return a.next.Handle(ctx, r)
	}
	if r.Level >= slog.LevelWarn {
		a.q.release() // a problem is said even if no host ever connects
	}
	j := logJob{a.next, r.Clone()}
	select {
	case a.q.jobs <- j:
	default:
		a.q.release() // full: held records must not hold the server
		a.q.jobs <- j
	}
	return nil
}

func (a *asyncHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &asyncHandler{next: a.next.WithAttrs(attrs), q: a.q}
}

func (a *asyncHandler) WithGroup(name string) slog.Handler {
	return &asyncHandler{next: a.next.WithGroup(name), q: a.q}
}
