package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
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
