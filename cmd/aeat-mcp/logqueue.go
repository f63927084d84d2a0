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
type asyncHandler struct {
	next slog.Handler
	q    *logQueue
}

type logQueue struct {
	mu     sync.RWMutex
	closed bool
	jobs   chan logJob
	done   chan struct{}
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

func newAsyncHandler(next slog.Handler) (*asyncHandler, func()) {
	q := &logQueue{jobs: make(chan logJob, logQueueSize), done: make(chan struct{})}
	go func() {
		defer close(q.done)
		for j := range q.jobs {
			_ = j.h.Handle(context.Background(), j.r)
		}
	}()
	return &asyncHandler{next: next, q: q}, q.close
}

// close writes what is queued and stops the writer.
func (q *logQueue) close() {
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
	a.q.jobs <- logJob{a.next, r.Clone()}
	return nil
}

func (a *asyncHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &asyncHandler{next: a.next.WithAttrs(attrs), q: a.q}
}

func (a *asyncHandler) WithGroup(name string) slog.Handler {
	return &asyncHandler{next: a.next.WithGroup(name), q: a.q}
}
