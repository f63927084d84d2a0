package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/keychain"
	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

var secretNameRE = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// maxSecret bounds a secret read from a pipe.
const maxSecret = 64 << 10

func newSecretCmd(opts *options) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "secret",
		Short: "Keep a secret the CLI needs in the OS keychain, not in a host's config file",
		Long: `secret stores a value in the operating system's keychain — the macOS
Keychain, the Windows Credential Manager, the Secret Service of a Linux
desktop (GNOME Keyring, KWallet) — under the service "aeat-mcp" and the
variable's name. A manifest names the secrets it reads there:
cli.env.keychain (loaded into the CLI's environment at each call) and a
tool's stdin {"keychain": NAME}. The server reads them at call time: a
secret stored now is used at the next call, without a restart. A variable
of the same name in aeat-mcp's own environment (a host's "env" block) wins.

The value is read from the terminal without echo (Enter or Ctrl-D ends
it, Ctrl-C cancels), or from stdin when it is a pipe (one trailing newline
dropped). It is never an argument: it would be in your shell's history and
the process table. A value holding a NUL byte is refused: no environment
variable can carry one.`,
		Example: `  aeat-mcp secret set CADRUMO_SECRET_PASSPHRASE
  aeat-mcp secret set AEAT_CERT_PASSPHRASE < passphrase.txt
  aeat-mcp secret delete CADRUMO_SECRET_PASSPHRASE`,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "set NAME",
		Short: "Store NAME's value in the OS keychain (read without echo)",
		Args:  secretNameArg("set"),
		RunE: func(c *cobra.Command, args []string) error {
			return runSecretSet(c.Context(), opts, args[0], c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr())
		},
	}, &cobra.Command{
		Use:   "delete NAME",
		Short: "Remove NAME from the OS keychain",
		Args:  secretNameArg("delete"),
		RunE: func(c *cobra.Command, args []string) error {
			return runSecretDelete(c.Context(), opts, args[0], c.OutOrStdout())
		},
	})
	return cmd
}

// secretNameArg is the Args of secret set and delete: one variable's name,
// said with an example where cobra would say "accepts 1 arg(s)".
func secretNameArg(verb string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != 1 {
			return fmt.Errorf("secret %s needs one variable's name (a cli.env.keychain entry of the manifest), e.g. aeat-mcp secret %s CADRUMO_SECRET_PASSPHRASE", verb, verb)
		}
		return nil
	}
}

func checkSecretName(name string) error {
	if !secretNameRE.Get().MatchString(name) {
		return &exitError{exitUsage, fmt.Errorf("%q is not a variable name (letters, digits and _; the name the manifest gives)", name)}
	}
	return nil
}

func runSecretSet(ctx context.Context, opts *options, name string, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := checkSecretName(name); err != nil {
		return err
	}
	if m, err := opts.loadManifest(nil); err == nil && !slices.Contains(m.SecretNames(), name) {
		fmt.Fprintf(stderr, "note: the manifest (%s) does not read %s from the keychain; storing it anyway\n", manifestName(m.Source), name)
	}
	value, err := readSecret(ctx, name, stdin, stderr)
	if err != nil {
		return &exitError{exitFailure, err}
	}
	var stop *exitError
	switch err := untilStopped(ctx, func() error { return opts.keychain().Set(name, value) }); {
	case errors.As(err, &stop):
		return err
	case err != nil:
		return &exitError{exitFailure, storeFailed(name, err)}
	}
	fmt.Fprintf(stdout, "stored %s in the OS keychain (service %q); aeat-mcp uses it from the next call, no restart needed\n", name, keychain.Service)
	return nil
}

// storeFailed says what to do instead of the keychain — once: a missing
// session bus (keychain.NoBusError) already says "the host's env block".
func storeFailed(name string, err error) error {
	if nobus := (*keychain.NoBusError)(nil); errors.As(err, &nobus) {
		return fmt.Errorf("storing %s: %w", name, err)
	}
	return fmt.Errorf("storing %s: %w\nwithout a keychain, set %s in the \"env\" block of this server in the host's MCP config instead", name, err, name)
}

// readSecret reads a value without echo from a terminal, or from a pipe.
func readSecret(ctx context.Context, name string, stdin io.Reader, stderr io.Writer) (string, error) {
	var value string
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(stderr, "%s (not shown; Enter or Ctrl-D ends it, Ctrl-C cancels): ", name)
		b, err := readHidden(ctx, f)
		fmt.Fprintln(stderr)
		if err != nil {
			return "", fmt.Errorf("reading %s: %w", name, err)
		}
		value = string(b)
	} else {
		b, err := io.ReadAll(io.LimitReader(bufio.NewReader(stdin), maxSecret+1))
		if err != nil {
			return "", fmt.Errorf("reading %s from stdin: %w", name, err)
		}
		if len(b) > maxSecret {
			return "", fmt.Errorf("%s: more than %d bytes on stdin", name, maxSecret)
		}
		value = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	}
	if value == "" {
		return "", fmt.Errorf("%s: empty value, nothing stored", name)
	}
	if err := keychain.Check(value); err != nil {
		return "", fmt.Errorf("%s: %w; nothing stored", name, err)
	}
	return value, nil
}

func runSecretDelete(ctx context.Context, opts *options, name string, stdout io.Writer) error {
	if err := checkSecretName(name); err != nil {
		return err
	}
	var stop *exitError
	switch err := untilStopped(ctx, func() error { return opts.keychain().Delete(name) }); {
	case errors.As(err, &stop):
		return err
	case errors.Is(err, keychain.ErrNotFound):
		fmt.Fprintf(stdout, "%s was not in the OS keychain\n", name)
	case err != nil:
		return &exitError{exitFailure, fmt.Errorf("removing %s: %w", name, err)}
	default:
		fmt.Fprintf(stdout, "removed %s from the OS keychain\n", name)
	}
	return nil
}

// untilStopped runs op — a keychain's store or delete, which may wait
// minutes for a person to unlock it — until it returns or ctx ends
// (stopped's exit): a stop is not held up by it, and op ends with the
// process.
func untilStopped(ctx context.Context, op func() error) error {
	done := make(chan error, 1)
	go func() { done <- op() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return stopped(ctx)
	}
}

func manifestName(source string) string {
	if source == "" {
		return "the built-in demo"
	}
	return source
}
