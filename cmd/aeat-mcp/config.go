package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

type configOptions struct {
	write bool
	name  string
	file  string
}

func newConfigCmd(opts *options) *cobra.Command {
	co := &configOptions{}
	var names []string
	for _, h := range hosts {
		names = append(names, h.name)
	}
	cmd := &cobra.Command{
		Use:   "config HOST [--write]",
		Short: "Print (or merge) a host's configuration for this server: " + strings.Join(names, ", "),
		Long: `config prints the entry that makes a host start this server as it is run
now: the absolute path of this binary, the flags given (the manifest's
path made absolute), and the variables the manifest requires, from this
shell. It says where the host keeps its configuration on macOS, Windows and
Linux.

--write merges the entry into that file (or --file): every other server and
key is kept, the old file is backed up beside it, the new one replaces it
atomically, a file that is not JSON is refused untouched, and writing the
same entry twice changes nothing. For Claude Code it writes the user scope
(~/.claude.json), which loads without an approval step.`,
		Example: `  aeat-mcp --manifest ~/aeat/aeat.manifest.json --lang es config claude-desktop
  aeat-mcp --manifest ~/aeat/aeat.manifest.json config claude-code --write
  aeat-mcp --demo config vscode --file .vscode/mcp.json --write`,
		Args:      cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs),
		ValidArgs: names,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runConfig(cmd, opts, co, hostNamed(args[0]))
		},
	}
	cmd.Flags().BoolVar(&co.write, "write", false, "merge the entry into the host's configuration file")
	cmd.Flags().StringVar(&co.name, "name", "aeat", "the server's name in the host")
	cmd.Flags().StringVar(&co.file, "file", "", "the configuration file to write (default: the host's, on this machine)")
	return cmd
}

func runConfig(cmd *cobra.Command, opts *options, co *configOptions, h *host) error {
	in, err := opts.inspect()
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return &exitError{exitFailure, err}
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	entry := serverEntry{Command: exe, Args: flagsInUse(cmd), Env: map[string]string{}}
	if h.stdioType {
		entry.Type = "stdio"
	}
	var unset []string
	for _, name := range in.manifest.CLI.Require {
		if v, ok := lookupEnv(name); ok && v != "" {
			entry.Env[name] = v
		} else {
			unset = append(unset, name)
		}
	}
	if opts.lang == "" {
		// Hosts pass servers only a few variables (no LANG): keep this
		// shell's language.
		if _, v := i18n.Source(lookupEnv); v != "" {
			entry.Env["AEAT_MCP_LANG"] = opts.printer().Tag().String()
		}
	}
	if len(entry.Env) == 0 {
		entry.Env = nil
	}
	home, _ := os.UserHomeDir()
	path := co.file
	if path == "" {
		path = h.path(runtime.GOOS, os.Getenv, home)
	}
	w := cmd.OutOrStdout()
	if co.write {
		changed, backup, err := mergeServer(path, h.key, co.name, entry, time.Now())
		if err != nil {
			return &exitError{exitFailure, err}
		}
		switch {
		case !changed:
			fmt.Fprintf(w, "%s already has this entry for %q: nothing changed.\n", path, co.name)
		case backup != "":
			fmt.Fprintf(w, "wrote %q into %s (the old file is %s).\n", co.name, path, backup)
		default:
			fmt.Fprintf(w, "created %s with %q.\n", path, co.name)
		}
		fmt.Fprintln(w, h.note)
	} else {
		printSnippet(w, h, co.name, entry, path)
	}
	secretsNote(w, in, unset)
	return nil
}

// flagsInUse are the global flags given (on the command line or through
// their AEAT_MCP_* twins), as the host must pass them: paths absolute,
// what is served (--manifest, --demo) first, the rest by name.
func flagsInUse(cmd *cobra.Command) []string {
	first, args := []string{}, []string{}
	root := cmd.Root().PersistentFlags()
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if root.Lookup(f.Name) == nil {
			return // config's own flags
		}
		args := &args
		if f.Name == "manifest" || f.Name == "demo" {
			args = &first
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for _, v := range values {
			switch f.Name {
			case "manifest", "log-file":
				v = absPath(v)
			case "cli":
				if strings.ContainsAny(v, `/\`) {
					v = absPath(v)
				}
			}
			if f.Value.Type() == "bool" {
				if v == "true" {
					*args = append(*args, "--"+f.Name)
				} else {
					*args = append(*args, "--"+f.Name+"=false")
				}
				continue
			}
			*args = append(*args, "--"+f.Name, v)
		}
	})
	return append(first, args...)
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

func printSnippet(w io.Writer, h *host, name string, entry serverEntry, path string) {
	snippet := map[string]map[string]serverEntry{h.key: {name: entry}}
	b, _ := json.MarshalIndent(snippet, "", "  ")
	fmt.Fprintf(w, "%s: add this to its configuration file (aeat-mcp … config %s --write merges it for you):\n\n%s\n\n", h.title, h.name, b)
	if h.name == "claude-code" {
		cmdline := append([]string{"claude", "mcp", "add", "--scope", "user", name}, envFlags(entry.Env)...)
		cmdline = append(append(cmdline, "--", entry.Command), entry.Args...)
		fmt.Fprintf(w, "or run:\n\n  %s\n\n", shellQuote(cmdline))
	}
	fmt.Fprintln(w, "where it keeps the file:")
	for _, goos := range []string{"darwin", "windows", "linux"} {
		fmt.Fprintf(w, "  %-8s %s\n", map[string]string{"darwin": "macOS", "windows": "Windows", "linux": "Linux"}[goos]+":", h.where[goos])
	}
	fmt.Fprintf(w, "  this machine: %s\n\n%s\n", path, h.note)
}

func envFlags(env map[string]string) []string {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		out = append(out, "-e", k+"="+env[k])
	}
	return out
}

// secretsNote names what the entry could not carry: required variables
// unset in this shell, and the secrets tools read on stdin.
func secretsNote(w io.Writer, in *inspected, unset []string) {
	if len(unset) > 0 {
		fmt.Fprintf(w, "\nnot set in this shell, so not in the entry: %s — add them to its \"env\" block, or every call refuses.\n", strings.Join(unset, ", "))
	}
	var secrets []string
	for _, t := range in.manifest.Tools {
		if t.Stdin != nil && t.Stdin.Env != "" {
			secrets = append(secrets, t.Stdin.Env+" ("+t.Name+")")
		}
	}
	if len(secrets) > 0 {
		fmt.Fprintf(w, "secrets read on stdin, never written by aeat-mcp: %s — add them to the \"env\" block yourself if you want those tools.\n", strings.Join(secrets, ", "))
	}
}
