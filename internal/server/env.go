package server

import (
	"os"
	"runtime"
	"sort"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// basicsUnix and basicsWindows are what a CLI needs of the server's
// environment to work at all (DESIGN.md §5), locales included. The README
// lists them exactly; change both together.
var (
	basicsUnix    = append([]string{"PATH", "HOME", "USER", "LOGNAME", "TZ", "TMPDIR"}, localeVars...)
	basicsWindows = append([]string{"PATH", "SystemRoot", "ComSpec", "PATHEXT", "USERPROFILE", "APPDATA", "LOCALAPPDATA", "TEMP", "TMP", "TZ"}, localeVars...)
)

// localeVars are the POSIX and glibc locale categories, and LANGUAGE. Not
// every LC_ name: terminals and ssh forward arbitrary LC_* variables (some
// carry data of their own), and the CLI has no use for them.
var localeVars = []string{"LANG", "LANGUAGE", "LC_ALL", "LC_ADDRESS", "LC_COLLATE", "LC_CTYPE",
	"LC_IDENTIFICATION", "LC_MEASUREMENT", "LC_MESSAGES", "LC_MONETARY", "LC_NAME", "LC_NUMERIC",
	"LC_PAPER", "LC_TELEPHONE", "LC_TIME"}

var environ = os.Environ

// BuildEnv is the CLI's whole environment: the platform basics, the
// manifest's cli.env.pass and the --pass-env names taken from environ when
// set there, then cli.env.set on top. Nothing else of the server's
// environment reaches the CLI.
func BuildEnv(cli annotations.CLI, passEnv []string, environ func() []string) []string {
	basics := basicsUnix
	if runtime.GOOS == "windows" {
		basics = basicsWindows
	}
	allow := map[string]bool{}
	for _, names := range [][]string{basics, cli.Pass, passEnv} {
		for _, n := range names {
			allow[envKey(n)] = true
		}
	}
	env := map[string]string{}
	for _, kv := range environ() {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		if allow[envKey(k)] {
			env[k] = v
		}
	}
	for k, v := range cli.Set {
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// envKey folds case where the platform does (Windows).
func envKey(k string) string {
	if runtime.GOOS == "windows" {
		return strings.ToUpper(k)
	}
	return k
}
