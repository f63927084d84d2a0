package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/keychain"
	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
)

// hostEnv is the entry's env block: what it copies from this shell, and
// what it could not or would not.
type hostEnv struct {
	copied map[string]string
	// unset are the required variables this shell does not have.
	unset []string
	// keychain are the secrets the manifest reads from the OS keychain
	// (cli.env.keychain, a tool's stdin keychain), and where each stands:
	// never written unless --with-secrets; `aeat-mcp secret set` stores
	// them. The caller fills it in (it reads the keychain).
	keychain []server.SecretState
	// envOnly are the secrets tools read on stdin from aeat-mcp's own
	// environment ("NAME (tool)"): the manifest names no keychain entry
	// for them, so only a host's env block can give them.
	envOnly []string
	// byName are the variables set here that the entry leaves out because
	// their names say they are secrets.
	byName []string
	// plain are the secrets --with-secrets copied into the entry.
	plain       []string
	withSecrets bool
}

// hostInheritedWindows and hostInheritedUnix are the variables a host gives a server by itself: the
// MCP TypeScript SDK's DEFAULT_INHERITED_ENV_VARS (SDK 1.32.2), which
// Claude Desktop, Claude Code, Cursor and VS Code build on. The host's own
// values (a GUI app's PATH) are the ones the server gets.
// Two slices, not a map by OS family: slices of constants are laid out by
// the compiler, where a map literal is built in package init at every
// start.
var (
	hostInheritedWindows = []string{"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES"}
	hostInheritedUnix    = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}
)

// entryEnv copies from this shell every set variable the CLI would get
// from the server — the platform basics, cli.env.require, cli.env.pass
// (names and prefixes), --pass-env, found by the server's own rule
// (server.BuildEnv) — that a host does not pass by itself: a moved
// storage root, the XDG folders and the D-Bus address a Linux keychain
// needs, the locale. A secret is copied only when asked (withSecrets): a
// name the manifest reads from the keychain, a tool's stdin variable, or
// a name that says it is one. goos is the machine's OS (names are
// compared without case on Windows).
func entryEnv(goos string, m *annotations.Manifest, passEnv []string, environ func() []string, withSecrets bool) hostEnv {
	he := hostEnv{copied: map[string]string{}, withSecrets: withSecrets}
	key := func(n string) string {
		if goos == "windows" {
			return strings.ToUpper(n)
		}
		return n
	}
	inherited := map[string]bool{}
	family := hostInheritedUnix
	if goos == "windows" {
		family = hostInheritedWindows
	}
	for _, n := range family {
		inherited[key(n)] = true
	}
	// Secrets by what the manifest says of them: what it reads from the
	// keychain (a variable of the server's own may stand in for each), and
	// a tool's stdin variable, which only the server's environment gives.
	declared := map[string]bool{}
	for _, n := range m.SecretNames() {
		declared[n] = true
	}
	for _, t := range m.Tools {
		if t.Stdin != nil && t.Stdin.Env != "" && !declared[t.Stdin.Env] {
			declared[t.Stdin.Env] = true
			he.envOnly = append(he.envOnly, t.Stdin.Env+" ("+t.Name+")")
		}
	}
	have := map[string]bool{}
	for _, kv := range server.BuildEnv(goos, annotations.CLI{Pass: m.CLI.Pass, Require: m.CLI.Require, Keychain: m.CLI.Keychain}, passEnv, environ) {
		k, v, _ := strings.Cut(kv, "=")
		if inherited[key(k)] || v == "" {
			continue
		}
		have[k] = true
		if declared[k] || secretName(k) {
			if !withSecrets {
				if !declared[k] {
					he.byName = append(he.byName, k)
				}
				continue
			}
			he.plain = append(he.plain, k)
		}
		he.copied[k] = v
	}
	if withSecrets {
		for _, kv := range environ() {
			k, v, _ := strings.Cut(kv, "=")
			if declared[k] && v != "" && he.copied[k] == "" {
				he.copied[k] = v
				he.plain = append(he.plain, k)
			}
		}
	}
	for _, n := range m.CLI.Require {
		if !have[n] {
			he.unset = append(he.unset, n)
		}
	}
	return he
}

