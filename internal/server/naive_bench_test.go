//go:build linux

package server

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The floor a wrapper of a CLI is measured against (issue 11): a naive
// go-sdk server whose one tool runs exec.CommandContext(...).Output() —
// no supervision, no limits, no tree kill (it leaks every tree a CLI
// leaves behind and holds all of its output in memory). aeat-mcp should
// cost no more than it while keeping every guarantee. Every comparison is
// interleaved in one run, on the same fake CLI and verb.

// naiveServer is that server.
func naiveServer(cli string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "naive", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "read_echo", InputSchema: map[string]any{
		"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			out, err := exec.CommandContext(ctx, cli, "echo", "--", args.Text).Output()
			if err != nil {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}, nil
		})
	return s
}

// naiveMain serves the naive server on stdio: this test binary plays it
// when SERVER_TEST_HELPER=naive.
func init() {
	testMainHelpers["naive"] = naiveMain
}

func naiveMain() int {
	if err := naiveServer(os.Getenv("NAIVE_CLI")).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}

// naiveCmd and aeatCmd start the two servers as a host would.
func naiveCmd() *exec.Cmd {
	self, _ := os.Executable()
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), "SERVER_TEST_HELPER=naive", "NAIVE_CLI="+fakecli)
	return cmd
}

func aeatCmd(tb testing.TB) *exec.Cmd {
	// The default log level: a host runs it so, and its per-call line is
	// part of the cost.
	return exec.Command(binary, "--manifest", testManifestPath(tb))
}

// pair is the two servers with one client session each.
type pair struct{ naive, aeat *mcp.ClientSession }

func (p pair) close() {
	p.naive.Close()
	p.aeat.Close()
}

func stdioPair(b *testing.B) pair {
	b.Helper()
	connect := func(cmd *exec.Cmd) *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
			Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			b.Fatal(err)
		}
		return cs
	}
	return pair{naive: connect(naiveCmd()), aeat: connect(aeatCmd(b))}
}

