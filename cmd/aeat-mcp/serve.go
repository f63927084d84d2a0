package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
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
	logger, closeLog, err := opts.logger(stderr)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	defer closeLog()
	m, err := opts.loadManifest()
	if err != nil {
		return err
	}
	for _, w := range m.Warnings {
		logger.Warn("manifest", "warning", w)
	}
	runner, err := callruntime.NewRunner(callruntime.Options{})
	if err != nil {
		return &exitError{exitFailure, err}
	}
	defer runner.Close()
	srv, err := server.New(opts.serverConfig(m, runner, logger))
	if err != nil {
		return &exitError{exitUsage, err}
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	logger.Info("serving", "manifest", m.Source, "tools", len(srv.Tools()), "tree", runner.Tree())
	if err := server.Serve(ctx, srv, stdin, stdout); err != nil {
		return &exitError{exitFailure, err}
	}
	logger.Info("stopped")
	return nil
}
