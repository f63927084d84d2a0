//go:build linux

package warm_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/require"
)

// The warm-start benchmarks (scripts/bench-warm runs them all; BENCHMARKS.md
// "Warm start" has the numbers). Each reports medians and p90s of calls made
// in one run, through one runner, so that their ratios compare like with
// like on a shared machine.

// BenchmarkWarmVsCold runs the demo CLI's "hello" (an import of about a
// second, then a line) cold and warm, and the same verb in a loop inside one
// interpreter (the CLI's own in-process run): per-call medians and p90s,
// cold/warm, warm's overhead over in-process, the first warm call after the
// template was ready, the template's start-up and its resident memory.
func BenchmarkWarmVsCold(b *testing.B) {
	s := newSetup(b, annotations.Warm{Verify: [][]string{{"hello"}}}, baseEnv("1"))
	st := s.settled(b)
	require.Equal(b, warm.On, st.State, st.Reason)
	py, err := warm.Interpreter(s.script, "")
	require.NoError(b, err)
	b.ResetTimer()
	c := compare(b, s, "warmdemo:main", py, []string{"hello"}, b.N, func(out []byte) { require.Equal(b, "hello world\n", string(out)) })
	b.StopTimer()
	c.report(b, "")
	b.ReportMetric(float64(st.ReadyMS), "template-ready-ms")
	b.ReportMetric(float64(s.pool.Status().RSS>>20), "template-rss-MiB")
}

// BenchmarkWarmAWS does the same for the real aws CLI (awscli 1.x, Python,
// not Click) on two offline verbs, and checks every warm call's stdout
// against the cold calls'. Its per-call work after the import is real (each
// call builds a botocore session and loads its data files), so the gain is
// smaller than the demo CLI's.
//
// "configure list" is byte-identical cold and warm. The ec2 skeleton is not
// even between two cold runs: botocore fills each enum with
// random.choice(shape.enum) (botocore/utils.py:1243), and a warm child's
// random is reseeded at the fork as a fresh interpreter's is seeded. Its
// calls are compared with every string blanked, and the benchmark reports
// how many cold runs differed from the first byte for byte.
func BenchmarkWarmAWS(b *testing.B) {
	py := python(b)
	script := filepath.Join(filepath.Dir(py), "aws")
	if _, err := os.Stat(script); err != nil {
		b.Skipf("no aws CLI next to %s", py)
	}
	list := []string{"configure", "list"}
	skeleton := []string{"ec2", "run-instances", "--generate-cli-skeleton"}
	home := b.TempDir() // no ~/.aws: every call says the same
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + os.TempDir()}
	r, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(b, err)
	defer r.Close()
	w := annotations.Warm{Entry: "awscli.clidriver:main", Warmup: [][]string{list, skeleton}, Verify: [][]string{list}}
	interp, err := warm.Interpreter(script, "")
	require.NoError(b, err)
	pool := warm.Start(warm.Config{Warm: w, Python: interp, Script: script, Env: env, Dir: home, Runner: r})
	defer pool.Close()
	s := &setup{script: script, runner: r, pool: pool, env: env, dir: home}
	st := s.settled(b)
	require.Equal(b, warm.On, st.State, st.Reason)
	b.ReportMetric(float64(st.ReadyMS), "template-ready-ms")
	b.ReportMetric(float64(pool.Status().RSS>>20), "template-rss-MiB")

	var want []byte
	c := compare(b, s, w.Entry, interp, list, b.N, func(out []byte) {
		if want == nil {
			want = bytes.Clone(out)
		}
		require.Equal(b, string(want), string(out), "stdout is byte-identical cold and warm")
	})
	c.report(b, "configure-")

	var first, shape []byte
	differs := 0
	c = compare(b, s, w.Entry, interp, skeleton, b.N, func(out []byte) {
		if first == nil {
			first, shape = bytes.Clone(out), blankStrings(b, out)
		}
		if !bytes.Equal(first, out) {
			differs++
		}
		require.Equal(b, string(shape), string(blankStrings(b, out)), "the skeleton is the same but for its random enum values")
	})
	c.report(b, "ec2-")
	b.ReportMetric(float64(differs), "ec2-runs-differing-bytewise")
}

