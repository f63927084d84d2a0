package warm_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWarmSpareIsReplacedAndDiesWithItsTemplate: a template keeps one spare
// child, forked before any call. A spare that died is replaced, never
// handed a call; a template killed takes its spare with it
// (PR_SET_PDEATHSIG: dead at once — the server, its new parent, reaps it
// as any orphan, at the next call's end); Close leaves none behind.
func TestWarmSpareIsReplacedAndDiesWithItsTemplate(t *testing.T) {
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2"))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State, st.Reason)
	first := spareOf(t, st.TemplatePID, 0)
	require.NoError(t, syscall.Kill(first, syscall.SIGKILL))
	gone(t, first)

	res := s.run(t, context.Background(), s.spec("whoami"))
	require.Equal(t, callruntime.Exited, res.End)
	require.Equal(t, 0, res.ExitCode, "stderr %s", res.Stderr.Head)
	w := parseWhoami(t, res)
	assert.True(t, w.Warm)
	assert.NotEqual(t, first, w.Pid, "a dead spare is never handed a call")
	second := spareOf(t, st.TemplatePID, w.Pid)
	assert.NotEqual(t, first, second)

	require.NoError(t, syscall.Kill(st.TemplatePID, syscall.SIGKILL))
	dead(t, second)
	old := st.TemplatePID
	st = s.waitFor(t, "another template", func(st warm.Status) bool {
		return st.State == warm.On && st.TemplatePID != 0 && st.TemplatePID != old
	})
	third := spareOf(t, st.TemplatePID, 0)
	s.pool.Close()
	gone(t, st.TemplatePID)
	gone(t, third)
}

// spareOf waits until template has one live child other than not (a call's
// child, reaped once its call is over), and returns it: its spare.
func spareOf(t testing.TB, template, not int) int {
	t.Helper()
	deadline := time.Now().Add(settleBound)
	for {
		kids := liveChildren(template)
		delete(kids, not)
		if len(kids) == 1 {
			for pid := range kids {
				return pid
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("template %d: no one spare within %v (children %v)", template, settleBound, kids)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// dead waits until pid has exited: gone, or a zombie.
func dead(t testing.TB, pid int) {
	t.Helper()
	deadline := time.Now().Add(settleBound)
	for {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		i := strings.LastIndexByte(string(b), ')')
		if err != nil || (i > 0 && strings.HasPrefix(string(b[i+1:]), " Z")) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("pid %d still running after %v: %s", pid, settleBound, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// liveChildren are the processes whose parent is pid, zombies left out.
func liveChildren(pid int) map[int]bool {
	out := map[int]bool{}
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')') // the name before it may hold anything
		f := strings.Fields(string(b[i+1:]))
		if i < 0 || len(f) < 2 || f[0] == "Z" || f[1] != strconv.Itoa(pid) {
			continue
		}
		child, _ := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		out[child] = true
	}
	return out
}

// BenchmarkWarmSpare prices the spare on the demo CLI: "hello" (a line)
// and "scribble 8" (writes 2,048 pages its import kept, as a large CLI's
// calls write reference counts into what its import made), warm from a
// template with its spare and from one without, interleaved after a first
// call of each verb (what the template learns from): per-call medians,
// and with over without. A call handed to the spare skips the fork and
// the copies it learnt; a third template's spares are not born in berths
// (berth.go) and are moved into their calls' cgroups, as before berths:
// berth over moved is what the move cost.
func BenchmarkWarmSpare(b *testing.B) {
	env := baseEnv("0.5", "WARMDEMO_KEEP_MIB=16")
	restore := warm.SetSpares(false)
	without := newSetup(b, annotations.Warm{}, env)
	st := without.settled(b)
	restore()
	require.Equal(b, warm.On, st.State, st.Reason)
	restore = warm.SetBerths(false)
	moved := newSetup(b, annotations.Warm{}, env)
	st = moved.settled(b)
	restore()
	require.Equal(b, warm.On, st.State, st.Reason)
	with := newSetup(b, annotations.Warm{}, env)
	st = with.settled(b)
	require.Equal(b, warm.On, st.State, st.Reason)
	b.ResetTimer()
	for _, verb := range [][]string{{"hello"}, {"scribble", "8"}} {
		call := func(s *setup) time.Duration {
			began := time.Now()
			res := s.run(b, context.Background(), s.spec(verb...))
			took := time.Since(began)
			require.Equal(b, 0, res.ExitCode, "stderr %s", res.Stderr.Head)
			return took
		}
		call(with)
		call(moved)
		call(without)
		var ws, wm, wo []time.Duration
		for i := 0; i < b.N; i++ {
			ws = append(ws, call(with))
			wm = append(wm, call(moved))
			wo = append(wo, call(without))
		}
		name := strings.Join(verb, "-") + "-"
		b.ReportMetric(ms(quantile(ws, 0.5)), name+"spare-ms-median")
		b.ReportMetric(ms(quantile(wm, 0.5)), name+"moved-spare-ms-median")
		b.ReportMetric(ms(quantile(wo, 0.5)), name+"forked-ms-median")
		b.ReportMetric(float64(quantile(ws, 0.5))/float64(quantile(wo, 0.5)), name+"spare/forked")
		b.ReportMetric(float64(quantile(ws, 0.5))/float64(quantile(wm, 0.5)), name+"spare/moved-spare")
	}
	b.StopTimer()
	require.Positive(b, with.pool.Status().Spares)
	require.Positive(b, with.pool.Status().BornInCgroup, "spares born in their berths")
	require.Zero(b, moved.pool.Status().BornInCgroup, "spares moved")
	require.Zero(b, without.pool.Status().Spares)
}
