package server

import (
	"os"
	"runtime"
	"slices"
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
// manifest's cli.env.pass (names, or prefixes ending in "*"), its
// cli.env.require and the --pass-env names, taken from environ when set
// there, then cli.env.set on top. Nothing else of the server's environment
// reaches the CLI.
func BuildEnv(cli annotations.CLI, passEnv []string, environ func() []string) []string {
	basics := basicsUnix
	if runtime.GOOS == "windows" {
		basics = basicsWindows
	}
	allow := map[string]bool{}
	var prefixes []string
	for _, names := range [][]string{basics, cli.Pass, cli.Require, passEnv} {
		for _, n := range names {
			if p, ok := strings.CutSuffix(n, "*"); ok {
				prefixes = append(prefixes, envKey(p))
			} else {
				allow[envKey(n)] = true
			}
		}
	}
	passes := func(k string) bool {
		k = envKey(k)
		if allow[k] {
			return true
		}
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return false
	}
	env := map[string]string{}
	for _, kv := range environ() {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		if passes(k) {
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

// checkEnv finds, per tool, the variables its calls cannot do without and
// this server lacks: cli.env.require (in the CLI's environment env) and a
// stdin env (in the server's own). It returns them with the values of the
// stdin variables that are set. An empty value counts as missing: a CLI
// given an empty passphrase or storage root fails, or worse, looks empty.
func checkEnv(m *annotations.Manifest, env []string, environ func() []string) (missing map[string][]string, stdin map[string]string) {
	have := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		have[envKey(k)] = v
	}
	var required []string
	for _, n := range m.CLI.Require {
		if have[envKey(n)] == "" {
			required = append(required, n)
		}
	}
	own := map[string]string{}
	for _, kv := range environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			own[envKey(k)] = v
		}
	}
	missing, stdin = map[string][]string{}, map[string]string{}
	for _, t := range m.Tools {
		names := slices.Clone(required)
		if t.Stdin != nil && t.Stdin.Env != "" {
			if v := own[envKey(t.Stdin.Env)]; v != "" {
				stdin[t.Stdin.Env] = v
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

// MissingEnv lists the variables the CLI needs that this server lacks,
// every tool's together, for validate and doctor.
func (s *Server) MissingEnv() []string { return union(s.missingEnv) }

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

// stdin is what t's CLI reads on stdin for this call: the server variable
// or the param the manifest names; nil for the null device.
func (s *Server) stdin(t *annotations.Tool, inv annotations.Invocation) []byte {
	switch {
	case t.Stdin == nil:
		return nil
	case t.Stdin.Env != "":
		return []byte(s.stdinEnv[t.Stdin.Env])
	case inv.Stdin != nil:
		return []byte(*inv.Stdin)
	}
	return nil
}

// envKey folds case where the platform does (Windows).
func envKey(k string) string {
	if runtime.GOOS == "windows" {
		return strings.ToUpper(k)
	}
	return k
}
