package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
)

// warmPool starts cli.warm's template for a server (docs/warm-start.md), or
// returns nil when the manifest has no cli.warm, --warm=false turned it off,
// or the CLI does not resolve. A pool that cannot work here (not a Python
// script, no fork) is returned Off, with the reason, so doctor can say it.
// close removes what the template was given (a scratch directory).
func warmPool(o *options, m *annotations.Manifest, cliPath string, r *callruntime.Runner, logger *slog.Logger) (pool *warm.Pool, close func()) {
	w := m.CLI.Warm
	switch {
	case w == nil:
		return nil, func() {}
	case !o.warm:
		logger.Debug("warm start is off " + warmOffWhy(server.HostOS()) + ": every call starts cold")
		return nil, func() {}
	case cliPath == "":
		return nil, func() {}
	case !warm.Supported:
		// Said before anything is asked of the CLI: on Windows aeat.exe
		// is no script, and "set cli.warm.interpreter" would send a
		// person after a setting that changes nothing there.
		return warm.Inapplicable(warm.Config{Warm: *w, Runner: r, Logger: logger}, warmUnsupported), func() {}
	}
	cfg, cleanup, off := warmConfig(o, m, cliPath, r, logger)
	if off != nil {
		return off, cleanup
	}
	return warm.Start(cfg), cleanup
}

// warmConfig is what a warm.Pool for m's cli.warm needs: the environment
// and working directory a call gets, the interpreter. off is a Pool that
// is off already, with the reason, when there can be none.
func warmConfig(o *options, m *annotations.Manifest, cliPath string, r *callruntime.Runner, logger *slog.Logger) (cfg warm.Config, cleanup func(), off *warm.Pool) {
	w := m.CLI.Warm
	env := server.BuildEnv(server.HostOS(), m.CLI, o.passEnv, o.snapshot)
	dir := m.WorkDir()
	cleanup = func() {}
	if dir == annotations.ScratchDir {
		// The template gets a private directory of its own, as a call
		// does; each call sends its own (and its TMPDIR).
		tmp, err := os.MkdirTemp("", "aeat-mcp-warm."+strconv.Itoa(os.Getpid())+".")
		if err != nil {
			return cfg, cleanup, warm.Disabled(warm.Config{Warm: *w, Runner: r, Logger: logger}, fmt.Sprintf("creating the template's directory: %v", err))
		}
		dir, cleanup = tmp, func() { os.RemoveAll(tmp) }
		kept := env[:0:0]
		for _, kv := range env {
			if k, _, _ := strings.Cut(kv, "="); k != "TMPDIR" {
				kept = append(kept, kv)
			}
		}
		env = append(kept, "TMPDIR="+tmp)
	}
	cfg = warm.Config{Warm: *w, Script: cliPath, Args: m.CLI.Args, Env: env, Dir: dir, Runner: r, Logger: logger,
		VerifyTimeout: o.timeoutRead, VerdictDir: warmVerdictDir()}
	python, err := warmPython(w, cliPath, env)
	if errors.Is(err, warm.ErrNotPython) {
		return cfg, cleanup, warm.Inapplicable(cfg, err.Error())
	} else if err != nil {
		return cfg, cleanup, warm.Disabled(cfg, err.Error())
	}
	cfg.Python = python
	return cfg, cleanup, nil
}

// warmUnsupported is why cli.warm does nothing where warm.Supported is
// false.
var warmUnsupported = "warm start is not available on " + runtime.GOOS + ": it forks each call from a template, and " +
	runtime.GOOS + " has no fork; every call starts cold"

// laterPool is a server's warm pool, made by warmPool with the server's
// start-up work (stack.prepare), once the host is past initialize: the
// template is a process of its own (a Python interpreter importing the
// CLI), and a host waiting for initialize should not share the machine
// with it. The server starts no call before that work is done, so a call
// meets the pool warmPool made; after close, none.
type laterPool struct {
	make func() (*warm.Pool, func())
	// once makes the pool (start), or marks it never made (close).
	once    sync.Once
	pool    *warm.Pool // nil until started, and when closed first
	cleanup func()
	cold    *callruntime.Runner
}

// laterWarmPool is the warm pool a server of o and m will start, or nil
// where warmPool would make none (no cli.warm, --warm=false, no CLI).
func laterWarmPool(o *options, m *annotations.Manifest, cliPath string, r *callruntime.Runner, logger *slog.Logger) *laterPool {
	if m.CLI.Warm == nil || !o.warm || cliPath == "" {
		// warmPool says why, at once: it starts nothing then.
		warmPool(o, m, cliPath, r, logger)
		return nil
	}
	return &laterPool{cold: r, make: func() (*warm.Pool, func()) { return warmPool(o, m, cliPath, r, logger) }}
}

func (l *laterPool) start() { l.once.Do(func() { l.pool, l.cleanup = l.make() }) }

// Serves reports whether calls of tier start warm, as the pool does; none
// after close.
func (l *laterPool) Serves(tier annotations.Tier) bool {
	l.start()
	return l.pool != nil && l.pool.Serves(tier)
}

// Run runs spec as the pool does; after close, cold (the runner then
// refuses it).
func (l *laterPool) Run(ctx context.Context, spec callruntime.Spec) (callruntime.Result, error) {
	l.start()
	if l.pool == nil {
		return l.cold.Run(ctx, spec)
	}
	return l.pool.Run(ctx, spec)
}

