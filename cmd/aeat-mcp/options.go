package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/demo"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/keychain"
	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/spf13/pflag"
)

// options are the common flags of every command (docs/commands.md, "Flags"). Each has an
// AEAT_MCP_* environment twin, for hosts whose config sets env more easily
// than args.
type options struct {
	manifest       string
	demo           bool
	cli            string
	lang           string
	timeoutRead    time.Duration
	timeoutMutate  time.Duration
	timeoutLive    time.Duration
	killGrace      time.Duration
	drain          time.Duration
	detachAfter    time.Duration
	keepResults    time.Duration
	dedupe         bool
	tasks          bool
	askToExtend    bool
	warm           bool
	maxResultBytes int
	maxQueued      int
	maxMemoryMiB   int64
	passEnv        []string
	readOnly       bool
	tools          []string
	selection      annotations.Selection
	surface        string
	confirm        string
	logLevel       string
	logFormat      string
	logFile        string
	globals        []string
	// envGlobals are the AEAT_MCP_GLOBAL_<NAME> values the manifest took
	// ("name=value"), for config to write as --global.
	envGlobals []string
	// environ is the process's environment as the command line started
	// (newRootCmd): what the CLI is given, and what the keychain is
	// reached with, are built from it alone.
	environ []string
}

// snapshot is o.environ, for what takes the environment as a function.
func (o *options) snapshot() []string { return o.environ }

// osKeychain is the keychain secrets are read from and stored in: the OS
// keychain, reached as the environment says (tests put a store of their
// own here).
var osKeychain = keychain.OS

// register declares the flags; goos picks the defaults that differ per
// OS (warm start is off by default on macOS: warm.DefaultOn).
func (o *options) register(fs *pflag.FlagSet, goos string) {
	fs.StringVar(&o.manifest, "manifest", "", "the manifest file")
	fs.BoolVar(&o.demo, "demo", false, "serve the built-in demo CLI and manifest (no other set-up needed)")
	fs.StringVar(&o.cli, "cli", "", "path of the CLI, overriding the manifest's cli.command")
	fs.StringVar(&o.lang, "lang", "", "language of messages: "+i18n.OfferedList()+" (default from AEAT_MCP_LANG, LC_ALL, LC_MESSAGES, LANG)")
	fs.DurationVar(&o.timeoutRead, "timeout-read", annotations.DefaultReadTimeout, "ceiling of READ tools (local reads)")
	fs.DurationVar(&o.timeoutMutate, "timeout-mutate", annotations.DefaultMutateTimeout, "ceiling of MUTATE tools (local changes)")
	fs.DurationVar(&o.timeoutLive, "timeout-live", annotations.DefaultLiveTimeout, "ceiling of LIVE tools (the portal, a browser)")
	fs.DurationVar(&o.killGrace, "kill-grace", callruntime.DefaultKillGrace, "time between SIGTERM and SIGKILL when a call is stopped")
	fs.DurationVar(&o.drain, "drain", server.DefaultDrain, "when the host closes stdin, how long calls already read may still run before they are stopped")
	fs.DurationVar(&o.detachAfter, "detach-after", server.DefaultDetachAfter, "a call still running after this returns its run id, and aeat_mcp_wait collects it (0: never; hosts drop calls after about 60 s)")
	fs.DurationVar(&o.keepResults, "keep-results", runs.DefaultKeep, "how long a finished run's result is kept for aeat_mcp_wait")
	fs.BoolVar(&o.askToExtend, "ask-to-extend", true, "at a run's ceiling, ask the person (where the host can) whether it may have as long again, once")
	fs.BoolVar(&o.dedupe, "dedupe", true, "a MUTATE or LIVE call identical to one in progress joins it instead of running twice")
	fs.BoolVar(&o.tasks, "tasks", true, "serve MUTATE and LIVE calls as MCP Tasks to hosts that speak them (2025-11-25 tasks, the 2026-07-28 extension); false: ordinary calls with detach-and-wait for every host")
	fs.BoolVar(&o.warm, "warm", warm.DefaultOn(goos), "start the calls of a Python CLI whose manifest has cli.warm from a warm template (false: every call starts cold; off by default on macOS until it has run there)")
	fs.IntVar(&o.maxResultBytes, "max-result-bytes", server.DefaultMaxResultBytes, "bound on the text of one result")
	fs.IntVar(&o.maxQueued, "max-queued", server.DefaultMaxQueued, "calls of one tier that may wait for a free slot; more are refused (busy) until some end")
	fs.Int64Var(&o.maxMemoryMiB, "max-memory", 0, "memory ceiling of one call's process tree, in MiB (0: none)")
	fs.StringSliceVar(&o.passEnv, "pass-env", nil, "environment variable the CLI may see, by name (repeatable; no * or prefixes)")
	fs.BoolVar(&o.readOnly, "read-only", false, "advertise and allow only read-only tools")
	fs.StringArrayVar(&o.tools, "tools", nil, "advertise and allow only the tools matching this glob (repeatable; !GLOB excludes; AEAT_MCP_TOOLS takes a comma list)")
	fs.StringVar(&o.surface, "surface", server.SurfaceAll, "what tools/list holds: all (every tool) or catalog (the manifest's surface.core, plus aeat_mcp_find and aeat_mcp_call to reach the rest)")
	fs.StringArrayVar(&o.globals, "global", nil, "NAME=VALUE: the default of the manifest's shared param NAME (cli.params, e.g. profile), which a call may override (repeatable; env AEAT_MCP_GLOBAL_<NAME>)")
	fs.StringVar(&o.confirm, "confirm", server.ConfirmAsk, "destructive tools: ask (the user, through the host; refuse if it cannot ask) or never")
	fs.StringVar(&o.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&o.logFormat, "log-format", "text", "text or json")
	fs.StringVar(&o.logFile, "log-file", "", "write logs here instead of stderr")
}

