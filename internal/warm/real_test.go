//go:build linux

package warm_test

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWarmRealAEATAsCold holds the shipped manifest's cli.warm — its
// preload modules and set-up hooks above all — to what the real aeat does
// cold, where a cached value would show: another profile, another
// language, another passphrase (a wrong one), another active profile (a
// profile created after the template started), the active profile's
// output language changed. Each call runs cold
// and warm from one template started before the changes; stdout, stderr
// and the exit code must be identical. Skipped unless AEAT_REAL_CLI names
// the port of the real aeat (rebuilt from its source outside the repository; not in CI).
func TestWarmRealAEATAsCold(t *testing.T) {
	script, m := realAEAT(t)
	home, store, dir := t.TempDir(), t.TempDir(), t.TempDir()
	const pass = "the-right-passphrase"
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + home, "CADRUMO_LOCAL_STORAGE_ROOT=" + store,
		"CADRUMO_SECRET_PASSPHRASE=" + pass, "TMPDIR=" + dir}
	cli := func(args ...string) {
		t.Helper()
		cmd := exec.Command(script, append(slices.Clone(m.CLI.Args), args...)...)
		cmd.Env, cmd.Dir = env, dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "aeat %s: %s", strings.Join(args, " "), out)
	}
	for _, p := range []struct{ name, nif, lang string }{{"uno", "12345678Z", "es"}, {"dos", "00000000T", "en"}} {
		cli("config", "profile", "create", p.name, "--quiet", "--accept-defaults", "--tax-id", p.nif, "--name", p.name,
			"--surnames", "Test", "--entity-type", "natural_person", "--output-language", p.lang)
	}

	r, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(t, err)
	defer r.Close()
	py, err := warm.Interpreter(script, "")
	require.NoError(t, err)
	pool := warm.Start(warm.Config{Warm: *m.CLI.Warm, Python: py, Script: script, Args: m.CLI.Args, Env: env, Dir: dir,
		Runner: r, VerifyTimeout: 10 * time.Minute})
	defer pool.Close()
	select {
	case <-pool.Settled():
	case <-time.After(20 * time.Minute):
		t.Fatal("the template did not settle in 20 minutes")
	}
	st := pool.Status()
	require.Equal(t, warm.On, st.State, st.Reason)

	same := func(t *testing.T, env []string, args ...string) {
		t.Helper()
		spec := callruntime.Spec{Path: script, Args: append(slices.Clone(m.CLI.Args), args...), Env: env, Dir: dir,
			Timeout: 10 * time.Minute, MaxStdout: 4 << 20, MaxStderr: 1 << 20}
		cold, err := r.Run(context.Background(), spec)
		require.NoError(t, err)
		before := pool.Status().Calls
		hot, err := pool.Run(context.Background(), spec)
		require.NoError(t, err)
		require.Equal(t, callruntime.Exited, hot.End, "%s", hot.Stderr.Head)
		assert.Equal(t, before+1, pool.Status().Calls, "it ran warm")
		assert.Equal(t, cold.ExitCode, hot.ExitCode, "exit code")
		assert.Equal(t, string(cold.Stdout.Head), string(hot.Stdout.Head), "stdout")
		assert.Equal(t, string(cold.Stderr.Head), string(hot.Stderr.Head), "stderr")
	}
	withEnv := func(kv string) []string {
		k, _, _ := strings.Cut(kv, "=")
		out := slices.DeleteFunc(slices.Clone(env), func(e string) bool { return strings.HasPrefix(e, k+"=") })
		return append(out, kv)
	}
	verbs := [][]string{{"config", "profile", "list"}, {"app", "ledger", "list"}, {"app", "modelo", "list"},
		{"app", "ledger", "status"}, {"app", "overview", "status"}}
	for _, tc := range []struct {
		name  string
		setup []string // a cold call before the case (a switch of state)
		env   []string
		flags []string
	}{
		{name: "as started"}, // "dos" active, in English
		{name: "another profile", flags: []string{"--profile", "uno"}},
		{name: "another language", flags: []string{"--lang", "ca"}},
		{name: "a wrong passphrase", env: withEnv("CADRUMO_SECRET_PASSPHRASE=not-it")},
		{name: "another active profile", setup: []string{"config", "profile", "create", "tres", "--quiet", "--accept-defaults",
			"--tax-id", "11111111H", "--name", "tres", "--surnames", "Test", "--entity-type", "natural_person", "--output-language", "ca"}},
		{name: "the active profile's language changed", setup: []string{"config", "profile", "edit", "tres", "--quiet", "--output-language", "hu"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				cli(tc.setup...)
			}
			e := env
			if tc.env != nil {
				e = tc.env
			}
			for _, v := range verbs {
				t.Run(strings.Join(v, " "), func(t *testing.T) {
					same(t, e, append(slices.Clone(tc.flags), v...)...)
				})
			}
		})
	}
}

// realAEAT is the real aeat's script (AEAT_REAL_CLI: the port rebuilt from
// its source, not in CI; skipped without it) and the manifest to run it
// with (AEAT_REAL_MANIFEST, else the shipped one).
func realAEAT(tb testing.TB) (script string, m *annotations.Manifest) {
	tb.Helper()
	script = os.Getenv("AEAT_REAL_CLI")
	if script == "" {
		tb.Skip("AEAT_REAL_CLI is not set (the script of the real aeat, rebuilt from its source)")
	}
	manifest := os.Getenv("AEAT_REAL_MANIFEST")
	if manifest == "" {
		manifest = "../../examples/aeat.manifest.json"
	}
	m, err := annotations.Load(manifest)
	require.NoError(tb, err)
	return script, m
}