// blankStrings is a JSON document with every string value emptied.
func blankStrings(b *testing.B, doc []byte) []byte {
	var v any
	require.NoError(b, json.Unmarshal(doc, &v))
	var blank func(any) any
	blank = func(v any) any {
		switch x := v.(type) {
		case string:
			return ""
		case []any:
			for i := range x {
				x[i] = blank(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = blank(x[k])
			}
		}
		return v
	}
	out, err := json.Marshal(blank(v))
	require.NoError(b, err)
	return out
}

// BenchmarkWarmKillLatency: from the deadline to Run's return with the tree
// confirmed dead, for the same tree (the call and a setsid grandchild, both
// waiting) started cold and warm, interleaved, on each tree mechanism.
func BenchmarkWarmKillLatency(b *testing.B) {
	for _, m := range []struct {
		name    string
		disable []callruntime.Mechanism
	}{{"cgroup", nil}, {"procwalk", []callruntime.Mechanism{callruntime.CgroupV2}}} {
		b.Run(m.name, func(b *testing.B) {
			s := newSetup(b, annotations.Warm{}, baseEnv("0"), m.disable...)
			st := s.settled(b)
			require.Equal(b, warm.On, st.State, st.Reason)
			require.Equal(b, m.name, s.runner.Tree())
			const timeout = 1500 * time.Millisecond
			var cold, hot []time.Duration
			for b.Loop() {
				for _, isWarm := range []bool{false, true} {
					spec := s.spec("daemon", "--stay", "60")
					spec.Timeout = timeout
					run := s.runner.Run
					if isWarm {
						run = s.pool.Run
					}
					res, err := run(context.Background(), spec)
					require.NoError(b, err)
					require.Equal(b, callruntime.TimedOut, res.End)
					require.True(b, res.TreeDead)
					require.Len(b, pidLines(b, res.Stdout.Head), 2, "the grandchild had started")
					if isWarm {
						hot = append(hot, res.Duration-timeout)
					} else {
						cold = append(cold, res.Duration-timeout)
					}
				}
			}
			b.ReportMetric(ms(quantile(cold, 0.5)), "cold-kill-ms-median")
			b.ReportMetric(ms(quantile(cold, 0.9)), "cold-kill-ms-p90")
			b.ReportMetric(ms(quantile(hot, 0.5)), "warm-kill-ms-median")
			b.ReportMetric(ms(quantile(hot, 0.9)), "warm-kill-ms-p90")
		})
	}
}

// comparison is one verb's calls cold, warm and in process.
type comparison struct {
	cold, warm, inProcess []time.Duration
	first                 time.Duration // the first warm call
}

// compare calls argv n times each warm, cold and in process, interleaved
// (one of each per round, so that all three see the same machine), after a
// first warm call; check sees each call's stdout; each of also runs once a
// round, after them.
func compare(b *testing.B, s *setup, entry, py string, argv []string, n int, check func([]byte), also ...func()) comparison {
	b.Helper()
	var c comparison
	call := func(isWarm bool) time.Duration {
		spec := s.spec(argv...)
		spec.MaxStdout = 1 << 20
		begin := time.Now()
		var res callruntime.Result
		var err error
		if isWarm {
			res, err = s.pool.Run(context.Background(), spec)
		} else {
			res, err = s.runner.Run(context.Background(), spec)
		}
		d := time.Since(begin)
		require.NoError(b, err)
		require.Equal(b, 0, res.ExitCode, "stderr: %s", res.Stderr.Head)
		check(res.Stdout.Head)
		return d
	}
	in := startInProcess(b, py, s.script, entry, s.env, s.dir, argv)
	c.first = call(true)
	// Cold before warm: a warm call comes a cold run after the one before
	// it, as calls a person or a model asks for do, so the template's
	// spare has been made (right after the first warm call it has not:
	// first-warm-ms, then the next call, show that case).
	for i := 0; i < n; i++ {
		c.cold = append(c.cold, call(false))
		c.warm = append(c.warm, call(true))
		c.inProcess = append(c.inProcess, in.call(b))
		for _, f := range also {
			f()
		}
	}
	return c
}

func (c comparison) report(b *testing.B, prefix string) {
	b.ReportMetric(ms(quantile(c.cold, 0.5)), prefix+"cold-ms-median")
	b.ReportMetric(ms(quantile(c.cold, 0.9)), prefix+"cold-ms-p90")
	b.ReportMetric(ms(quantile(c.warm, 0.5)), prefix+"warm-ms-median")
	b.ReportMetric(ms(quantile(c.warm, 0.9)), prefix+"warm-ms-p90")
	b.ReportMetric(ms(quantile(c.inProcess, 0.5)), prefix+"inprocess-ms-median")
	b.ReportMetric(ms(quantile(c.warm, 0.5)-quantile(c.inProcess, 0.5)), prefix+"warm-over-inprocess-ms")
	b.ReportMetric(float64(quantile(c.cold, 0.5))/float64(quantile(c.warm, 0.5)), prefix+"cold/warm")
	b.ReportMetric(ms(c.first), prefix+"first-warm-ms")
}

// inProcessSource is the CLI's own in-process run: one interpreter that
// imports the entry point and, for each line it reads, calls it with argv
// (stdout on the null device) and answers with the call's seconds. It calls
// it once before the first line, so that what the verb loads is loaded.
const inProcessSource = `
import json, os, sys, time
script, entry, argv = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
sys.path[0] = os.path.dirname(os.path.realpath(script))
mod, _, attr = entry.partition(":")
fn = __import__(mod, fromlist=["_"])
for part in attr.split("."):
    fn = getattr(fn, part)
answers = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
def once():
    sys.argv = [script] + argv
    t = time.perf_counter()
    try:
        fn()
    except SystemExit:
        pass
    sys.stdout.flush()
    return time.perf_counter() - t
once()
answers.write("ready\n")
answers.flush()
for _ in sys.stdin:
    answers.write("%.9f\n" % once())
    answers.flush()
`

// inProcessRun is a running inProcessSource.
type inProcessRun struct {
	in  io.WriteCloser
	out *bufio.Reader
}

func startInProcess(b *testing.B, py, script, entry string, env []string, dir string, argv []string) *inProcessRun {
	b.Helper()
	args, _ := json.Marshal(argv)
	cmd := exec.Command(py, "-c", inProcessSource, script, entry, string(args))
	cmd.Env, cmd.Dir = env, dir
	in, err := cmd.StdinPipe()
	require.NoError(b, err)
	out, err := cmd.StdoutPipe()
	require.NoError(b, err)
	require.NoError(b, cmd.Start())
	b.Cleanup(func() { in.Close(); _ = cmd.Wait() })
	r := &inProcessRun{in: in, out: bufio.NewReader(out)}
	line, err := r.out.ReadString('\n')
	require.NoError(b, err)
	require.Equal(b, "ready\n", line)
	return r
}

// call is one in-process call's duration, as the interpreter timed it.
func (r *inProcessRun) call(b *testing.B) time.Duration {
	_, err := r.in.Write([]byte("go\n"))
	require.NoError(b, err)
	line, err := r.out.ReadString('\n')
	require.NoError(b, err)
	secs, err := strconv.ParseFloat(strings.TrimSpace(line), 64)
	require.NoError(b, err)
	return time.Duration(secs * float64(time.Second))
}

func quantile(ds []time.Duration, p float64) time.Duration {
	sorted := append([]time.Duration{}, ds...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	return sorted[int(p*float64(len(sorted)-1))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
