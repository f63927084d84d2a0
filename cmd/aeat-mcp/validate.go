package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/spf13/cobra"
)

func newValidateCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "validate [--manifest FILE]",
		Short: "Check a manifest, and whether this machine can serve it",
		Long: `validate loads the manifest and lists every problem at once, each naming
the file, the tool and the field (exit 2). A manifest that loads is then
checked against this machine: whether its CLI resolves, and whether the
variables it requires (cli.env.require, a tool's stdin) are set — each
problem with its fix (exit 1). Warnings (long tool names, --tools patterns
that select nothing) do not fail it. Clean: one line, exit 0.`,
		Example: `  aeat-mcp validate --manifest examples/aeat.manifest.json
  AEAT_MCP_MANIFEST=~/aeat/aeat.manifest.json aeat-mcp validate`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, err := opts.inspect()
			if err != nil {
				return err
			}
			return validateReport(in, opts, cmd.OutOrStdout())
		},
	}
}

// validateReport prints what validate found; its error carries the exit
// code.
func validateReport(in *inspected, opts *options, w io.Writer) error {
	name := in.manifest.Source
	if name == "" {
		name = "the built-in demo manifest"
	}
	var warnings, problems []string
	warnings = append(warnings, in.manifest.Warnings...)
	if unmatched := opts.selection.Unmatched(in.manifest.Tools); len(unmatched) > 0 {
		warnings = append(warnings, fmt.Sprintf("--tools patterns that select no tool: %s", strings.Join(unmatched, ", ")))
	}
	if in.cfg.CLIError != nil {
		problems = append(problems, fmt.Sprintf("the CLI does not resolve: %v\n  fix: install it, put it next to aeat-mcp or on PATH, or pass --cli /path/to/%s", in.cfg.CLIError, filepath.Base(in.manifest.CLI.Command)))
	}
	for _, v := range in.MissingEnv {
		var tools []string
		for _, t := range in.manifest.Tools {
			for _, m := range in.MissingEnvOf[t.Name] {
				if m == v {
					tools = append(tools, t.Name)
				}
			}
		}
		problems = append(problems, fmt.Sprintf("%s is not set: %s refuse until it is\n  fix: set it in the \"env\" block of this server in the host's MCP config (aeat-mcp config HOST prints it), or in the environment aeat-mcp starts in",
			v, countTools(tools, len(in.manifest.Tools))))
	}
	for _, wn := range warnings {
		fmt.Fprintln(w, "warning:", wn)
	}
	for _, p := range problems {
		fmt.Fprintln(w, "problem:", p)
	}
	n := tierCounts(in.Tools)
	summary := fmt.Sprintf("%s: %d tools (%d read, %d mutate, %d live)", name, len(in.Tools),
		n[annotations.Read], n[annotations.Mutate], n[annotations.Live])
	if len(in.Hidden) > 0 {
		summary += fmt.Sprintf(", %d hidden by --read-only/--tools", len(in.Hidden))
	}
	if len(problems) > 0 {
		fmt.Fprintf(w, "%s; the manifest is valid, but this machine cannot serve it yet (%d problems above)\n", summary, len(problems))
		return &exitError{exitFailure, nil}
	}
	fmt.Fprintf(w, "ok: %s; the CLI resolves to %s\n", summary, in.cfg.CLIPath)
	return nil
}

func countTools(names []string, of int) string {
	if len(names) == of {
		return fmt.Sprintf("all %d tools", of)
	}
	return strings.Join(names, ", ")
}
