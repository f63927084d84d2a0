package main

import (
	"context"
	"log/slog"
	"strings"
	"sync"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// The manifest's load (through its cache: reading two files, a hash, a
// decode) is most of what serve does before it can answer initialize, and
// it depends on nothing but the manifest's path. So run starts it on a
// goroutine of its own as soon as the command line names a manifest —
// before cobra builds and parses the command line and the logger is set
// up — and loadManifest takes its result when it asks for that path. A
// guess that turns out wrong (the flag's value was something else, --demo
// wins) costs only the wasted load: the result is taken only for the very
// path the parsed flags name, and the error is the one the load in place
// would have returned, so a manifest that does not load is the same usage
// error, with the same exit code.

// preload is a manifest load started before it is needed.
type preload struct {
	path  string
	done  chan struct{}
	taken sync.Once
	m     *annotations.Manifest
	err   error
	// said is what the cache logged while no logger existed yet.
	said *recordLog
}

// startPreload starts loading the manifest args (or the environment,
// lookupEnv) name; nil when they name none.
func startPreload(args []string, lookupEnv func(string) (string, bool)) *preload {
	path := flagNamed(args, "manifest", lookupEnv)
	if path == "" {
		return nil
	}
	// What the cache says at the log level the command line names: its
	// debug line on every hit costs a record (and the caller's pc) for
	// nothing at the default info. A level that does not read keeps all.
	var level slog.Level // info, --log-level's default
	if named := flagNamed(args, "log-level", lookupEnv); named != "" && level.UnmarshalText([]byte(named)) != nil {
		level = slog.LevelDebug
	}
	p := &preload{path: path, done: make(chan struct{}), said: &recordLog{}}
	go func() {
		defer close(p.done)
		p.m, p.err = manifestCache(slog.New(recorder{log: p.said, level: level})).Load(path)
	}()
	return p
}

// flagNamed is the value args would give the common flag name — the last
// one, as pflag keeps — or else its environment twin's. It is a guess made
// before cobra parses (a "--manifest" could be another flag's value), so
// what it serves is checked against the parsed flags, or harmless.
func flagNamed(args []string, name string, lookupEnv func(string) (string, bool)) string {
	named := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			named = v
		} else if a == "--"+name && i+1 < len(args) {
			named = args[i+1]
			i++
		}
	}
	if named == "" {
		named, _ = lookupEnv(envName(name))
	}
	return named
}

// take is the preloaded manifest of path, once, waiting for its load, with
// what the cache logged replayed into logger (nil: nowhere); ok is false
// when p loaded another path, has been taken already, or is nil.
func (p *preload) take(path string, logger *slog.Logger) (m *annotations.Manifest, err error, ok bool) {
	if p == nil || path != p.path {
		return nil, nil, false
	}
	p.taken.Do(func() {
		<-p.done
		m, err, ok = p.m, p.err, true
		if logger != nil {
			p.said.replay(logger.Handler())
		}
	})
	return m, err, ok
}

// wait returns once the load has ended, taken or not: run does not exit
// while it may be writing a cache file.
func (p *preload) wait() {
	if p != nil {
		<-p.done
	}
}

// recordLog keeps records to hand to a handler later.
type recordLog struct {
	mu      sync.Mutex
	records []recorded
}

type recorded struct {
	r slog.Record
	// via derives, from the handler replayed into, the one the record was
	// logged through (its WithAttrs and WithGroup).
	via func(slog.Handler) slog.Handler
}

// replay hands every record kept to h, in order, as it would have been
// logged through h.
func (l *recordLog) replay(h slog.Handler) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, rec := range l.records {
		hh := rec.via(h)
		if hh.Enabled(context.Background(), rec.r.Level) {
			_ = hh.Handle(context.Background(), rec.r)
		}
	}
	l.records = nil
}

// recorder is a slog.Handler that keeps every record at level or above in
// log.
type recorder struct {
	log   *recordLog
	level slog.Level
	via   func(slog.Handler) slog.Handler // nil: the handler itself
}

func (h recorder) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level }

func (h recorder) Handle(_ context.Context, r slog.Record) error {
	via := h.via
	if via == nil {
		via = func(x slog.Handler) slog.Handler { return x }
	}
	h.log.mu.Lock()
	h.log.records = append(h.log.records, recorded{r: r.Clone(), via: via})
	h.log.mu.Unlock()
	return nil
}

func (h recorder) WithAttrs(as []slog.Attr) slog.Handler {
	return h.derive(func(x slog.Handler) slog.Handler { return x.WithAttrs(as) })
}

func (h recorder) WithGroup(name string) slog.Handler {
	return h.derive(func(x slog.Handler) slog.Handler { return x.WithGroup(name) })
}

func (h recorder) derive(step func(slog.Handler) slog.Handler) slog.Handler {
	prev := h.via
	if prev == nil {
		return recorder{log: h.log, level: h.level, via: step}
	}
	return recorder{log: h.log, level: h.level, via: func(x slog.Handler) slog.Handler { return step(prev(x)) }}
}
