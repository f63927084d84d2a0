package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// serveAlone serves a command line that can only serve (servesOnly)
// without cobra: the common flags parsed, their environment twins applied
// (as the root's PersistentPreRunE does), and runServe. A host waits for
// initialize, and cobra's command tree, its help and completion commands
// (the hidden __complete one is built at every Execute, its texts made by
// fmt.Sprintf) and its flag merging were built for nothing there. served
// is false for any other command line: cobra's whole tree parses it, and
// every message (a bad flag, --help, an unknown command) is cobra's.
func serveAlone(ctx context.Context, sys *system, args []string) (served bool, err error) {
	opts := &options{sys: sys}
	fs := pflag.NewFlagSet("aeat-mcp", pflag.ContinueOnError)
	opts.register(fs, server.HostOS())
	if !servesOnly(args, fs) {
		return false, nil
	}
	// pflag's own report of a bad value would print the usage; the error
	// alone goes out, as cobra's (run prints it).
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return true, flagError("aeat-mcp", err)
	}
	if err := applyEnv(fs, sys.lookupEnv); err != nil {
		return true, &exitError{exitUsage, err}
	}
	return true, runServe(ctx, opts, sys.stdin, sys.stdout, sys.stderr)
}

// newRootCmd is the command tree on sys: every command reaches the system
// through opts (options.sys), or is given it. A command line that can
// only serve never gets here (serveAlone).
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
		Args: func(cmd *cobra.Command, args []string) error {
			if err := cobra.NoArgs(cmd, args); err != nil {
				return fmt.Errorf("%w (the commands: %s --help)", err, cmd.CommandPath())
			}
			return nil
		},
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
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return flagError(c.CommandPath(), err) })
	opts.register(root.PersistentFlags(), server.HostOS())
	sys.watch() // serve wires the stop signals itself, once the host has its answer (runServe)
	root.AddCommand(newServeCmd(opts), newCallCmd(opts), newToolsCmd(opts), newValidateCmd(opts), newDoctorCmd(opts), newConfigCmd(opts), newSecretCmd(opts), newGenerateCmd(), newWarmCmd(opts), newVersionCmd())
	return root
}

// flagError is a flag that did not parse, said with where the right flags
// are: cobra's "unknown flag: --bogus" and pflag's "invalid argument" say
// what is wrong, not that. Every command of the tree, and serveAlone, say
// it so.
func flagError(commandPath string, err error) error {
	return fmt.Errorf("%w (the flags: %s --help)", err, commandPath)
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