// Yield has the pool's preparation yield to a call it does not run, as the
// pool does (warm.Pool.Yield); nothing to yield after close.
func (l *laterPool) Yield() (end func()) {
	l.start()
	if l.pool == nil {
		return func() {}
	}
	return l.pool.Yield()
}

// close stops the pool and its template, if it was started; one never
// started never will be.
func (l *laterPool) close() {
	l.once.Do(func() {})
	if l.pool != nil {
		l.pool.Close()
		l.cleanup()
	}
}

// warmPython is the interpreter cli.warm's template runs in:
// cli.warm.interpreter, else the one on the CLI script's #! line.
func warmPython(w *annotations.Warm, cliPath string, env []string) (string, error) {
	if w.Interpreter != "" {
		return w.Interpreter, nil
	}
	return warm.Interpreter(cliPath, envValue(env, "PATH"))
}

// warmVerdictDir is where templates leave their verdicts for tools (the
// user's cache directory: ~/.cache, ~/Library/Caches, %LocalAppData%);
// "" where there is none.
func warmVerdictDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "aeat-mcp", "warm")
}

// warmVerdict is the verdict the last template of this configuration left
// on this machine (nil: none yet), and whether the CLI's files are still
// those it was reached with. It starts nothing.
func warmVerdict(o *options, m *annotations.Manifest, cliPath string) (*warm.Verdict, bool) {
	w, dir := m.CLI.Warm, warmVerdictDir()
	if w == nil || cliPath == "" || dir == "" {
		return nil, false
	}
	python, err := warmPython(w, cliPath, server.BuildEnv(server.HostOS(), m.CLI, o.passEnv, o.snapshot))
	if err != nil {
		return nil, false
	}
	v, current, err := warm.LoadVerdict(dir, warm.VerdictKey(python, cliPath, m.CLI.Args, *w))
	if err != nil {
		return nil, false
	}
	return &v, current
}

// warmOffWhy says what turns warm start off when --warm is false on goos:
// a person, or the default on macOS (warm.DefaultOn).
func warmOffWhy(goos string) string {
	if warm.DefaultOn(goos) {
		return "(--warm=false or AEAT_MCP_WARM=false)"
	}
	return "(the default on macOS until warm start has run there; --warm=true or AEAT_MCP_WARM=true turns it on)"
}

func envValue(env []string, name string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// warmCheck is what doctor learned of cli.warm: nothing when the manifest
// has none, that --warm=false turned it off, or how a template started here
// fared (it is started, verified and stopped, as a server would at start).
type warmCheck struct {
	off    bool
	status warm.Status
	tiers  []annotations.Tier
}

// doctorWarm is doctor's warm-start check. A template's first start on a
// Python CLI takes a minute or two, so doctor says what it is waiting for
// before it waits; and when a problem above already makes calls fail
// (doctor's problems are what fails a call), it does not wait at all: the
// template could not change the verdict, and a silent minute reads as a
// hang.
func doctorWarm(o *options, in *inspected, r *callruntime.Runner, l doctorLines) {
	if in.manifest.CLI.Warm == nil || in.cfg.CLIPath == "" {
		return
	}
	if o.warm && l.problems() > 0 {
		l.note("warm start: not checked — calls fail until the problems above are fixed; run doctor again then")
		return
	}
	if o.warm {
		last := "the first start on this machine can take a minute or two"
		if v, current := in.warmVerdict(); v != nil && current && v.ReadyMS > 0 {
			last = fmt.Sprintf("took %.0f s last time", float64(v.ReadyMS)/1000)
		}
		l.note("checking warm start: starting a template — %s (doctor waits at most %v) …", last, warmCheckWait)
	}
	checkWarm(o, in, r).report(l.ok, l.note)
}

// warmCheckWait bounds how long doctor waits for the template to settle.
const warmCheckWait = 3 * time.Minute

func checkWarm(o *options, in *inspected, r *callruntime.Runner) *warmCheck {
	w := in.manifest.CLI.Warm
	if w == nil || in.cfg.CLIPath == "" {
		return nil
	}
	if !o.warm {
		return &warmCheck{off: true}
	}
	pool, cleanup := warmPool(o, in.manifest, in.cfg.CLIPath, r, slog.New(slog.DiscardHandler))
	defer cleanup()
	defer pool.Close()
	select {
	case <-pool.Settled():
	case <-time.After(warmCheckWait):
	}
	return &warmCheck{status: pool.Status(), tiers: w.TiersOrDefault()}
}

// report prints doctor's lines on warm start.
func (c *warmCheck) report(ok, note func(string, ...any)) {
	if c == nil {
		return
	}
	switch {
	case c.off:
		note("warm start: off %s: every call starts cold", warmOffWhy(server.HostOS()))
	case c.status.State == warm.On:
		tiers := make([]string, len(c.tiers))
		for i, t := range c.tiers {
			tiers[i] = string(t)
		}
		ok("warm start: on for %s calls — a template ready in %d ms (import %d ms, %d commands walked), %d MiB resident, %d verify call(s) identical cold and warm",
			strings.Join(tiers, ", "), c.status.ReadyMS, c.status.ImportMS, c.status.Commands, c.status.RSS>>20, c.status.Verified)
	case c.status.State == warm.Off:
		note("warm start: OFF, every call starts cold — %s", c.status.Reason)
	default:
		note("warm start: the template was not ready within %v; calls start cold until it is", warmCheckWait)
	}
}
