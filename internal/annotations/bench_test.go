package annotations_test

import (
	"encoding/json"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// BenchmarkLoad loads the whole aeat (examples/aeat.full.manifest.json,
// every verb) and the 19-verb core (examples/aeat.manifest.json) as the
// server does at start-up, against the floor of decoding the full one as
// plain JSON, all three interleaved in each iteration: these machines are
// shared and noisy, and ratios measured in one loop hold.
func BenchmarkLoad(b *testing.B) {
	full, err := os.ReadFile("../../examples/aeat.full.manifest.json")
	if err != nil {
		b.Fatal(err)
	}
	core, err := os.ReadFile("../../examples/aeat.manifest.json")
	if err != nil {
		b.Fatal(err)
	}
	var floor, loadFull, loadCore []float64
	tools := 0
	for b.Loop() {
		floor = append(floor, timed(func() {
			var v any
			if err := json.Unmarshal(full, &v); err != nil {
				b.Fatal(err)
			}
		}))
		loadFull = append(loadFull, timed(func() {
			m, err := annotations.Parse(full, "")
			if err != nil {
				b.Fatal(err)
			}
			tools = len(m.Tools)
		}))
		loadCore = append(loadCore, timed(func() {
			if _, err := annotations.Parse(core, ""); err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.ReportMetric(float64(tools), "tools-full")
	b.ReportMetric(float64(len(full))/1024, "KiB-full")
	b.ReportMetric(median(floor)/1e6, "ms-json-decode-full")
	b.ReportMetric(median(loadFull)/1e6, "ms-load-full")
	b.ReportMetric(median(loadCore)/1e6, "ms-load-core")
	b.ReportMetric(median(loadFull)/median(floor), "x-json-decode")
	b.ReportMetric((median(loadFull)-median(loadCore))/1e6, "ms-full-minus-core")
}

func timed(f func()) float64 {
	start := time.Now()
	f()
	return float64(time.Since(start).Nanoseconds())
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// BenchmarkLoadCached: the whole aeat loaded through a warm cache
// (annotations.Cache: read, check, decode) against loading it afresh and
// against the 19-verb core loaded afresh, interleaved.
func BenchmarkLoadCached(b *testing.B) {
	c := &annotations.Cache{Dir: b.TempDir(), Version: "bench"}
	const full, core = "../../examples/aeat.full.manifest.json", "../../examples/aeat.manifest.json"
	if _, err := c.Load(full); err != nil {
		b.Fatal(err)
	}
	var cached, fresh, curated []float64
	for b.Loop() {
		cached = append(cached, timed(func() {
			if _, err := c.Load(full); err != nil {
				b.Fatal(err)
			}
		}))
		fresh = append(fresh, timed(func() {
			if _, err := annotations.Load(full); err != nil {
				b.Fatal(err)
			}
		}))
		curated = append(curated, timed(func() {
			if _, err := annotations.Load(core); err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.ReportMetric(median(cached)/1e6, "ms-full-cached")
	b.ReportMetric(median(fresh)/1e6, "ms-full-fresh")
	b.ReportMetric(median(curated)/1e6, "ms-curated-fresh")
	b.ReportMetric(median(fresh)/median(cached), "x-faster")
}

// BenchmarkLoadCachedVsCurated: a start's load through a warm cache, the
// whole aeat beside the curated 19, interleaved — the in-process part of
// what the whole CLI costs a start over the curated one (issue 32 item
// 2's target: ≤ 3 ms, measured on the built binary by the server's
// BenchmarkStartFullVsCurated). ms-gap is the difference of the medians.
func BenchmarkLoadCachedVsCurated(b *testing.B) {
	c := &annotations.Cache{Dir: b.TempDir(), Version: "bench"}
	const full, core = "../../examples/aeat.full.manifest.json", "../../examples/aeat.manifest.json"
	for _, path := range []string{full, core} {
		if _, err := c.Load(path); err != nil {
			b.Fatal(err)
		}
	}
	load := func(path string) {
		if _, err := c.Load(path); err != nil {
			b.Fatal(err)
		}
	}
	var f, k []float64
	for b.Loop() {
		f = append(f, timed(func() { load(full) }))
		k = append(k, timed(func() { load(core) }))
	}
	b.ReportMetric(median(f)/1e6, "ms-full-cached")
	b.ReportMetric(median(k)/1e6, "ms-curated-cached")
	b.ReportMetric((median(f)-median(k))/1e6, "ms-gap")
}

// BenchmarkFirstDetail: what a start through a warm cache leaves to the
// first call — the whole aeat's first tool's params, which read the
// file's details part (cache_details.go) — beside the cached load itself
// and a second tool's params (the part then in memory), interleaved.
func BenchmarkFirstDetail(b *testing.B) {
	c := &annotations.Cache{Dir: b.TempDir(), Version: "bench"}
	const full = "../../examples/aeat.full.manifest.json"
	if _, err := c.Load(full); err != nil {
		b.Fatal(err)
	}
	var load, first, second []float64
	for b.Loop() {
		var m *annotations.Manifest
		load = append(load, timed(func() {
			var err error
			if m, err = c.Load(full); err != nil {
				b.Fatal(err)
			}
		}))
		first = append(first, timed(func() { _ = m.Tools[0].Params() }))
		second = append(second, timed(func() { _ = m.Tools[len(m.Tools)-1].Params() }))
	}
	b.ReportMetric(median(load)/1e6, "ms-cached-load")
	b.ReportMetric(median(first)/1e6, "ms-first-detail")
	b.ReportMetric(median(second)/1e6, "ms-second-detail")
}
