package main

import (
	"context"
	"fmt"
	"io"

	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/spf13/cobra"
)

// banner tells a person who started the server by hand what it is and
// what to do instead of facing a silent wait; hosts never see it.
func banner(w io.Writer, st *stack) {
	src := st.manifest.Source
	if src == "" {
		src = "the built-in demo"
	}
	fmt.Fprintf(w, `aeat-mcp %s: an MCP server for %s, serving %d tools from %s.
It speaks JSON-RPC on stdin/stdout and is waiting for an MCP host; typing here does nothing useful.
  connect a host:  aeat-mcp [flags] config claude-desktop|claude-code|cursor|vscode [--write]
  try one call:    aeat-mcp [flags] call TOOL --arg NAME=VALUE   (aeat-mcp tools lists them)
  check set-up:    aeat-mcp [flags] doctor
Ctrl-C or Ctrl-D stops it.
`, buildVersion(), cliNamed(st.manifest.Source, st.manifest.CLI.Command), len(st.server.Tools()), src)
}

func newServeCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Serve MCP on stdin/stdout (the default)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), opts, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
}

// runServe serves until stdin ends, ctx ends (aeat-mcp is told to stop:
// SIGTERM, Ctrl-C), or the parent dies; every call in flight has its tree
// killed first. It exits 0 then.
func runServe(ctx context.Context, opts *options, stdin io.Reader, stdout, stderr io.Writer) error {
	paced := paceGCForConnect(opts.sys.has)
	defer paced()
	opts.firstCall = paced
	terminal := opts.sys.isTerminal(stdin)
	if terminal {
		opts.sys.watch() // a person may press Ctrl-C before any host speaks
	}
	opts.holdLogs = !terminal // a person at a terminal reads them now
	st, err := opts.open(stderr)
	if err != nil {
		return err
	}
	defer st.close()
	if terminal {
		banner(stderr, st)
	}
	st.logger.Info("serving", "manifest", st.manifest.Source, "tools", len(st.server.Tools()))
	if err := server.Serve(ctx, st.server, stdin, stdout); err != nil {
		return &exitError{exitFailure, err}
	}
	st.logger.Info("stopped")
	return nil
}
