//go:build linux

package warm_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/require"
)

// BenchmarkWarmRealAEAT runs the real aeat (the port of cadrumo rebuilt on
// this machine from its source: not in CI) with the cli.warm of
// the shipped manifest, per verb cold, warm and in process, interleaved,
// after a first warm call (BENCHMARKS.md "Warm start"; scripts/bench-warm
// real). Every warm call's stdout must be byte-identical to the cold
// calls'. It is skipped unless AEAT_REAL_CLI names the CLI's script;
// AEAT_REAL_MANIFEST picks another manifest, AEAT_REAL_VERBS other verbs
// (comma-separated command paths).
//
// HOME and CADRUMO_LOCAL_STORAGE_ROOT are fresh directories with one
// profile, created by the CLI itself, and the passphrase is in the
// environment (CADRUMO_SECRET_PASSPHRASE: the headless way in, facts.json
// login.headless_alternative), so the gated verbs run to their end.
func BenchmarkWarmRealAEAT(b *testing.B) {
	script, m := realAEAT(b)
	verbs := []string{"config profile list", "app ledger list", "app modelo list", "app ledger status", "app overview status"}
	if v := os.Getenv("AEAT_REAL_VERBS"); v != "" {
		verbs = strings.Split(v, ",")
	}
	require.NotNil(b, m.CLI.Warm, "the manifest has no cli.warm")

	home, store, dir := b.TempDir(), b.TempDir(), b.TempDir()
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + home, "CADRUMO_LOCAL_STORAGE_ROOT=" + store,
		"CADRUMO_SECRET_PASSPHRASE=bench-passphrase-" + filepath.Base(home), "TMPDIR=" + dir}
	create := exec.Command(script, append(append([]string{}, m.CLI.Args...), "config", "profile", "create", "bench", "--quiet", "--accept-defaults",
		"--tax-id", "12345678Z", "--name", "Bench", "--surnames", "Test", "--entity-type", "natural_person")...)
	create.Env, create.Dir = env, dir
	out, err := create.CombinedOutput()
	require.NoError(b, err, "creating a profile: %s", out)

	r, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(b, err)
	defer r.Close()
	py, err := warm.Interpreter(script, "")
	require.NoError(b, err)
	began := time.Now()
	pool := warm.Start(warm.Config{Warm: *m.CLI.Warm, Python: py, Script: script, Args: m.CLI.Args, Env: env, Dir: dir,
		Runner: r, VerifyTimeout: 10 * time.Minute})
	defer pool.Close()
	s := &setup{script: script, runner: r, pool: pool, env: env, dir: dir}
	select {
	case <-pool.Settled():
	case <-time.After(15 * time.Minute):
		b.Fatal("the template did not settle in 15 minutes")
	}
	st := pool.Status()
	require.Equal(b, warm.On, st.State, st.Reason)
	ready := time.Since(began)

	b.ResetTimer() // (it drops the metrics reported so far)
	for _, verb := range verbs {
		argv := append(append([]string{}, m.CLI.Args...), strings.Fields(verb)...)
		var want []byte
		c := compare(b, s, m.CLI.Warm.Entry, py, argv, b.N, func(out []byte) {
			if want == nil {
				want = append([]byte{}, out...)
			}
			require.Equal(b, string(want), string(out), "%s: stdout is byte-identical cold and warm", verb)
		})
		c.report(b, strings.ReplaceAll(verb, " ", "-")+"-")
	}
	b.StopTimer()
	b.ReportMetric(float64(ready.Milliseconds()), "template-ready-ms")
	b.ReportMetric(float64(pool.Status().RSS>>20), "template-rss-MiB")
	st = pool.Status()
	require.Equal(b, warm.On, st.State, "warm start stayed on: %s", st.Reason)
	require.Zero(b, st.Lost)
}
