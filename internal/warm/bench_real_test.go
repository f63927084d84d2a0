//go:build linux

package warm_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/require"
)

// BenchmarkWarmRealAEAT runs the real aeat (the port of cadrumo rebuilt on
// this machine from its source: not in CI) with the cli.warm of
// the shipped manifest, per verb cold, warm, in process and the fair floor
// (fairSource), interleaved, after a first warm call (BENCHMARKS.md "Warm
// start"; scripts/bench-warm real). Beside wall times it reports what each
// warm child used (page faults and CPU, from the template's exit line) and
// what the fair floor's one run used. Every warm call's stdout must be
// byte-identical to the cold calls'. It is skipped unless AEAT_REAL_CLI names the CLI's script;
// AEAT_REAL_MANIFEST picks another manifest, AEAT_REAL_VERBS other verbs
// (comma-separated command paths); AEAT_REAL_NO_SPARE=1 runs the template
// without its spare (what a call costs forked on demand),
// AEAT_REAL_NO_BERTH=1 with spares moved into their calls' cgroups
// (berth.go: what the move costs).
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
	if os.Getenv("AEAT_REAL_NO_SPARE") == "1" {
		defer warm.SetSpares(false)()
	}
	if os.Getenv("AEAT_REAL_NO_BERTH") == "1" {
		defer warm.SetBerths(false)()
	}

	home, store, dir := b.TempDir(), b.TempDir(), b.TempDir()
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + home, "CADRUMO_LOCAL_STORAGE_ROOT=" + store,
		"CADRUMO_SECRET_PASSPHRASE=bench-passphrase-" + filepath.Base(home), "TMPDIR=" + dir}
	for _, name := range []string{"AEAT_MCP_WARM_TRACE", "AEAT_MCP_WARM_PROFILE"} { // template.py's debugging
		if v := os.Getenv(name); v != "" {
			env = append(env, name+"="+v)
		}
	}
	create := exec.Command(script, append(append([]string{}, m.CLI.Args...), "config", "profile", "create", "bench", "--quiet", "--accept-defaults",
		"--tax-id", "12345678Z", "--name", "Bench", "--surnames", "Test", "--entity-type", "natural_person")...)
	create.Env, create.Dir = env, dir
	out, err := create.CombinedOutput()
	require.NoError(b, err, "creating a profile: %s", out)

	var mu sync.Mutex
	var used []warm.ChildUsage // this verb's warm calls', the first among them
	defer warm.OnChildUsage(func(u warm.ChildUsage) {
		mu.Lock()
		used = append(used, u)
		mu.Unlock()
	})()

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
	conf := warm.TemplateConfig(*m.CLI.Warm, script)
	for _, verb := range verbs {
		argv := append(append([]string{}, m.CLI.Args...), strings.Fields(verb)...)
		var want []byte
		mu.Lock()
		used = nil
		mu.Unlock()
		var fair []fairRun
		c := compare(b, s, m.CLI.Warm.Entry, py, argv, b.N, func(out []byte) {
			if want == nil {
				want = append([]byte{}, out...)
			}
			require.Equal(b, string(want), string(out), "%s: stdout is byte-identical cold and warm", verb)
		}, func() { fair = append(fair, runFair(b, py, conf, env, dir, argv)) })
		prefix := strings.ReplaceAll(verb, " ", "-") + "-"
		c.report(b, prefix)
		mu.Lock()
		reportUsage(b, prefix, used, fair, c)
		used = nil
		mu.Unlock()
		backToBack(b, s, prefix, argv, func() []warm.ChildUsage {
			mu.Lock()
			defer mu.Unlock()
			return append([]warm.ChildUsage{}, used...)
		})
	}
	b.StopTimer()
	st = pool.Status()
	b.ReportMetric(float64(ready.Milliseconds()), "template-ready-ms")
	b.ReportMetric(float64(pool.Status().RSS>>20), "template-rss-MiB")
	if st.Spares > 0 {
		b.ReportMetric(float64(privateKiB(spareOf(b, st.TemplatePID, 0)))/1024, "spare-private-MiB")
		b.ReportMetric(float64(st.Spares), "calls-handed-to-a-spare")
	}
	require.Equal(b, warm.On, st.State, "warm start stayed on: %s", st.Reason)
	require.Zero(b, st.Lost)
}

// backToBack runs two warm calls of argv back to back — the second
// asked for as soon as the first answered, as a model's next call may be
// — and reports the second one's wall time, faults and CPU (what its spare
// had copied by then). used returns the usage reports since the last
// reportUsage.
func backToBack(b *testing.B, s *setup, prefix string, argv []string, used func() []warm.ChildUsage) {
	b.Helper()
	var took time.Duration
	for i := 0; i < 2; i++ {
		spec := s.spec(argv...)
		spec.MaxStdout = 1 << 20
		began := time.Now()
		res, err := s.pool.Run(context.Background(), spec)
		took = time.Since(began)
		require.NoError(b, err)
		require.Equal(b, 0, res.ExitCode, "stderr: %s", res.Stderr.Head)
	}
	u := used()
	require.Len(b, u, 2, "a usage report for each of the two calls")
	b.ReportMetric(ms(took), prefix+"back-to-back-ms")
	b.ReportMetric(float64(u[1].MinFlt+u[1].MajFlt), prefix+"back-to-back-faults")
	b.ReportMetric(ms(u[1].User+u[1].Sys), prefix+"back-to-back-cpu-ms")
}

