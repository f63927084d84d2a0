//go:build linux

package warm_test

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/require"
)

// BenchmarkWarmVsCold runs the demo CLI's "hello" (an import of about a
// second, then a line) cold and warm in one run, through the same runner,
// and reports each one's median and p90 per call, their ratio, the first
// warm call after the template was ready, the template's start-up and its
// resident memory. scripts/bench-warm runs it.
func BenchmarkWarmVsCold(b *testing.B) {
	s := newSetup(b, annotations.Warm{Verify: [][]string{{"hello"}}}, baseEnv("1"))
	st := s.settled(b)
	require.Equal(b, warm.On, st.State, st.Reason)
	measure := func(adopt bool) []time.Duration {
		var ds []time.Duration
		for i := 0; i < b.N; i++ {
			spec := s.spec("hello")
			begin := time.Now()
			var res callruntime.Result
			var err error
			if adopt {
				res, err = s.pool.Run(context.Background(), spec)
			} else {
				res, err = s.runner.Run(context.Background(), spec)
			}
			ds = append(ds, time.Since(begin))
			require.NoError(b, err)
			require.Equal(b, "hello world\n", string(res.Stdout.Head))
		}
		return ds
	}
	b.ResetTimer()
	first := measure(true)[0]
	warmRuns := measure(true)
	coldRuns := measure(false)
	b.StopTimer()
	q := func(ds []time.Duration, p float64) float64 {
		sorted := append([]time.Duration{}, ds...)
		sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
		return float64(sorted[int(p*float64(len(sorted)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(q(coldRuns, 0.5), "cold-ms-median")
	b.ReportMetric(q(coldRuns, 0.9), "cold-ms-p90")
	b.ReportMetric(q(warmRuns, 0.5), "warm-ms-median")
	b.ReportMetric(q(warmRuns, 0.9), "warm-ms-p90")
	b.ReportMetric(q(coldRuns, 0.5)/q(warmRuns, 0.5), "cold/warm")
	b.ReportMetric(float64(first.Microseconds())/1000, "first-warm-ms")
	b.ReportMetric(float64(st.ReadyMS), "template-ready-ms")
	b.ReportMetric(float64(s.pool.Status().RSS>>20), "template-rss-MiB")
}
