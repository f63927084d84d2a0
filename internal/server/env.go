package server

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// The CLI's environment is one concept: an allowlist built from the
// platform's basics, the manifest's cli.env.pass, cli.env.require and
// cli.env.keychain names, and the --pass-env names, each taken from the
// server's environment when set there; then cli.env.set on top. Nothing
// else of the server's environment reaches the CLI (docs/environment.md). The
// target OS is a parameter of every function here, so the Windows, macOS
// and Linux rules all run in Linux tests; the server passes [hostOS].

// hostOS is the OS the server runs on: the one place this file reads
// runtime.GOOS.
var hostOS = runtime.GOOS

// HostOS is the OS whose environment rules the server applies.
func HostOS() string { return hostOS }

// platform is what one OS family needs of the environment.
type platform struct {
	// basics are the variables a CLI needs to work at all, and to find its
	// user's data, caches and keychain (paths and addresses, never
	// secrets). docs/environment.md lists them exactly; change both together.
	basics []string
	// foldCase: variable names are case-insensitive (Windows), so the
	// environment is keyed by the upper-cased name and cli.env.set's
	// spelling wins over the server's ("Path" vs "PATH").
	foldCase bool
	// defaults are set where the server's environment does not pass a
	// value of its own; cli.env.set still wins over them.
	defaults map[string]string
}

// unixBasics are what every Unix CLI is given: where programs are, whose
// home and name it runs as, its time zone and temporary directory.
var unixBasics = []string{"PATH", "HOME", "USER", "LOGNAME", "TZ", "TMPDIR"}