// minResultBytes is the least --max-result-bytes that leaves room for a
// refusal's text around the output.
const minResultBytes = 1 << 10

// check rejects values that would make the server misbehave rather than
// fail: a zero ceiling would time every call out, a zero grace would not be
// what it says. Every problem is named, with the flag and its meaning.
func (o *options) check() error {
	var problems []string
	positive := func(name string, d time.Duration, means string) {
		if d <= 0 {
			problems = append(problems, fmt.Sprintf("--%s %v: must be more than 0 (%s)", name, d, means))
		}
	}
	positive("timeout-read", o.timeoutRead, "the ceiling of READ tools")
	positive("timeout-mutate", o.timeoutMutate, "the ceiling of MUTATE tools")
	positive("timeout-live", o.timeoutLive, "the ceiling of LIVE tools")
	positive("kill-grace", o.killGrace, "how long a stopped call's tree is given after SIGTERM before SIGKILL")
	positive("drain", o.drain, "how long calls may finish after the host closes stdin")
	positive("keep-results", o.keepResults, "how long a finished run's result is kept")
	if o.detachAfter < 0 {
		problems = append(problems, fmt.Sprintf("--detach-after %v: must be 0 (never detach) or more", o.detachAfter))
	}
	if o.maxResultBytes < minResultBytes {
		problems = append(problems, fmt.Sprintf("--max-result-bytes %d: must be at least %d", o.maxResultBytes, minResultBytes))
	}
	if o.maxQueued < 1 {
		problems = append(problems, fmt.Sprintf("--max-queued %d: must be at least 1", o.maxQueued))
	}
	if o.maxMemoryMiB < 0 {
		problems = append(problems, fmt.Sprintf("--max-memory %d: must be 0 (no ceiling) or more", o.maxMemoryMiB))
	}
	if o.confirm != server.ConfirmAsk && o.confirm != server.ConfirmNever {
		problems = append(problems, fmt.Sprintf("--confirm %q: must be %q or %q", o.confirm, server.ConfirmAsk, server.ConfirmNever))
	}
	for _, n := range o.passEnv {
		if err := server.CheckPassEnvName(n); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if err := server.CheckSurface(o.surface); err != nil {
		problems = append(problems, err.Error())
	}
	if sel, err := annotations.ParseSelection(o.tools); err != nil {
		problems = append(problems, "--tools: "+err.Error())
	} else {
		o.selection = sel
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

// envName is a flag's environment twin: --timeout-live is AEAT_MCP_TIMEOUT_LIVE.
func envName(flag string) string {
	return "AEAT_MCP_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// applyEnv sets every flag the command line left alone from its
// environment twin. A bad value is a usage error that names the variable.
func applyEnv(fs *pflag.FlagSet, lookup func(string) (string, bool)) error {
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		if err != nil || f.Changed || f.Name == "lang" || f.Name == "global" {
			return // --lang's environment is AEAT_MCP_LANG, read with the locale variables; --global's is one variable per name
		}
		v, ok := lookup(envName(f.Name))
		if !ok || v == "" {
			return
		}
		if e := fs.Set(f.Name, v); e != nil {
			err = fmt.Errorf("%s=%q: %w", envName(f.Name), v, e)
		}
	})
	return err
}

func (o *options) printer() *i18n.Printer {
	if o.lang != "" {
		return i18n.Parse(o.lang)
	}
	return i18n.FromEnvironment()
}

// logger builds the slog logger: stderr (or --log-file), never stdout,
// which carries JSON-RPC and nothing else.
func (o *options) logger(stderr io.Writer) (*slog.Logger, func(), error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return nil, nil, fmt.Errorf("--log-level: %w", err)
	}
	w, closeFn := stderr, func() {}
	if o.logFile != "" {
		f, err := os.OpenFile(o.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("--log-file: %w", err)
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
		return nil, nil, fmt.Errorf("--log-format must be text or json, not %q", o.logFormat)
	}
	async, flush := newAsyncHandler(h)
	return slog.New(async), func() { flush(); closeFn() }, nil
}

// loadManifest loads --manifest. A manifest that does not load is a usage
// error listing every problem: serving half a manifest, or guessing missing
// hints, is worse than not serving. It goes through the manifest cache;
// logger (nil: nowhere) gets why a cache file was not used.
func (o *options) loadManifest(logger *slog.Logger) (*annotations.Manifest, error) {
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
	if err := o.applyGlobals(m, o.environ); err != nil {
		return nil, &exitError{exitUsage, err}
	}
	return m, nil
}

// globalEnvPrefix starts the variables that are --global's twins:
// AEAT_MCP_GLOBAL_PROFILE=work is --global profile=work.
const globalEnvPrefix = "AEAT_MCP_GLOBAL_"

// applyGlobals makes the --global values (and, for the names the command
// line leaves alone, the AEAT_MCP_GLOBAL_<NAME> ones: the name matched
// without regard to case, an empty value ignored) the defaults of the
// manifest's shared params. Every bad name or value is named with where it
// came from.
func (o *options) applyGlobals(m *annotations.Manifest, environ []string) error {
	type given struct {
		texts  []string
		source string
	}
	byName := map[string]*given{}
	var order []string
	add := func(name, text, source string) {
		g := byName[name]
		if g == nil {
			g = &given{source: source}
			byName[name] = g
			order = append(order, name)
		}
		g.texts = append(g.texts, text)
	}
	var problems []string
	for _, kv := range o.globals {
		name, text, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			problems = append(problems, fmt.Sprintf("--global %q: give NAME=VALUE", kv))
			continue
		}
		add(name, text, "--global "+kv)
	}
	fromFlags := len(order)
	o.envGlobals = nil
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		suffix, ok := strings.CutPrefix(strings.ToUpper(k), globalEnvPrefix)
		if !ok || v == "" {
			continue
		}
		name := suffix
		for _, p := range m.CLI.Params {
			if strings.EqualFold(p.Name, suffix) {
				name = p.Name
			}
		}
		if slices.Contains(order[:fromFlags], name) {
			continue // the command line wins
		}
		add(name, v, k+"="+v)
		o.envGlobals = append(o.envGlobals, name+"="+v)
	}
	for _, name := range order {
		g := byName[name]
		if err := m.SetGlobal(name, g.texts); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", g.source, err))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

// selfDir is the directory of the running binary, where a bare cli.command
// is looked for first.
func selfDir() string {
	exe, err := os.Executable()
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
		override, _ = os.Executable() // the demo CLI is this binary
	}
	cliPath, cliErr := m.ResolveCommand(override, selfDir()) // serve's start-up log says why (Problems)
	return server.Config{
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
		Environ:        o.environ,
		Keychain:       osKeychain(o.environ),
		ReadOnly:       o.readOnly,
		Select:         o.selection,
		Surface:        o.surface,
		Confirm:        o.confirm,
		Parent:         parentAtStart,
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
	logger, closeLog, err := o.logger(stderr)
	if err != nil {
		return nil, &exitError{exitUsage, err}
	}
	st.logger = logger
	st.closers = append(st.closers, closeLog)
	if st.manifest, err = o.loadManifest(logger); err != nil {
		st.close()
		return nil, err
	}
	if o.lang != "" && !i18n.Offered(o.lang) {
		logger.Warn("--lang is not a language aeat-mcp offers; messages are in English", "lang", o.lang, "offered", i18n.OfferedList())
	}
	for _, w := range st.manifest.Warnings {
		logger.Warn("manifest", "warning", w)
	}
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
	if limit := server.SoftMemoryLimit(st.cfg); limit > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit) // a GOMEMLIMIT the person set wins
	}
	if st.server, err = server.New(st.cfg); err != nil {
		st.close()
		return nil, &exitError{exitUsage, err}
	}
	st.closers = append(st.closers, st.server.Shutdown)
	if unmatched := o.selection.Unmatched(st.manifest.Tools); len(unmatched) > 0 {
		logger.Warn("--tools patterns that select no tool of the manifest", "patterns", strings.Join(unmatched, ", "))
	}
	// What makes every call refuse is a warning; what only some tools
	// lack, information: those tools say so when called. The keychain is
	// not read to start (a locked one would hold the host's connect).
	for _, p := range server.Inspect(st.cfg).Problems() {
		level := slog.LevelWarn
		if !p.EveryCall() {
			level = slog.LevelInfo
		}
		logger.Log(context.Background(), level, p.What, "fix", p.Fix)
	}
	return st, nil
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