// keychainStates is where each secret the manifest reads from the OS
// keychain stands in it (store, reached with environ). Unlike doctor, a
// value in this shell does not count: a host does not start the server in
// it.
func keychainStates(ctx context.Context, goos string, environ []string, m *annotations.Manifest, store keychain.Store) []server.SecretState {
	states := server.Secrets(ctx, goos, environ, m, store)
	for i := range states {
		st := &states[i]
		if st.From != "env" {
			continue
		}
		st.From = ""
		switch _, err := keychain.Get(ctx, store, st.Name, 0); {
		case err == nil:
			st.From = "keychain"
		case !errors.Is(err, keychain.ErrNotFound):
			st.Err = err
		}
	}
	return states
}

// secretRE matches the names of variables that hold secrets by their
// words: CADRUMO_SECRET_PASSPHRASE, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY.
var secretRE = lazyre.New(`(?i)(^|_)(SECRET|SECRETS|PASSWORD|PASSWD|PASSPHRASE|TOKEN|APIKEY|API_KEY|PRIVATE|CREDENTIALS?|PIN)(_|$)`)

func secretName(name string) bool { return secretRE.Get().MatchString(name) }

// explain names what the entry could not carry, or left out, and for
// each secret the one step that gives it to the server: for a keychain
// secret `aeat-mcp secret set`, never a line of plain text in a host's
// file.
func (he hostEnv) explain(w io.Writer, written bool) {
	block := "the entry's \"env\" block"
	if !written {
		block = "the \"env\" block above"
	}
	if len(he.unset) > 0 {
		fmt.Fprintf(w, "\nnot set in this shell, so not in the entry: %s — add them to %s, or every call refuses.\n", strings.Join(he.unset, ", "), block)
	}
	if len(he.keychain) > 0 {
		he.explainKeychain(w)
	}
	if len(he.byName) > 0 {
		fmt.Fprintf(w, "\nsecrets set in this shell and left out of the entry (their names say so): %s — add them to %s yourself, or run config again with --with-secrets (the host's file then holds them in plain text).\n", strings.Join(he.byName, ", "), block)
	}
	if len(he.envOnly) > 0 && !he.withSecrets {
		fmt.Fprintf(w, "\nsecrets tools read on stdin from the server's environment (the manifest names no keychain entry for them): %s — only %s can give them, in plain text: add them yourself, or run config again with --with-secrets, if you want those tools.\n", strings.Join(he.envOnly, ", "), block)
	}
	if len(he.plain) > 0 {
		fmt.Fprintf(w, "\nwritten in plain text into %s, as --with-secrets asked: %s.\n", block, strings.Join(he.plain, ", "))
	}
}

// explainKeychain says why the keychain could not be read once, then a
// line per keychain secret: the reason is the same store's for every
// secret, and a paragraph long on Linux without a session bus.
func (he hostEnv) explainKeychain(w io.Writer) {
	fmt.Fprintf(w, "\nsecrets the server reads from the OS keychain at each call, never from the host's file:\n")
	var reasons []string
	for _, st := range he.keychain {
		if !he.unreadable(st) {
			continue
		}
		if why := st.Err.Error(); !slices.Contains(reasons, why) {
			reasons = append(reasons, why)
		}
	}
	for _, why := range reasons {
		fmt.Fprintf(w, "  %s.\n", why)
	}
	if len(reasons) > 0 {
		fmt.Fprintf(w, "  Without a keychain, config --with-secrets writes these secrets into the host's file in plain text.\n")
	}
	for _, st := range he.keychain {
		fmt.Fprintf(w, "  %s (%s): %s\n", st.Name, secretUse(st), he.secretStep(st))
	}
}

// unreadable: the keychain could not be asked for st, and nothing else
// gives it (--with-secrets did not write it into the entry).
func (he hostEnv) unreadable(st server.SecretState) bool {
	return st.Err != nil && st.From != "keychain" && !slices.Contains(he.plain, st.Name)
}

// secretUse says who needs a keychain secret.
func secretUse(st server.SecretState) string {
	use := "every call"
	if len(st.Tools) > 0 {
		use = strings.Join(st.Tools, ", ")
	}
	if !st.Required {
		use += "; optional"
	}
	return use
}

// secretStep is where a keychain secret stands and what the person does.
func (he hostEnv) secretStep(st server.SecretState) string {
	set := "aeat-mcp secret set " + st.Name
	switch {
	case slices.Contains(he.plain, st.Name):
		return "in the entry, in plain text (--with-secrets); `" + set + "` keeps it in the keychain instead"
	case st.From == "keychain":
		return "stored"
	case he.unreadable(st):
		return "not readable here — store it with `" + set + "` where the keychain works"
	case st.Required:
		return "not stored — store it once, in a terminal: " + set
	}
	return "not stored — to give it, run in a terminal: " + set
}