func memoryPair(b *testing.B) pair {
	b.Helper()
	connect := func(serve func(mcp.Transport) error) *mcp.ClientSession {
		ct, st := mcp.NewInMemoryTransports()
		if err := serve(st); err != nil {
			b.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		return cs
	}
	naive, aeat := naiveServer(fakecli), newServer(b, nil)
	return pair{
		naive: connect(func(t mcp.Transport) error { _, err := naive.Connect(context.Background(), t, nil); return err }),
		aeat:  connect(func(t mcp.Transport) error { _, err := aeat.Connect(context.Background(), t); return err }),
	}
}

// pairModes are the two ways the servers are reached.
var pairModes = []struct {
	name string
	open func(*testing.B) pair
}{{"stdio", stdioPair}, {"inmemory", memoryPair}}

var echoParams = &mcp.CallToolParams{Name: "read_echo", Arguments: map[string]any{"text": "hola"}}

func callEcho(b *testing.B, cs *mcp.ClientSession) {
	res, err := cs.CallTool(context.Background(), echoParams)
	if err != nil {
		b.Fatal(err)
	}
	if res.IsError {
		b.Fatalf("call failed: %s", text(res))
	}
}

// BenchmarkVsNaive: one call at a time, naive and aeat-mcp alternating
// (who goes first alternates too), through a real stdio pipe to the two
// binaries and in memory. x-naive is the ratio of the medians; the target
// is ≤ 1.00.
func BenchmarkVsNaive(b *testing.B) {
	for _, mode := range pairModes {
		b.Run(mode.name, func(b *testing.B) {
			p := mode.open(b)
			defer p.close()
			callEcho(b, p.naive) // warm both up
			callEcho(b, p.aeat)
			var naive, aeat []float64
			i := 0
			for b.Loop() {
				order := []*mcp.ClientSession{p.naive, p.aeat}
				if i%2 == 1 {
					order[0], order[1] = order[1], order[0]
				}
				for _, cs := range order {
					t0 := time.Now()
					callEcho(b, cs)
					d := float64(time.Since(t0))
					if cs == p.naive {
						naive = append(naive, d)
					} else {
						aeat = append(aeat, d)
					}
				}
				i++
			}
			b.ReportMetric(median(naive)/1e6, "ms-naive")
			b.ReportMetric(median(aeat)/1e6, "ms-aeat")
			b.ReportMetric(median(aeat)/median(naive), "x-naive")
		})
	}
}

// BenchmarkThroughputVsNaive: 8 calls in flight, rounds of 64 alternating
// between the two servers; x-naive-throughput is aeat-mcp's calls per
// second over the naive server's (target ≥ 1.00).
func BenchmarkThroughputVsNaive(b *testing.B) {
	for _, mode := range pairModes {
		b.Run(mode.name, func(b *testing.B) {
			p := mode.open(b)
			defer p.close()
			const inFlight, perRound = 8, 64
			round := func(cs *mcp.ClientSession) time.Duration {
				var wg sync.WaitGroup
				work := make(chan struct{}, perRound)
				for range perRound {
					work <- struct{}{}
				}
				close(work)
				start := time.Now()
				for range inFlight {
					wg.Go(func() {
						for range work {
							if _, err := cs.CallTool(context.Background(), echoParams); err != nil {
								b.Error(err)
							}
						}
					})
				}
				wg.Wait()
				return time.Since(start)
			}
			var naiveT, aeatT time.Duration
			i := 0
			for b.Loop() {
				if i%2 == 0 {
					naiveT += round(p.naive)
					aeatT += round(p.aeat)
				} else {
					aeatT += round(p.aeat)
					naiveT += round(p.naive)
				}
				i++
			}
			b.ReportMetric(float64(perRound*b.N)/naiveT.Seconds(), "naive-calls/s")
			b.ReportMetric(float64(perRound*b.N)/aeatT.Seconds(), "aeat-calls/s")
			b.ReportMetric(naiveT.Seconds()/aeatT.Seconds(), "x-naive-throughput")
		})
	}
}

// BenchmarkStartVsNaive: from spawning each server to its answer to
// initialize, alternating; ms-over-naive is the difference of the medians
// (target ≤ 1 ms).
func BenchmarkStartVsNaive(b *testing.B) {
	var naive, aeat []float64
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			naive = append(naive, msToInitialize(b, naiveCmd()))
			aeat = append(aeat, msToInitialize(b, aeatCmd(b)))
		} else {
			aeat = append(aeat, msToInitialize(b, aeatCmd(b)))
			naive = append(naive, msToInitialize(b, naiveCmd()))
		}
		i++
	}
	b.ReportMetric(median(naive), "ms-naive")
	b.ReportMetric(median(aeat), "ms-aeat")
	b.ReportMetric(median(aeat)-median(naive), "ms-over-naive")
}

// BenchmarkIdleMemory: what a served but idle aeat-mcp holds — its own
// resident size after initialize and one call (MiB-server-rss), and the
// lifeline's private memory (MiB-lifeline-private), the part it does not
// share with the server's binary pages. Targets: ≤ 12 and ≤ 2.
func BenchmarkIdleMemory(b *testing.B) {
	var server, lifeline []float64
	for b.Loop() {
		cmd := aeatCmd(b)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
			Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			b.Fatal(err)
		}
		callEcho(b, cs)
		time.Sleep(200 * time.Millisecond)
		pid := cmd.Process.Pid
		server = append(server, float64(procKB(b, pid, "status", "VmRSS:"))/1024)
		lifelinePid := 0
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			if strings.HasPrefix(string(cmdline), "aeat-mcp-lifeline\x00") && ppidOf(e.Name()) == pid {
				lifelinePid, _ = strconv.Atoi(e.Name())
			}
		}
		if lifelinePid == 0 {
			b.Fatal("no lifeline found")
		}
		priv := procKB(b, lifelinePid, "smaps_rollup", "Private_Clean:") + procKB(b, lifelinePid, "smaps_rollup", "Private_Dirty:")
		lifeline = append(lifeline, float64(priv)/1024)
		cs.Close()
	}
	b.ReportMetric(median(server), "MiB-server-rss")
	b.ReportMetric(median(lifeline), "MiB-lifeline-private")
}

func procKB(b *testing.B, pid int, file, key string) int {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/" + file)
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			n, _ := strconv.Atoi(strings.Fields(rest)[0])
			return n
		}
	}
	b.Fatalf("no %s in /proc/%d/%s", key, pid, file)
	return 0
}

func ppidOf(pid string) int {
	raw, _ := os.ReadFile("/proc/" + pid + "/stat")
	s := string(raw)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}