// platforms has one entry per OS family; anything not named is "unix"
// (the BSDs, which follow the XDG conventions as Linux does). Built at the
// first use: serve reads one entry, other commands none.
var platforms = sync.OnceValue(func() map[string]platform {
	return map[string]platform{
		// Linux desktops: the XDG base directories decide where a CLI's data,
		// configuration, caches and state are (aeat's store defaults to
		// $XDG_DATA_HOME/cadrumo/storage: without it, another, empty store), and
		// the D-Bus session bus is how it reaches the Secret Service keychain
		// (aeat's login session key lives only there; without the bus every
		// profile-bound call fails AUTH_STORAGE_KEYRING_UNAVAILABLE).
		"linux": {basics: concat(unixBasics, []string{"XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
			"XDG_STATE_HOME", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"}, localeVars)},
		// macOS: data lives under ~/Library (HOME), and the login keychain is
		// reached through the user's security session, not the environment.
		"darwin": {basics: concat(unixBasics, localeVars)},
		// Windows: libuv's required set (what Node and the programs it starts
		// cannot do without: HOMEDRIVE HOMEPATH LOGONSERVER PATH SYSTEMDRIVE
		// SYSTEMROOT TEMP USERDOMAIN USERNAME USERPROFILE WINDIR), the per-user
		// and system folders (LOCALAPPDATA holds aeat's store; Program Files is
		// where browsers are installed), the shell and executable extensions,
		// and what Python reads of the machine (getpass.getuser() raises
		// without USERNAME; os.cpu_count and platform read the processor).
		//
		// And Python's text encoding: up to Python 3.14 a Python CLI writing
		// to a pipe encodes in the ANSI code page (cp1252), so aeat's Spanish
		// reaches the model as U+FFFD and a character outside cp1252 makes it
		// exit 1 (UnicodeEncodeError); UTF-8 mode (PEP 540) is the default
		// from 3.15 on (PEP 686). So PYTHONUTF8=1 by default — here, not in a
		// manifest's cli.env.set, because every Python CLI on Windows needs it
		// (a generated manifest too), a person's own PYTHONUTF8 or
		// PYTHONIOENCODING set machine-wide must win (they pass), and a
		// program that is not Python ignores it.
		"windows": {foldCase: true, basics: concat([]string{"PATH", "PATHEXT", "SystemRoot", "SystemDrive", "windir",
			"ComSpec", "HOMEDRIVE", "HOMEPATH", "USERPROFILE", "USERNAME", "USERDOMAIN", "LOGONSERVER",
			"APPDATA", "LOCALAPPDATA", "ProgramData", "ProgramFiles", "ProgramFiles(x86)", "ProgramW6432",
			"TEMP", "TMP", "TZ", "PROCESSOR_ARCHITECTURE", "NUMBER_OF_PROCESSORS", "PYTHONUTF8", "PYTHONIOENCODING"}, localeVars),
			defaults: map[string]string{"PYTHONUTF8": "1"}},
		"unix": {basics: concat(unixBasics, []string{"XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
			"XDG_STATE_HOME", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"}, localeVars)},
	}
})

// localeVars are the POSIX and glibc locale categories, and LANGUAGE. Not
// every LC_ name: terminals and ssh forward arbitrary LC_* variables (some
// carry data of their own), and the CLI has no use for them.
var localeVars = []string{"LANG", "LANGUAGE", "LC_ALL", "LC_ADDRESS", "LC_COLLATE", "LC_CTYPE",
	"LC_IDENTIFICATION", "LC_MEASUREMENT", "LC_MESSAGES", "LC_MONETARY", "LC_NAME", "LC_NUMERIC",
	"LC_PAPER", "LC_TELEPHONE", "LC_TIME"}

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// platformOf is goos's entry of [platforms].
func platformOf(goos string) platform {
	if p, ok := platforms()[goos]; ok {
		return p
	}
	return platforms()["unix"]
}

// Basics are the platform basics of goos, as docs/environment.md lists them.
func Basics(goos string) []string { return slices.Clone(platformOf(goos).basics) }

// key is a variable's name as goos compares names: upper-cased where the
// OS ignores case.
func (p platform) key(name string) string {
	if p.foldCase {
		return strings.ToUpper(name)
	}
	return name
}

// BuildEnv is the CLI's whole environment on goos: the platform basics,
// the manifest's cli.env.pass (names, or prefixes ending in "*"), its
// cli.env.require and cli.env.keychain names and the --pass-env names,
// taken from environ when set there, the platform's defaults where nothing
// passed, then cli.env.set on top. Where goos
// ignores the case of names, a variable is one variable whatever its
// spelling, and cli.env.set's value and spelling win. Nothing else of the
// server's environment reaches the CLI.
func BuildEnv(goos string, cli annotations.CLI, passEnv []string, environ func() []string) []string {
	p := platformOf(goos)
	allow := map[string]bool{}
	var prefixes []string
	keychain := make([]string, len(cli.Keychain))
	for i, k := range cli.Keychain {
		keychain[i] = k.Name
	}
	for _, names := range [][]string{p.basics, cli.Pass, cli.Require, keychain, passEnv} {
		for _, n := range names {
			if pre, ok := strings.CutSuffix(n, "*"); ok {
				prefixes = append(prefixes, p.key(pre))
			} else {
				allow[p.key(n)] = true
			}
		}
	}
	passes := func(k string) bool {
		k = p.key(k)
		if allow[k] {
			return true
		}
		for _, pre := range prefixes {
			if strings.HasPrefix(k, pre) {
				return true
			}
		}
		return false
	}
	env := envMap{p: p, vars: map[string]string{}}
	for _, kv := range environ() {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		if passes(k) {
			env.set(k, v)
		}
	}
	for _, k := range sortedNames(p.defaults) {
		if !env.has(k) {
			env.set(k, p.defaults[k])
		}
	}
	for _, k := range sortedNames(cli.Set) {
		env.set(k, cli.Set[k])
	}
	return env.list()
}

// envMap is an environment keyed as its OS compares names, keeping the
// spelling of the last one set.
type envMap struct {
	p    platform
	vars map[string]string // key → "Name=value"
}

func (e envMap) set(name, value string) { e.vars[e.p.key(name)] = name + "=" + value }

func (e envMap) has(name string) bool {
	kv, ok := e.vars[e.p.key(name)]
	_, v, _ := strings.Cut(kv, "=")
	return ok && v != ""
}

func (e envMap) list() []string {
	out := make([]string, 0, len(e.vars))
	for _, kv := range e.vars {
		out = append(out, kv)
	}
	sort.Strings(out)
	return out
}

func newEnvMap(goos string, env []string) envMap {
	e := envMap{p: platformOf(goos), vars: map[string]string{}}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			e.set(k, v)
		}
	}
	return e
}

func sortedNames(m map[string]string) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// withVars is env (a CLI environment for goos) with more variables: a
// call's secrets from the keychain. A variable env already has (the
// server's own value, passed) keeps its value.
func withVars(goos string, env []string, more map[string]string) []string {
	if len(more) == 0 {
		return env
	}
	e := newEnvMap(goos, env)
	for _, k := range sortedNames(more) {
		if !e.has(k) {
			e.set(k, more[k])
		}
	}
	return e.list()
}

// checkEnv finds, per tool, the variables its calls cannot do without and
// this server lacks: cli.env.require (in the CLI's environment env) and a
// stdin env (in the server's own). It returns them with the values of the
// stdin variables that are set. An empty value counts as missing: a CLI
// given an empty passphrase or storage root fails, or worse, looks empty.
// A required variable that cli.env.keychain names, and a stdin keychain
// secret, are looked for at call time instead (the keychain may have it).
func checkEnv(goos string, m *annotations.Manifest, env []string, environ func() []string) (missing map[string][]string, stdin map[string]string) {
	have := newEnvMap(goos, env)
	var required []string
	for _, n := range m.CLI.Require {
		inKeychain := slices.ContainsFunc(m.CLI.Keychain, func(k annotations.KeychainVar) bool { return k.Name == n })
		if !have.has(n) && !inKeychain {
			required = append(required, n)
		}
	}
	own := newEnvMap(goos, environ())
	missing, stdin = map[string][]string{}, map[string]string{}
	for _, t := range m.Tools {
		names := slices.Clone(required)
		if t.Stdin != nil && t.Stdin.Env != "" {
			if own.has(t.Stdin.Env) {
				stdin[t.Stdin.Env] = own.value(t.Stdin.Env)
			} else {
				names = append(names, t.Stdin.Env)
			}
		}
		if len(names) > 0 {
			missing[t.Name] = names
		}
	}
	return missing, stdin
}

func (e envMap) value(name string) string {
	_, v, _ := strings.Cut(e.vars[e.p.key(name)], "=")
	return v
}

// union is every name of a per-tool list once, sorted.
func union(perTool map[string][]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, names := range perTool {
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// The variables no allowlist should pass by accident: each changes what
// code a program loads or runs before its first line (the dynamic loader,
// shells, interpreters), or is a well-known credential.
var riskyVars = []string{
	"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH",
	"DYLD_FRAMEWORK_PATH", "BASH_ENV", "ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP",
	"PYTHONINSPECT", "NODE_OPTIONS", "PERL5OPT", "PERL5LIB", "RUBYOPT",
	"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "GITHUB_TOKEN", "GH_TOKEN", "ANTHROPIC_API_KEY",
	"OPENAI_API_KEY", "SSH_AUTH_SOCK",
}

// minPrefix is the shortest cli.env.pass prefix that does not warn: "AWS*"
// or "LC*" pass far more than anyone reads in a manifest.
const minPrefix = 4

// PassWarnings says what is broad in the names the CLI is given (the
// manifest's cli.env.pass, --pass-env): a bare "*", a prefix shorter than
// minPrefix characters, and any entry that passes a variable of riskyVars
// (matched as goos compares names). validate and doctor print them.
func PassWarnings(goos string, pass, passEnv []string) []string {
	p := platformOf(goos)
	var out []string
	check := func(where, n string) {
		pre, isPrefix := strings.CutSuffix(n, "*")
		switch {
		case isPrefix && pre == "":
			out = append(out, fmt.Sprintf("%s %q passes the server's whole environment to the CLI: list the names it reads", where, n))
			return
		case isPrefix && len(pre) < minPrefix:
			out = append(out, fmt.Sprintf("%s %q is a very short prefix: it passes every variable starting with %q; list the names the CLI reads", where, n, pre))
		}
		var hits []string
		for _, r := range riskyVars {
			if (isPrefix && strings.HasPrefix(p.key(r), p.key(pre))) || (!isPrefix && p.key(r) == p.key(n)) {
				hits = append(hits, r)
			}
		}
		if len(hits) > 0 {
			out = append(out, fmt.Sprintf("%s %q passes %s: variables that change what code a program loads, or credentials; the CLI should not get them", where, n, strings.Join(hits, ", ")))
		}
	}
	for _, n := range pass {
		check("cli.env.pass", n)
	}
	for _, n := range passEnv {
		check("--pass-env", n)
	}
	return out
}

// CheckPassEnvName refuses what --pass-env cannot take: it takes names,
// exactly; a "*" (alone or as a prefix) would pass the server's whole
// environment, or a family of it nobody reviewed.
func CheckPassEnvName(n string) error {
	switch {
	case strings.Contains(n, "*"):
		return fmt.Errorf("--pass-env %q: names only — a * would pass the server's whole environment (AWS keys, LD_PRELOAD, …) or a family of it; name each variable (repeat the flag), or put a reviewed prefix in the manifest's cli.env.pass", n)
	case strings.TrimSpace(n) == "", strings.ContainsAny(n, "=\x00"):
		return fmt.Errorf("--pass-env %q: not a variable name", n)
	}
	return nil
}
