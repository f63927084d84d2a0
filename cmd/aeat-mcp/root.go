package main

import (
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// newRootCmd is the command tree on sys for the command line args: every
// command reaches the system through opts (options.sys), or is given it.
// When args can only serve (servesOnly) the tree is the root and serve
// alone: a host waits for initialize, and the other commands, their flags
// and cobra's completion command are built for nothing there.
func newRootCmd(sys *system, args []string) *cobra.Command {
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
	// No version template: cobra's default, "<name> version <Version>",
	// is versionLine's wording (TestVersion), and any template would link
	// text/template's execution, which keeps every exported method in the
	// binary (TestBinary_NoTemplateExecution).
	opts.register(root.PersistentFlags(), server.HostOS())
	if servesOnly(args, root.PersistentFlags()) {
		// Serve wires the stop signals itself, once the host has its
		// answer to initialize (runServe).
		root.CompletionOptions.DisableDefaultCmd = true
		root.AddCommand(newServeCmd(opts))
		return root
	}
	sys.watch()
	root.AddCommand(newServeCmd(opts), newCallCmd(opts), newToolsCmd(opts), newValidateCmd(opts), newDoctorCmd(opts), newConfigCmd(opts), newSecretCmd(opts), newGenerateCmd(), newWarmCmd(opts), newVersionCmd())
	return root
}

// servesOnly reports whether args can only serve — whichever tree cobra
// parses them against: no word but a first "serve", no help or version
// flag, and every flag one of the common flags fs (a flag's value is
// skipped as pflag takes it). Where it is not sure (a shorthand, "--", a
// bool flag's spaced value, an unknown flag, any other word) it says
// false and the whole tree is built, so every message (an unknown
// command's suggestions, --help's list) stays what it was.
func servesOnly(args []string, fs *pflag.FlagSet) bool {
	words := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "serve" && words == 0:
			words++
		case strings.HasPrefix(a, "--") && len(a) > 2:
			name, _, inline := strings.Cut(a[2:], "=")
			f := fs.Lookup(name)
			if f == nil {
				return false // --help, --version, a typo: the whole tree answers
			}
			if !inline && f.NoOptDefVal == "" {
				i++ // "--manifest FILE": pflag takes the next argument, whatever it is
			}
		default:
			return false
		}
	}
	return true
}
