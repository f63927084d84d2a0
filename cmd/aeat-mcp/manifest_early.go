package main

import (
	"context"
	"log/slog"
	"sync"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// A host writes initialize as soon as it starts the server, and the answer
// needs the manifest (its instructions list the tools). The machine has
// more than one core, and reading the manifest (its cache file, a SHA-256
// of the manifest) depends on nothing cobra does: so when a command line
// can only serve, the manifest it names is loaded on a goroutine of its
// own from the moment the flags are declared, while cobra parses them and
// serve builds its logger. loadManifest takes that load when it is of the
// manifest the options name (the flags as parsed, their environment
// twins), and loads as before otherwise: what a manifest that does not
// load says, and the exit code, are the load's own either way.

// earlyManifest is a manifest load started before the flags were parsed.
type earlyManifest struct {
	path string
	done chan struct{}
	m    *annotations.Manifest
	err  error
	// logs are what the load logged (why a cache file was not used),
	// handed to serve's logger once it exists.
	logs recorder
	// taken: the load was handed over; a second take loads again.
	taken bool
}

// startManifest starts loading the manifest serve would load for args —
// a command line that can only serve (servesOnly), whose flags seen are
// flags — on sys; nil when that is not known before parsing (the demo, no
// manifest named).
func startManifest(sys *system, flags map[string]string) *earlyManifest {
	if _, demo := flags["demo"]; demo || sys.has(envName("demo")) {
		return nil // the demo's manifest is built in
	}
	path, named := flags["manifest"]
	if !named {
		path, _ = sys.lookupEnv(envName("manifest"))
	}
	if path == "" {
		return nil
	}
	e := &earlyManifest{path: path, done: make(chan struct{})}
	go func() {
		defer close(e.done)
		e.m, e.err = sys.load(path, slog.New(&e.logs))
	}()
	return e
}

// take is the load of path, once it is done, its log written to logger;
// ok is false when e loaded another manifest (or none, or was taken).
func (e *earlyManifest) take(path string, logger *slog.Logger) (m *annotations.Manifest, ok bool, err error) {
	if e == nil || e.taken || path != e.path {
		return nil, false, nil
	}
	<-e.done
	e.taken = true
	e.logs.replay(logger)
	return e.m, true, e.err
}

// wait waits for the load, whether taken or not: a command that ends
// leaves nothing running (a test's cache directory is removed after it).
func (e *earlyManifest) wait() {
	if e != nil {
		<-e.done
	}
}

// recorder is a slog.Handler that keeps every record, for replay. The
// manifest cache logs through Logger.Log alone: attributes and groups
// added to the logger (WithAttrs, WithGroup) are not kept.
type recorder struct {
	mu   sync.Mutex
	recs []slog.Record
}

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }

func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recs = append(r.recs, rec.Clone())
	return nil
}

func (r *recorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *recorder) WithGroup(string) slog.Handler      { return r }

// replay hands the records to logger (nil: nowhere), as the load would
// have logged them there.
func (r *recorder) replay(logger *slog.Logger) {
	if logger == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ctx := context.Background()
	h := logger.Handler()
	for _, rec := range r.recs {
		if h.Enabled(ctx, rec.Level) {
			_ = h.Handle(ctx, rec)
		}
	}
	r.recs = nil
}
