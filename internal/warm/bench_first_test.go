//go:build linux

package warm_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/require"
)

// BenchmarkFirstCallRealAEAT is a session's first call on the real aeat
// (AEAT_REAL_CLI, skipped without it; not in CI), as a server makes it: a
// pool starts (its template and cold verify run begin) and the call comes
// at once, within the read tier's 45 s ceiling, on a store whose registry
// is compiled. Each iteration interleaves, each with a fresh pool and
// runner: the pool whose preparation yields to the call (yield.go), the
// pool whose preparation does not (before), and the call alone with no
// pool at all (warm start off: the floor). Reported: each one's median
// and worst, and how many of each timed out.
func BenchmarkFirstCallRealAEAT(b *testing.B) {
	script, m := realAEAT(b)
	require.NotNil(b, m.CLI.Warm, "the manifest has no cli.warm")
	home, store, dir := b.TempDir(), b.TempDir(), b.TempDir()
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + home, "CADRUMO_LOCAL_STORAGE_ROOT=" + store, "TMPDIR=" + dir}
	for _, argv := range [][]string{
		{"config", "profile", "create", "bench", "--quiet", "--accept-defaults",
			"--tax-id", "12345678Z", "--name", "Bench", "--surnames", "Test", "--entity-type", "natural_person"},
		{"app", "modelo", "list"}, // compiles the registry into the store
	} {
		cmd := exec.Command(script, append(append([]string{}, m.CLI.Args...), argv...)...)
		cmd.Env, cmd.Dir = append(env, "CADRUMO_SECRET_PASSPHRASE=bench-passphrase"), dir
		out, err := cmd.CombinedOutput()
		require.NoError(b, err, "%v: %s", argv, out)
	}
	py, err := warm.Interpreter(script, "")
	require.NoError(b, err)
	spec := callruntime.Spec{Path: script, Args: append(append([]string{}, m.CLI.Args...), "config", "profile", "list"),
		Env: env, Dir: dir, Timeout: 45 * time.Second}

	first := func(pooled, yield bool) (time.Duration, bool) {
		r, err := callruntime.NewRunner(callruntime.Options{StateDir: b.TempDir()})
		require.NoError(b, err)
		defer func() { r.Close(); noChildren(b) }()
		run := r.Run
		if pooled {
			defer warm.SetYield(yield)()
			pool := warm.Start(warm.Config{Warm: *m.CLI.Warm, Python: py, Script: script, Args: m.CLI.Args, Env: env, Dir: dir, Runner: r})
			defer pool.Close()
			run = pool.Run
		}
		begin := time.Now()
		res, err := run(context.Background(), spec)
		d := time.Since(begin)
		require.NoError(b, err)
		return d, res.End == callruntime.TimedOut
	}
	kinds := []struct {
		name          string
		pooled, yield bool
	}{{"yields", true, true}, {"before", true, false}, {"warm-off", false, false}}
	took := make([][]time.Duration, len(kinds))
	timedOut := make([]int, len(kinds))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, kind := range kinds {
			d, out := first(kind.pooled, kind.yield)
			took[k] = append(took[k], d)
			if out {
				timedOut[k]++
			}
			b.Logf("%s: %v (timed out: %v), load %s", kind.name, d.Round(100*time.Millisecond), out, load())
		}
	}
	b.StopTimer()
	for k, kind := range kinds {
		b.ReportMetric(ms(quantile(took[k], 0.5)), kind.name+"-ms-median")
		b.ReportMetric(ms(quantile(took[k], 1)), kind.name+"-ms-max")
		b.ReportMetric(float64(timedOut[k]), kind.name+"-timeouts")
	}
}

// load is the 1-minute load average.
func load() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.Fields(string(b) + " ?")[0]
}

// noChildren waits until no process of ours remains (a closed pool's
// template and verify runs, the runner's lifeline): the next measurement
// starts on a machine they no longer share.
func noChildren(b *testing.B) {
	b.Helper()
	if !proctest.Eventually(func() bool { return len(liveChildren(os.Getpid())) == 0 }) {
		b.Fatalf("processes of ours still run: %v", liveChildren(os.Getpid()))
	}
}
