package main

import (
	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/spf13/cobra"
)

// newRootCmd is the command tree on sys: every command reaches the
// system through opts (options.sys), or is given it.
func newRootCmd(sys *system) *cobra.Command {
	opts := &options{sys: sys}
	root := &cobra.Command{
		Use:   "aeat-mcp",
		Short: "A stdio MCP server that runs a CLI's verbs as supervised tools",
		Long: `aeat-mcp serves the verbs of a command-line program (first of all aeat,
the CLI for the AEAT sede) as MCP tools on stdin/stdout. Every call runs
the CLI without a shell, under a timeout chosen by the verb's annotations,
and stops the whole process tree when the time is up or the call is
cancelled.

With no subcommand it serves, as MCP hosts expect.

Every flag has an environment twin, used when the flag is not given:
--timeout-live is AEAT_MCP_TIMEOUT_LIVE, --manifest is AEAT_MCP_MANIFEST.`,
		Version:       buildVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := applyEnv(cmd.Flags(), sys.lookupEnv); err != nil {
				return &exitError{exitUsage, err}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), opts, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	// One wording for --version and the version command (cobra's own
	// template words it differently); a version never holds "{{".
	root.SetVersionTemplate(versionLine())
	opts.register(root.PersistentFlags(), server.HostOS())
	root.AddCommand(newServeCmd(opts), newCallCmd(opts), newToolsCmd(opts), newValidateCmd(opts), newDoctorCmd(opts), newConfigCmd(opts), newSecretCmd(opts), newGenerateCmd(), newWarmCmd(opts), newVersionCmd())
	return root
}
