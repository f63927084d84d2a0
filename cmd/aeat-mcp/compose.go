package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/demo"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
)

// The composition root: what a command stands on, wired from its options
// (options.go: the flags, their environment twins) and the system
// (system.go): the logger, the manifest through its cache, the runner, the
// keychain, the warm pool, and the server built on them. serve and call
// open a whole stack; tools, validate and doctor inspect what it would be
// (inspect.go) without serving.

// logger builds the slog logger: stderr (or --log-file), never stdout,
// which carries JSON-RPC and nothing else.
func (o *options) logger(stderr io.Writer) (logger *slog.Logger, release, closeLog func(), err error) {
	level, err := o.level() // checked before (options.checkLog)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--log-level: %w", err)
	}
	w, closeFn := stderr, func() {}
	if o.logFile != "" {
		f, err := os.OpenFile(o.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("--log-file: %w", err)
		}
		w, closeFn = f, func() { f.Close() }
	}
	hopts := &slog.HandlerOptions{Level: level}
	var h slog.Handler
	switch o.logFormat {
	case "text":
		h = slog.NewTextHandler(w, hopts)
	case "json":
		h = slog.NewJSONHandler(w, hopts)
	default:
		closeFn()
		return nil, nil, nil, fmt.Errorf("--log-format must be text or json, not %q", o.logFormat)
	}
	async, release, flush := newAsyncHandler(h, o.holdLogs)
	return slog.New(async), release, func() { flush(); closeFn() }, nil
}

// loadManifest loads --manifest. A manifest that does not load is a usage
// error listing every problem: serving half a manifest, or guessing missing
// hints, is worse than not serving. It goes through the manifest cache;
// logger (nil: nowhere) gets why a cache file was not used.
func (o *options) loadManifest(logger *slog.Logger) (*annotations.Manifest, error) {
	m, err := o.readManifest(logger)
	if err != nil {
		return nil, err
	}
	if err := applyToolTimeouts(m, o.toolTimeouts); err != nil {
		return nil, &exitError{exitUsage, err}
	}
	return m, nil
}

// readManifest is the built-in demo's manifest, or --manifest's with the
// shared params' defaults the command line and the bundle give
// (applyGlobals, applyBundleLang).
func (o *options) readManifest(logger *slog.Logger) (*annotations.Manifest, error) {
	if o.demo {
		m, err := demo.Manifest()
		if err != nil {
			return nil, &exitError{exitFailure, fmt.Errorf("the built-in demo manifest: %w", err)}
		}
		return m, nil
	}
	if o.manifest == "" {
		return nil, &exitError{exitUsage, fmt.Errorf("no manifest: pass --manifest FILE (or set AEAT_MCP_MANIFEST), or --demo for the built-in demo")}
	}
	m, err := manifestCache(logger).Load(o.manifest)
	if err != nil {
		return nil, &exitError{exitUsage, err}
	}
	if err := o.applyGlobals(m, o.sys.environ); err != nil {
		return nil, &exitError{exitUsage, err}
	}
	o.bundleLangNote = o.applyBundleLang(m)
	return m, nil
}

// executable is the running binary's path, asked of the system once: serve's
// start needs it three times (the manifest cache's key, selfDir, the demo's
// CLI), each a readlink of /proc/self/exe on Linux.
var executable = sync.OnceValues(os.Executable)

// selfDir is the directory of the running binary, where a bare cli.command
// is looked for first.
func selfDir() string {
	exe, err := executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Dir(exe)
}

// serverConfig turns the options into a server.Config. The CLI not
// resolving is not an error: the server starts and each call explains.
func (o *options) serverConfig(m *annotations.Manifest, r *callruntime.Runner, logger *slog.Logger) server.Config {
	override := o.cli
	if o.demo && override == "" {
		override, _ = executable() // the demo CLI is this binary
	}
	cliPath, cliErr := m.ResolveCommand(override, selfDir()) // serve's start-up log says why (Problems)
	return server.Config{
		FirstCall:      o.firstCall,
		Manifest:       m,
		CLIPath:        cliPath,
		CLIError:       cliErr,
		Runner:         r,
		Ceilings:       annotations.Ceilings{Read: o.timeoutRead, Mutate: o.timeoutMutate, Live: o.timeoutLive},
		KillGrace:      o.killGrace,
		Drain:          o.drain,
		DetachAfter:    o.detachAfter,
		KeepResults:    o.keepResults,
		NoDedupe:       !o.dedupe,
		NoTasks:        !o.tasks,
		AskToExtend:    o.askToExtend,
		MaxResultBytes: o.maxResultBytes,
		MaxQueued:      o.maxQueued,
		MemoryLimit:    o.maxMemoryMiB << 20,
		PassEnv:        o.passEnv,
		Environ:        o.sys.environ,
		Keychain:       o.keychain(),
		ReadOnly:       o.readOnly,
		Select:         o.selection,
		Surface:        o.surface,
		Confirm:        o.confirm,
		Parent:         o.sys.parent,
		Printer:        o.printer(),
		Logger:         logger,
		Version:        buildVersion(),
	}
}

