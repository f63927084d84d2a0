package find

import (
	"slices"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// BenchmarkNewIndex: what the first aeat_mcp_find call pays to build the
// whole aeat's index — its words (the tools' texts and the paraphrases)
// and then its examples (rankexamples.go) — each timed in every
// iteration, interleaved; x-examples is the examples' share against the
// words'. The server builds the index at the first query, not at start.
func BenchmarkNewIndex(b *testing.B) {
	m, err := annotations.Load(fullAeatManifest)
	if err != nil {
		b.Fatal(err)
	}
	p, ex := paraphrasesFor(m.CLI.Command), examplesFor(m.CLI.Command)
	var tWords, tExamples []float64
	for b.Loop() {
		t0 := time.Now()
		idx := newRankIndex(m.Tools, p)
		t1 := time.Now()
		idx.withExamples(ex)
		t2 := time.Now()
		tWords = append(tWords, float64(t1.Sub(t0).Nanoseconds())/1e6)
		tExamples = append(tExamples, float64(t2.Sub(t1).Nanoseconds())/1e6)
	}
	median := func(v []float64) float64 {
		slices.Sort(v)
		return v[len(v)/2]
	}
	b.ReportMetric(median(tWords), "ms-words")
	b.ReportMetric(median(tExamples), "ms-examples")
	b.ReportMetric(median(tExamples)/median(tWords), "x-examples")
}
