//go:build !windows

package generate

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"sort"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// Each benchmark interleaves, iteration by iteration, what it measures
// with a floor measured in the same loop, and reports both medians and
// their ratio: these machines are shared and noisy, ratios hold.

func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}

func timed(f func()) float64 {
	start := time.Now()
	f()
	return float64(time.Since(start).Nanoseconds())
}

// BenchmarkGenerateTree generates the real aeat's 303 verbs from
// commands.json (read, mapped, merged, encoded, and loaded to check it),
// against the floor of decoding the same file as plain JSON.
func BenchmarkGenerateTree(b *testing.B) {
	data := commandsJSON(b)
	var decode, gen []float64
	for i := 0; i < b.N; i++ {
		decode = append(decode, timed(func() {
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}))
		gen = append(gen, timed(func() {
			tree, err := ParseTree(data)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Generate(tree, Options{Program: "aeat"}); err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.ReportMetric(median(decode)/1e6, "ms-json-decode")
	b.ReportMetric(median(gen)/1e6, "ms-generate")
	b.ReportMetric(median(gen)/median(decode), "x-json-decode")
}

// BenchmarkLoadGenerated loads the generated 303-tool manifest as the
// server does at start-up, against decoding it as plain JSON, and loads
// the 19-tool example beside it.
func BenchmarkLoadGenerated(b *testing.B) {
	tree, err := ParseTree(commandsJSON(b))
	if err != nil {
		b.Fatal(err)
	}
	res, err := Generate(tree, Options{Program: "aeat"})
	if err != nil {
		b.Fatal(err)
	}
	example, err := os.ReadFile("../../examples/aeat.manifest.json")
	if err != nil {
		b.Fatal(err)
	}
	var decode, full, small []float64
	for i := 0; i < b.N; i++ {
		decode = append(decode, timed(func() {
			var v any
			if err := json.Unmarshal(res.Manifest, &v); err != nil {
				b.Fatal(err)
			}
		}))
		full = append(full, timed(func() {
			if _, err := annotations.Parse(res.Manifest, ""); err != nil {
				b.Fatal(err)
			}
		}))
		small = append(small, timed(func() {
			if _, err := annotations.Parse(example, ""); err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.ReportMetric(float64(len(res.Manifest))/1024, "KiB-manifest")
	b.ReportMetric(median(decode)/1e6, "ms-json-decode")
	b.ReportMetric(median(full)/1e6, "ms-load-303")
	b.ReportMetric(median(small)/1e6, "ms-load-19")
	b.ReportMetric(median(full)/median(decode), "x-json-decode")
}

// BenchmarkWalkClick walks testdata/clickcli with its own Python, against
// the floor of that Python starting and importing click.
func BenchmarkWalkClick(b *testing.B) {
	python := clickPython(b)
	script := clickScript(b, b.TempDir(), python, "shebang")
	ctx := context.Background()
	var floor, walk []float64
	for i := 0; i < b.N; i++ {
		floor = append(floor, timed(func() {
			if err := exec.Command(python, "-c", "import click").Run(); err != nil {
				b.Fatal(err)
			}
		}))
		walk = append(walk, timed(func() {
			tree, err := WalkClick(ctx, script, "")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Generate(tree, Options{}); err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.ReportMetric(median(floor)/1e6, "ms-python-import-click")
	b.ReportMetric(median(walk)/1e6, "ms-walk-generate")
	b.ReportMetric(median(walk)/median(floor), "x-python-import-click")
}

// BenchmarkWalkCobra walks testdata/cobracli through its help (one run per
// command), against the floor of one `cobracli help`.
func BenchmarkWalkCobra(b *testing.B) {
	bin := cobraCLI(b)
	ctx := context.Background()
	var floor, walk []float64
	for i := 0; i < b.N; i++ {
		floor = append(floor, timed(func() {
			if err := exec.Command(bin, "help").Run(); err != nil {
				b.Fatal(err)
			}
		}))
		walk = append(walk, timed(func() {
			tree, err := WalkCobra(ctx, bin)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Generate(tree, Options{}); err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.ReportMetric(median(floor)/1e6, "ms-one-help")
	b.ReportMetric(median(walk)/1e6, "ms-walk-generate")
	b.ReportMetric(median(walk)/median(floor), "x-one-help")
}