// stack is what serve and call both stand on: a logger, the manifest, a
// runner, and the server built on them.
type stack struct {
	cfg      server.Config
	logger   *slog.Logger
	manifest *annotations.Manifest
	runner   *callruntime.Runner
	server   *server.Server
	closers  []func()
	closed   sync.Once
}

// open builds the stack; its errors carry the right exit code.
func (o *options) open(stderr io.Writer) (*stack, error) {
	if err := o.check(); err != nil {
		return nil, &exitError{exitUsage, err}
	}
	st := &stack{}
	logger, releaseLogs, closeLog, err := o.logger(stderr)
	if err != nil {
		return nil, &exitError{exitUsage, err}
	}
	st.logger = logger
	st.closers = append(st.closers, closeLog)
	if st.manifest, err = o.loadManifest(logger); err != nil {
		st.close()
		return nil, err
	}
	o.warnAtStart(logger, st.manifest)
	// The runner's mechanisms and the warm template are set up once the
	// host is past initialize (server.Config.Prepare): a host waits for
	// initialize, and a call waits for them.
	if st.runner, err = callruntime.NewRunner(callruntime.Options{Deferred: true}); err != nil {
		st.close()
		return nil, &exitError{exitFailure, err}
	}
	st.closers = append(st.closers, func() { st.runner.Close() })
	st.cfg = o.serverConfig(st.manifest, st.runner, logger)
	if pool := laterWarmPool(o, st.manifest, st.cfg.CLIPath, st.runner, logger); pool != nil {
		st.cfg.Warm = pool
		st.closers = append(st.closers, pool.close)
	}
	st.cfg.Prepare = st.prepare
	st.cfg.Initialized = st.atAnswer(o, releaseLogs)
	if limit := server.SoftMemoryLimit(st.cfg); limit > 0 && !o.sys.has("GOMEMLIMIT") {
		debug.SetMemoryLimit(limit) // a GOMEMLIMIT the person set wins
	}
	if st.server, err = server.New(st.cfg); err != nil {
		st.close()
		return nil, &exitError{exitUsage, err}
	}
	st.closers = append(st.closers, st.server.Shutdown)
	st.logProblems(o)
	return st, nil
}

// warnAtStart logs what the flags and the manifest load left to say.
func (o *options) warnAtStart(logger *slog.Logger, m *annotations.Manifest) {
	if o.lang != "" && !i18n.Offered(o.lang) {
		logger.Warn("--lang is not a language aeat-mcp offers; messages are in English", "lang", o.lang, "offered", i18n.OfferedList())
	}
	for _, w := range m.Warnings {
		logger.Warn("manifest", "warning", w)
	}
	if o.bundleLangNote != "" {
		logger.Warn("the bundle's language setting is not one the CLI offers", "note", o.bundleLangNote)
	}
}

// atAnswer is what runs once the host has its answer to initialize: the
// held log is written and the stop signals wired. With the log held, it
// also runs when no answer has gone out by o.sys.noAnswer.
func (st *stack) atAnswer(o *options, releaseLogs func()) func() {
	ready := sync.OnceFunc(func() {
		releaseLogs()
		o.sys.watch()
	})
	if o.holdLogs {
		// A host that has had no answer by then is not waiting on a fast
		// start: the log is written and the stop signals wired anyway, so
		// a host that gives up on the connect and stops the server stops
		// it gracefully, with the start-up lines on its stderr.
		t := time.AfterFunc(o.sys.noAnswer, ready)
		st.closers = append(st.closers, func() { t.Stop() })
	}
	return ready
}

// logProblems logs, once the server is built, --tools patterns that
// select nothing and what this machine lacks. What makes every call
// refuse is a warning; what only some tools lack, information: those
// tools say so when called. The keychain is not read to start (a locked
// one would hold the host's connect).
func (st *stack) logProblems(o *options) {
	if unmatched := o.selection.Unmatched(st.manifest.Tools); len(unmatched) > 0 {
		st.logger.Warn("--tools patterns that select no tool of the manifest", "patterns", strings.Join(unmatched, ", "))
	}
	for _, p := range st.server.Problems() {
		level := slog.LevelWarn
		if !p.EveryCall() {
			level = slog.LevelInfo
		}
		st.logger.Log(context.Background(), level, p.What, "fix", p.Fix)
	}
}

// prepare is the stack's start-up work a host need not wait for, run by
// the server once the host is past initialize: the warm template starts,
// and the log says which tree mode the runner set up. (What this machine
// lacks is said in open, before: a person who starts the server by hand
// and sends nothing reads it too.)
func (st *stack) prepare() {
	if pool, ok := st.cfg.Warm.(*laterPool); ok {
		pool.start()
	}
	st.logger.Info("ready", "tree", st.runner.Tree())
}

// close stops the server's calls, then the runner (which waits until
// every call's tree is gone), then the log: in reverse. Only the first
// close does anything.
func (st *stack) close() {
	st.closed.Do(func() {
		for i := len(st.closers) - 1; i >= 0; i-- {
			st.closers[i]()
		}
	})
}
