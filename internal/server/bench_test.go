//go:build linux

package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"sort"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
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

// BenchmarkToolCallVsRaw interleaves a raw exec and a tool call in every
// iteration and reports the ratio of their medians: on a shared, noisy
// machine the two then see the same conditions, which separate benchmarks
// run seconds apart do not.
func BenchmarkToolCallVsRaw(b *testing.B) {
	s := newServer(b, nil)
	cs := connect(b, s, "", nil)
	params := &mcp.CallToolParams{Name: "read_echo", Arguments: map[string]any{"text": "hola"}}
	var raw, tool []float64
	for b.Loop() {
		t0 := time.Now()
		if err := exec.Command(fakecli, "echo", "--", "hola").Run(); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := cs.CallTool(context.Background(), params); err != nil {
			b.Fatal(err)
		}
		raw = append(raw, float64(t1.Sub(t0)))
		tool = append(tool, float64(time.Since(t1)))
	}
	b.ReportMetric(median(raw)/1e6, "ms-raw")
	b.ReportMetric(median(tool)/1e6, "ms-call")
	b.ReportMetric(median(tool)/median(raw), "x-raw")
}

// BenchmarkThroughputVsRaw runs 8 calls at a time, alternating rounds of raw
// execs and of tool calls, and reports tool-call throughput as a fraction
// of raw-exec throughput.
func BenchmarkThroughputVsRaw(b *testing.B) {
	s := newServer(b, nil)
	cs := connect(b, s, "", nil)
	params := &mcp.CallToolParams{Name: "read_echo", Arguments: map[string]any{"text": "hola"}}
	const inFlight, perRound = 8, 64
	round := func(f func() error) time.Duration {
		start := time.Now()
		work := make(chan struct{}, perRound)
		for i := 0; i < perRound; i++ {
			work <- struct{}{}
		}
		close(work)
		done := make(chan struct{})
		for w := 0; w < inFlight; w++ {
			go func() {
				defer func() { done <- struct{}{} }()
				for range work {
					if err := f(); err != nil {
						b.Error(err)
					}
				}
			}()
		}
		for w := 0; w < inFlight; w++ {
			<-done
		}
		return time.Since(start)
	}
	var rawT, toolT time.Duration
	for b.Loop() {
		rawT += round(func() error { return exec.Command(fakecli, "echo", "--", "hola").Run() })
		toolT += round(func() error { _, err := cs.CallTool(context.Background(), params); return err })
	}
	b.ReportMetric(float64(perRound*b.N)/rawT.Seconds(), "raw-calls/s")
	b.ReportMetric(float64(perRound*b.N)/toolT.Seconds(), "tool-calls/s")
	b.ReportMetric(rawT.Seconds()/toolT.Seconds(), "x-raw-throughput")
}

// BenchmarkToolCallBreakdown times, interleaved in one loop, a raw exec, the
// supervised run alone, the tool handler called directly (validation,
// rendering, run, result), an MCP round trip to a tool that does nothing,
// and the whole tool call: where a call's time goes.
func BenchmarkToolCallBreakdown(b *testing.B) {
	s := newServer(b, nil)
	h := s.handler(s.table().registry["read_echo"])
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "read_echo", Arguments: json.RawMessage(`{"text":"hola"}`)}}
	spec := callruntime.Spec{Path: fakecli, Args: []string{"echo", "--", "hola"}, Filter: callruntime.RedactPrivateKeys, Env: s.env}
	cs := connect(b, s, "", nil)
	params := &mcp.CallToolParams{Name: "read_echo", Arguments: map[string]any{"text": "hola"}}

	empty := mcp.NewServer(&mcp.Implementation{Name: "empty"}, nil)
	empty.AddTool(&mcp.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hola"}}}, nil
	})
	ct, st := mcp.NewInMemoryTransports()
	if _, err := empty.Connect(context.Background(), st, nil); err != nil {
		b.Fatal(err)
	}
	ecs, err := mcp.NewClient(&mcp.Implementation{Name: "c"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ecs.Close()
	eparams := &mcp.CallToolParams{Name: "t", Arguments: map[string]any{"text": "hola"}}

	steps := []struct {
		name string
		run  func()
	}{
		{"raw", func() { _ = exec.Command(fakecli, "echo", "--", "hola").Run() }},
		{"run", func() { _, _ = s.cfg.Runner.Run(context.Background(), spec) }},
		{"handler", func() { _, _ = h(context.Background(), req) }},
		{"mcp-roundtrip", func() { _, _ = ecs.CallTool(context.Background(), eparams) }},
		{"toolcall", func() { _, _ = cs.CallTool(context.Background(), params) }},
	}
	times := make([][]float64, len(steps))
	for b.Loop() {
		for i, st := range steps {
			t0 := time.Now()
			st.run()
			times[i] = append(times[i], float64(time.Since(t0)))
		}
	}
	for i, st := range steps {
		b.ReportMetric(median(times[i])/1e6, "ms-"+st.name)
	}
}

func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}

// BenchmarkStartToInitialize measures what a host waits for: from spawning
// the aeat-mcp binary to its answer to initialize. Reports the median.
func BenchmarkStartToInitialize(b *testing.B) {
	manifest := testManifestPath(b)
	var lat []float64
	for b.Loop() {
		lat = append(lat, msToInitialize(b, exec.Command(aeatMCP(b), "--manifest", manifest, "--log-level", "error")))
	}
	sort.Float64s(lat)
	b.ReportMetric(lat[len(lat)/2], "ms-median")
	b.ReportMetric(lat[len(lat)*9/10], "ms-p90")
}

// msToInitialize starts cmd, a server, and returns the milliseconds until
// its answer to initialize; then it closes its stdin and waits for it.
func msToInitialize(b *testing.B, cmd *exec.Cmd) float64 {
	return msToInitializeThen(b, cmd, nil)
}

// msToInitializeThen is msToInitialize that calls answered (if not nil)
// with the server's pid once the answer is read, while the server still runs.
func msToInitializeThen(b *testing.B, cmd *exec.Cmd, answered func(pid int)) float64 {
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	_, _ = io.WriteString(in, initLine+"\n")
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		b.Fatal(err)
	}
	d := float64(time.Since(t0)) / 1e6
	if answered != nil {
		answered(cmd.Process.Pid)
	}
	in.Close()
	_ = cmd.Wait()
	return d
}
