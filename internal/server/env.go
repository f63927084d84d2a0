package server

import (
	"os"
	"runtime"
	"sort"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// basicsUnix and basicsWindows are what a CLI needs of the server's
// environment to work at all (DESIGN.md §5). LC_* is matched as a prefix.
var (
	basicsUnix    = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "TZ", "TMPDIR"}
	basicsWindows = []string{"PATH", "SystemRoot", "ComSpec", "PATHEXT", "USERPROFILE", "APPDATA", "LOCALAPPDATA", "TEMP", "TMP", "LANG", "TZ"}
)

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
		if allow[envKey(k)] || strings.HasPrefix(k, "LC_") {
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
