package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/spf13/cobra"
)

func newValidateCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "validate [--manifest FILE]",
		Short: "Check a manifest, and whether this machine can serve it",
		Long: `validate loads the manifest and lists every problem at once, each naming
the file, the tool and the field (exit 2). A manifest that loads is then
checked against this machine: whether its CLI resolves, and whether what
every call needs is there — cli.env.require, a cli.env.keychain secret that
is not optional (in the server's environment or the OS keychain) — each
problem with its fix (exit 1). Warnings do not fail it: long tool names,
--tools patterns that select nothing, broad cli.env.pass or --pass-env
entries, and a variable or secret only some tools read (those tools refuse
until it is set). Clean: one line, exit 0.`,
		Example: `  aeat-mcp validate --manifest examples/aeat.manifest.json
  AEAT_MCP_MANIFEST=~/aeat/aeat.manifest.json aeat-mcp validate`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, err := opts.inspect()
			if err != nil {
				return err
			}
			return validateReport(cmd.Context(), in, opts, cmd.OutOrStdout())
		},
	}
}

// validateReport prints what validate found; its error carries the exit
// code.
func validateReport(ctx context.Context, in *inspected, opts *options, w io.Writer) error {
	name := in.manifest.Source
	if name == "" {
		name = "the built-in demo manifest"
	}
	var warnings, problems []string
	warnings = append(warnings, in.manifest.Warnings...)
	if opts.bundleLangNote != "" {
		warnings = append(warnings, opts.bundleLangNote)
	}
	if unmatched := opts.selection.Unmatched(in.manifest.Tools); len(unmatched) > 0 {
		warnings = append(warnings, fmt.Sprintf("--tools patterns that select no tool: %s", strings.Join(unmatched, ", ")))
	}
	in.Secrets = server.Secrets(ctx, server.HostOS(), opts.sys.environ, in.manifest, opts.keychain())
	if err := stopped(ctx); err != nil {
		return err // a keychain that held the reads was cut short: its states say nothing
	}
	if err := server.KeychainTrouble(in.Secrets); err != nil {
		warnings = append(warnings, err.Error())
	}
	for _, p := range in.Problems() {
		if p.EveryCall() {
			problems = append(problems, p.What+"\n  fix: "+p.Fix)
		} else {
			warnings = append(warnings, p.What+" ("+p.Fix+")")
		}
	}
	warnings = append(warnings, server.PassWarnings(server.HostOS(), in.manifest.CLI.Pass, opts.passEnv)...)
	if in.cfg.Surface == server.SurfaceCatalog && len(server.Listed(in.cfg)) == 0 {
		warnings = append(warnings, fmt.Sprintf("--surface catalog: the manifest has no surface.core (and --tools is not given): tools/list holds only aeat-mcp's built-ins, and the model finds every tool with %s", server.ToolFind))
	}
	for _, wn := range warnings {
		fmt.Fprintln(w, "warning:", wn)
	}
	for _, p := range problems {
		fmt.Fprintln(w, "problem:", p)
	}
	summary := name + ": " + toolCount(in.Tools)
	if len(in.Hidden) > 0 {
		summary += fmt.Sprintf(", %d hidden by --read-only/--tools", len(in.Hidden))
	}
	if s := surfaceSummary(in); s != "" {
		summary += ", " + s
	}
	if len(problems) > 0 {
		fmt.Fprintf(w, "%s; the manifest is valid, but this machine cannot serve it yet (%s above)\n", summary, plural(len(problems), "problem"))
		return &exitError{exitFailure, nil}
	}
	fmt.Fprintf(w, "ok: %s; the CLI resolves to %s\n", summary, in.cfg.CLIPath)
	return nil
}

// plural is "1 problem", "2 problems".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