// fairSource is the fair floor of one warm call: a fresh interpreter made
// ready as the template makes itself (template.py loaded under another
// name, so it does not serve: the entry imported, the command tree walked,
// the warm-up run, the preload modules imported, the entry points read),
// that then runs the verb ONCE as a warm child does (reset hooks, the
// console script as __main__) and reports that run: its seconds, and the
// page faults and CPU it took (getrusage around it), and the faults of the
// whole process. What the in-process floor keeps between runs of one
// interpreter (the settings, keyring's choice of backend, the key
// derivation's memory touched once: BENCHMARKS.md "What a fresh
// interpreter pays again") this floor pays, as every call does; the
// store's unlock both pay on every run. What it does not pay is the fork:
// the pages a warm child copies from its template.
const fairSource = `
import json, os, resource, sys, time
src, conf, argv = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
sys.argv = ["template.py", conf]
ns = {"__name__": "warm_fair_floor"}
exec(compile(src, "template.py", "exec"), ns)
sys.argv = [ns["_SCRIPT"]]
if sys.path and sys.path[0] == "":
    sys.path[0] = os.path.dirname(os.path.realpath(ns["_SCRIPT"]))
mod_name, obj = ns["_entry"]()
ns["_preload"](mod_name, obj)
ns["_warmup"](obj)
ns["_preload_modules"]()
ns["_keep_entry_points"]()
ns["_SCRIPT_CODE"] = ns["_script_code"]()
answers = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
sys.argv = [ns["_SCRIPT"]] + argv
for hook in ns["_CFG"].get("reset") or []:
    m, _, attr = hook.partition(":")
    fn = __import__(m, fromlist=["_"])
    for part in attr.split("."):
        fn = getattr(fn, part)
    fn()
try:
    ns["_run_main"]()
except SystemExit:
    pass
sys.stdout.flush()
t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
answers.write(json.dumps({"s": t1 - t0, "minflt": r1.ru_minflt - r0.ru_minflt, "majflt": r1.ru_majflt - r0.ru_majflt,
    "cpu_s": (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), "process_minflt": r1.ru_minflt}) + "\n")
answers.flush()
os._exit(0)
`

// fairRun is one run of fairSource.
type fairRun struct {
	S             float64 `json:"s"`
	MinFlt        int64   `json:"minflt"`
	MajFlt        int64   `json:"majflt"`
	CPUS          float64 `json:"cpu_s"`
	ProcessMinFlt int64   `json:"process_minflt"`
}

func runFair(b *testing.B, py, conf string, env []string, dir string, argv []string) fairRun {
	b.Helper()
	args, _ := json.Marshal(argv)
	cmd := exec.Command(py, "-c", fairSource, warm.TemplateSource, conf, string(args))
	cmd.Env, cmd.Dir = env, dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(b, err, "the fair floor: %s", stderr.String())
	var r fairRun
	require.NoError(b, json.Unmarshal(out, &r), "the fair floor said %q; stderr %s", out, stderr.String())
	return r
}

// reportUsage reports per verb the medians of what the warm children used
// (used: the first warm call's, then one per round) and of the fair floor,
// and warm against both floors.
func reportUsage(b *testing.B, prefix string, used []warm.ChildUsage, fair []fairRun, c comparison) {
	b.Helper()
	require.Len(b, used, len(c.warm)+1, "a usage report for every warm call")
	used = used[1:]
	median := func(xs []float64) float64 {
		sort.Float64s(xs)
		return xs[(len(xs)-1)/2]
	}
	var flt, cpu, fs, fflt, fcpu, pflt []float64
	for _, u := range used {
		flt = append(flt, float64(u.MinFlt+u.MajFlt))
		cpu = append(cpu, ms(u.User+u.Sys))
	}
	for _, r := range fair {
		fs = append(fs, r.S*1000)
		fflt = append(fflt, float64(r.MinFlt+r.MajFlt))
		fcpu = append(fcpu, r.CPUS*1000)
		pflt = append(pflt, float64(r.ProcessMinFlt))
	}
	floor := median(fs)
	b.ReportMetric(median(flt), prefix+"warm-faults/op")
	b.ReportMetric(median(cpu), prefix+"warm-cpu-ms/op")
	b.ReportMetric(floor, prefix+"fair-floor-ms-median")
	b.ReportMetric(median(fflt), prefix+"fair-floor-faults/op")
	b.ReportMetric(median(fcpu), prefix+"fair-floor-cpu-ms/op")
	b.ReportMetric(median(pflt), prefix+"fresh-process-faults")
	b.ReportMetric(ms(quantile(c.warm, 0.5))-floor, prefix+"warm-over-fair-floor-ms")
	b.ReportMetric(ms(quantile(c.warm, 0.5))/floor, prefix+"warm/fair-floor")
}
