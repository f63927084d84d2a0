package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

type configOptions struct {
	write       bool
	name        string
	file        string
	withSecrets bool
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
now: the stable path of this binary (a Homebrew-style link, not the
versioned folder an upgrade removes), the flags given (the manifest's path
made absolute), and the variables from this shell that the CLI would get
(the platform basics, cli.env.pass, cli.env.require, --pass-env) and a host
does not pass by itself. A secret is never written unless --with-secrets:
for one the manifest reads from the OS keychain it prints the
"aeat-mcp secret set NAME" step instead. It says where the host keeps its
configuration on macOS, Windows and Linux.

--write merges the entry into that file (or --file): every other server and
key is kept byte for byte (in VS Code's and Cursor's files, comments too),
the old file is backed up beside it under a name of its own, the new one
replaces it atomically (through a symlink, to where it leads), writers take
turns, and writing the same entry twice changes nothing. It refuses,
untouched, a file that is not JSON it can merge into (comments in a host
that reads strict JSON, a key given twice) and a read-only file. For Claude
Code it writes the user scope (~/.claude.json), which loads in every
project without a question; --file DIR/.mcp.json writes a project's shared
file, which each person must approve in claude first (config says how).`,
		Example: `  aeat-mcp --manifest ~/aeat/aeat.manifest.json --lang es config claude-desktop
  aeat-mcp --manifest ~/aeat/aeat.manifest.json --global profile=work config claude-code --write
  aeat-mcp --demo config vscode --file .vscode/mcp.json --write`,
		Args:      oneOf("config needs a host", "host", names),
		ValidArgs: names,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runConfig(cmd, opts, co, hostNamed(args[0]))
		},
	}
	cmd.Flags().BoolVar(&co.write, "write", false, "merge the entry into the host's configuration file")
	cmd.Flags().StringVar(&co.name, "name", "aeat", "the server's name in the host")
	cmd.Flags().StringVar(&co.file, "file", "", "the configuration file to write (default: the host's, on this machine)")
	cmd.Flags().BoolVar(&co.withSecrets, "with-secrets", false, "also copy the secrets among the variables (they are then stored in the host's file, in plain text)")
	return cmd
}

// oneOf is the Args of a command that takes one word of valid: cobra's own
// ("accepts 1 arg(s), received 0", "invalid argument") do not list them.
func oneOf(needs, what string, valid []string) cobra.PositionalArgs {
	list := strings.Join(valid[:len(valid)-1], ", ") + " or " + valid[len(valid)-1]
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return fmt.Errorf("%s: %s (e.g. %s %s)", needs, list, cmd.CommandPath(), valid[0])
		case len(args) > 1:
			return fmt.Errorf("%s takes one %s, not %d: %s", cmd.CommandPath(), what, len(args), list)
		case !slices.Contains(valid, args[0]):
			return fmt.Errorf("%q is not a %s %s knows: %s", args[0], what, cmd.CommandPath(), list)
		}
		return nil
	}
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
	if goRunBinary(exe, goCache(opts.sys.lookupEnv)) {
		if err := fromGoRun(cmd.ErrOrStderr(), exe, co.write); err != nil {
			return err
		}
	}
	entry := serverEntry{Command: stableExecutable(exe, os.Args[0], exec.LookPath), Args: flagsInUse(cmd)}
	for _, g := range slices.Sorted(slices.Values(opts.envGlobals)) {
		entry.Args = append(entry.Args, "--global", g)
	}
	entry.Args = pinCLI(entry.Args, opts, in)
	if h.stdioType {
		entry.Type = "stdio"
	}
	env := entryEnv(runtime.GOOS, in.manifest, opts.passEnv, opts.snapshot, co.withSecrets)
	env.keychain = keychainStates(cmd.Context(), runtime.GOOS, opts.sys.environ, in.manifest, opts.keychain())
	if err := stopped(cmd.Context()); err != nil {
		return err // nothing is written from keychain reads cut short
	}
	entry.Env = env.copied
	if opts.lang == "" {
		// Hosts pass servers only a few variables (no LANG): keep this
		// shell's language.
		if _, v := i18n.Source(opts.sys.lookupEnv); v != "" {
			entry.Env["AEAT_MCP_LANG"] = opts.printer().Tag().String()
		}
	}
	if len(entry.Env) == 0 {
		entry.Env = nil
	}
	loc := location{path: co.file}
	if loc.path == "" {
		if loc, err = h.path(opts.sys.machine(runtime.GOOS)); err != nil {
			return &exitError{exitFailure, err}
		}
	}
	w := cmd.OutOrStdout()
	if co.write {
		if err := writeEntry(w, h, co, entry, loc); err != nil {
			return err
		}
	} else {
		printSnippet(w, h, co.name, entry, loc)
	}
	env.explain(w, co.write)
	return cliUnreachable(cmd.ErrOrStderr(), in, co.write)
}

// pinCLI gives the entry --cli with the CLI's absolute path when the CLI
// resolved only through this shell's PATH (a bare name, not found next to
// aeat-mcp): a host does not start servers with that PATH — GUI hosts on
// macOS give them PATH=/usr/bin:/bin (DESIGN.md §3) — so without it the
// host shows the server Connected and every call fails. A --cli given as
// a bare name is replaced by the path it resolved to, for the same reason.
func pinCLI(args []string, opts *options, in *inspected) []string {
	if in.cfg.CLIError != nil || (opts.demo && opts.cli == "") {
		return args // nothing resolved to pin; the demo's CLI is this binary
	}
	name := opts.cli
	if name == "" {
		name = in.manifest.CLI.Command
	}
	if strings.ContainsAny(name, `/\`) || filepath.Dir(in.cfg.CLIPath) == selfDir() {
		return args // a path (made absolute by flagsInUse), or found where the host finds it too
	}
	if i := slices.Index(args, "--cli"); i >= 0 && i+1 < len(args) {
		args[i+1] = in.cfg.CLIPath
		return args
	}
	return append(args, "--cli", in.cfg.CLIPath)
}

// cliUnreachable says, on stderr, what doctor says when the CLI does not
// resolve, and exits 1 as doctor and validate do in that state: the entry
// is printed (or written) all the same — it is right once the CLI is
// installed — but a host started from it shows the server Connected and
// every call fails, so neither a person nor a script may read success.
func cliUnreachable(w io.Writer, in *inspected, written bool) error {
	if in.cfg.CLIError == nil {
		return nil
	}
	p := in.Problems()[0] // the CLI's problem comes first (Inspection.Problems)
	if written {
		fmt.Fprintln(w, "PROBLEM: the entry is written, but the host will not reach the CLI: every call will fail until it resolves (then run this command again).")
	} else {
		fmt.Fprintln(w, "PROBLEM: a host started from this entry will not reach the CLI: every call will fail until it resolves (then run this command again).")
	}
	fmt.Fprintf(w, "  %s\n  fix: %s\n", p.What, p.Fix)
	return &exitError{exitFailure, nil}
}

// writeEntry merges the entry into the host's file and says what it did:
// nothing to change, written over a backup, or a new file; then where that
// file comes from and what the host needs next.
func writeEntry(w io.Writer, h *host, co *configOptions, entry serverEntry, loc location) error {
	res, err := merge{path: loc.path, key: h.key, name: co.name, entry: entry, jsonc: h.jsonc, now: time.Now(), makeDirs: co.file == ""}.run()
	if err != nil {
		return &exitError{exitFailure, err}
	}
	file := loc.path
	if res.target != loc.path {
		file = fmt.Sprintf("%s (a link to %s, written there)", loc.path, res.target)
	}
	switch {
	case !res.changed:
		fmt.Fprintf(w, "%s already has this entry for %q: nothing changed.\n", file, co.name)
	case res.backup != "":
		fmt.Fprintf(w, "wrote %q into %s (the old file is %s).\n", co.name, file, res.backup)
	default:
		fmt.Fprintf(w, "created %s with %q.\n", file, co.name)
	}
	if loc.why != "" {
		fmt.Fprintf(w, "That file: %s.\n", loc.why)
	}
	fmt.Fprintln(w, h.note(loc.path, co.name))
	return nil
}

// goCache is Go's build cache as the go command finds it: GOCACHE, else
// go-build in the user's cache folder ("" when neither is known).
func goCache(lookup func(string) (string, bool)) string {
	if v, ok := lookup("GOCACHE"); ok && v != "" && v != "off" {
		return v
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "go-build")
	}
	return ""
}

// goRunBinary reports whether exe is a binary `go run` built: one in Go's
// build cache (Go 1.24 on), or in the exe folder of a go-build work folder
// in the temporary directory (before). The go command removes both (`go
// clean -cache`, its cache trimming, the end of the run), so a host given
// that path one day finds nothing there.
func goRunBinary(exe, gocache string) bool {
	if gocache != "" {
		if rel, err := filepath.Rel(gocache, exe); err == nil && filepath.IsLocal(rel) {
			return true
		}
	}
	dir := filepath.Dir(exe)
	return filepath.Base(dir) == "exe" && strings.HasPrefix(filepath.Base(filepath.Dir(filepath.Dir(dir))), "go-build")
}

// fromGoRun says that this binary's path will not last; with --write it
// refuses, before anything is written.
func fromGoRun(w io.Writer, exe string, write bool) error {
	why := fmt.Sprintf("this aeat-mcp runs from where `go run` built it (%s), which the go command removes: a host given that path would one day find nothing there. Build it to a place of its own first — go build -o ~/aeat-mcp/aeat-mcp ./cmd/aeat-mcp — then run that binary's config", exe)
	if write {
		return &exitError{exitFailure, errors.New(why)}
	}
	fmt.Fprintln(w, "warning: "+why+".")
	return nil
}

// stableExecutable is the path a host should start: the binary's, except
// when this binary was started through a symlink that leads into a
// versioned folder (Homebrew's Cellar or Caskroom, any folder named like a
// version): an upgrade removes that folder and keeps the link, so the link
// is the path that lasts. invoked is how the binary was started (argv[0],
// looked up on PATH when it is a bare name); exe is what the OS says it is
// (resolved on Linux, maybe not on macOS).
func stableExecutable(exe, invoked string, lookPath func(string) (string, error)) string {
	resolved, err := filepath.EvalSymlinks(exe)
	if err != nil {
		resolved = exe
	}
	link := exe
	if invoked != "" {
		if !strings.ContainsAny(invoked, `/\`) {
			if p, err := lookPath(invoked); err == nil {
				invoked = p
			}
		}
		if abs, err := filepath.Abs(invoked); err == nil {
			if real, err := filepath.EvalSymlinks(abs); err == nil && real == resolved {
				link = abs
			}
		}
	}
	if link != resolved && versioned(resolved) && !versioned(link) {
		return link
	}
	return resolved
}

// versionedRE matches a folder named like a version ("1.2.3", "v0.4.0_1").
var versionedRE = lazyre.New(`^v?\d+(\.\d+)+([._+-][0-9A-Za-z.]+)*$`)

// versioned says whether a path lies in a folder an upgrade replaces.
func versioned(p string) bool {
	for _, el := range strings.FieldsFunc(filepath.ToSlash(p), func(r rune) bool { return r == '/' }) {
		if el == "Cellar" || el == "Caskroom" || versionedRE.Get().MatchString(el) {
			return true
		}
	}
	return false
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

func printSnippet(w io.Writer, h *host, name string, entry serverEntry, loc location) {
	snippet := map[string]map[string]serverEntry{h.key: {name: entry}}
	b, _ := json.MarshalIndent(snippet, "", "  ")
	fmt.Fprintf(w, "%s: add this to its configuration file (aeat-mcp … config %s --write merges it for you):\n\n%s\n\n", h.title, h.name, b)
	if h.commands != nil {
		h.commands(w, name, entry)
	}
	fmt.Fprintln(w, "where it keeps the file:")
	for _, goos := range []string{"darwin", "windows", "linux"} {
		fmt.Fprintf(w, "  %-8s %s\n", map[string]string{"darwin": "macOS", "windows": "Windows", "linux": "Linux"}[goos]+":", h.where.on(goos))
	}
	fmt.Fprintf(w, "  this machine: %s\n", loc.path)
	if loc.why != "" {
		fmt.Fprintf(w, "  (%s)\n", loc.why)
	}
	fmt.Fprintf(w, "\n%s\n", h.note(loc.path, name))
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
