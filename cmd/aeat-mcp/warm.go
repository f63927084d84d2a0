package main

import (
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
)

// warmPool starts cli.warm's template for a server (DESIGN.md §11), or
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
		logger.Debug("warm start is off (--warm=false or AEAT_MCP_WARM=false): every call starts cold")
		return nil, func() {}
	case cliPath == "":
		return nil, func() {}
	}
	env := server.BuildEnv(m.CLI, o.passEnv, os.Environ)
	dir := m.WorkDir()
	cleanup := func() {}
	if dir == annotations.ScratchDir {
		// The template gets a private directory of its own, as a call
		// does; each call sends its own (and its TMPDIR).
		tmp, err := os.MkdirTemp("", "aeat-mcp-warm."+strconv.Itoa(os.Getpid())+".")
		if err != nil {
			return warm.Disabled(warm.Config{Warm: *w, Runner: r, Logger: logger}, fmt.Sprintf("creating the template's directory: %v", err)), cleanup
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
	cfg := warm.Config{Warm: *w, Script: cliPath, Args: m.CLI.Args, Env: env, Dir: dir, Runner: r, Logger: logger,
		VerifyTimeout: o.timeoutRead}
	cfg.Python = w.Interpreter
	if cfg.Python == "" {
		python, err := warm.Interpreter(cliPath, envValue(env, "PATH"))
		if err != nil {
			return warm.Disabled(cfg, err.Error()), cleanup
		}
		cfg.Python = python
	}
	return warm.Start(cfg), cleanup
}

func envValue(env []string, name string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}
