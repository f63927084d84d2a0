package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/spf13/cobra"
)

var lookupEnv = os.LookupEnv

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

// runServe serves until stdin ends, SIGTERM or SIGINT arrive, or the parent
// dies; every call in flight has its tree killed first. It exits 0 then.
func runServe(ctx context.Context, opts *options, stdin io.Reader, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	st, err := opts.open(stderr)
	if err != nil {
		return err
	}
	defer st.close()
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	st.logger.Info("serving", "manifest", st.manifest.Source, "tools", len(st.server.Tools()), "tree", st.runner.Tree())
	if err := server.Serve(ctx, st.server, stdin, stdout); err != nil {
		return &exitError{exitFailure, err}
	}
	st.logger.Info("stopped")
	return nil
}
