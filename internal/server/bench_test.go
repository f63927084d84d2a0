//go:build linux

package server

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"sort"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkRawExec is the floor for BenchmarkToolCall: the same program and
// verb, exec'd bare.
func BenchmarkRawExec(b *testing.B) {
	b.Run("c1", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command(fakecli, "echo", "--", "hola").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("c8", func(b *testing.B) {
		b.SetParallelism(4) // × GOMAXPROCS 2 = 8 in flight
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := exec.Command(fakecli, "echo", "--", "hola").Run(); err != nil {
					b.Error(err)
				}
			}
		})
	})
}

// BenchmarkToolCall is one tools/call of read_echo through the whole server
// path — JSON-RPC over the in-memory transport, schema validation, argv
// rendering, supervised run, result mapping — as a client sees it.
func BenchmarkToolCall(b *testing.B) {
	s := newServer(b, nil)
	cs := connect(b, s, "", nil)
	params := &mcp.CallToolParams{Name: "read_echo", Arguments: map[string]any{"text": "hola"}}
	call := func() error {
		res, err := cs.CallTool(context.Background(), params)
		if err == nil && res.IsError {
			b.Errorf("call failed: %s", text(res))
		}
		return err
	}
	b.Run("c1", func(b *testing.B) {
		for b.Loop() {
			if err := call(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("c8", func(b *testing.B) {
		b.SetParallelism(4)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := call(); err != nil {
					b.Error(err)
				}
			}
		})
	})
}

// BenchmarkStartToInitialize measures what a host waits for: from spawning
// the aeat-mcp binary to its answer to initialize. Reports the median.
func BenchmarkStartToInitialize(b *testing.B) {
	manifest := testManifestPath(b)
	var lat []float64
	for b.Loop() {
		cmd := exec.Command(binary, "--manifest", manifest, "--log-level", "error")
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		_, _ = io.WriteString(in, initLine+"\n")
		if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, float64(time.Since(start))/float64(time.Millisecond))
		in.Close()
		_ = cmd.Wait()
	}
	sort.Float64s(lat)
	b.ReportMetric(lat[len(lat)/2], "ms-median")
	b.ReportMetric(lat[len(lat)*9/10], "ms-p90")
}
