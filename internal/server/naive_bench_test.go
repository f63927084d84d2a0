//go:build linux

package server

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/aeat-mcp/aeat-mcp/testdata/naivemcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The floor a wrapper of a CLI is measured against (issue 11) is
// naivemcp.Server (testdata/naivemcp), on the same fake CLI and verb; every
// comparison is interleaved in one run. Over stdio it is its own binary,
// as a host would start one: built at the first use.
func naiveBinary(tb testing.TB) string { return proctest.Build(tb, "testdata/naivemcp/cmd") }

// naiveCmd and aeatCmd start the two servers as a host would.
func naiveCmd(tb testing.TB) *exec.Cmd {
	cmd := exec.Command(naiveBinary(tb))
	cmd.Env = append(os.Environ(), "NAIVE_CLI="+fakecli)
	return cmd
}

func aeatCmd(tb testing.TB) *exec.Cmd { return aeatCmdOf(tb, aeatMCP(tb), "cache") }

// aeatCmdOf starts the aeat-mcp binary bin with the bench manifest and the
// cache directory named cache beside it: each binary its own, or two
// builds would rewrite one cache file in turn (the key holds the
// executable's size and mtime).
func aeatCmdOf(tb testing.TB, bin, cache string) *exec.Cmd {
	manifest, err := benchManifest()
	if err != nil {
		tb.Fatal(err)
	}
	// The default log level: a host runs it so, and its per-call line is
	// part of the cost.
	cmd := exec.Command(bin, "--manifest", manifest)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(filepath.Dir(manifest), cache))
	return cmd
}

// baselineBinary is the aeat-mcp binary a change is measured against in the
// same run as the change — built from an earlier commit, named by
// AEAT_MCP_BASELINE — or "" for none.
func baselineBinary(tb testing.TB) string {
	bin := os.Getenv("AEAT_MCP_BASELINE")
	if bin == "" {
		return ""
	}
	return proctest.Installed(tb, bin) // as the binaries it is compared with (proctest.Build)
}

// benchManifest is the test manifest at one path for every start, with a
// cache directory of its own beside it, as a host starts the server: from
// the second start on, the manifest comes from the cache (a path of its own
// per start missed the cache every time, parsed and wrote it, and left a
// file per start in the user's cache).
var benchManifest = sync.OnceValues(func() (string, error) {
	raw, err := os.ReadFile("testdata/test.manifest.json")
	if err != nil {
		return "", err
	}
	quoted, err := json.Marshal(fakecli)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(filepath.Dir(fakecli), "bench-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "test.manifest.json")
	return path, os.WriteFile(path, []byte(strings.ReplaceAll(string(raw), `"FAKECLI"`, string(quoted))), 0o644)
})

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
	return pair{naive: connect(naiveCmd(b)), aeat: connect(aeatCmd(b))}
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
	naive, aeat := naivemcp.Server(fakecli), newServer(b, nil)
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
// (target ≤ 1 ms). Beside the wall time, each server's CPU time until its
// answer (every thread's, from /proc/PID/task/*/schedstat), which a loaded
// machine inflates far less, its minor page faults until then, and the two
// binaries' sizes. With AEAT_MCP_BASELINE naming an aeat-mcp binary built
// from an earlier commit, that binary takes its turn in the same rotation,
// and its figures are printed as *-base: a before and after measured in
// the same run, at the same load.
func BenchmarkStartVsNaive(b *testing.B) {
	type side struct {
		cmd               func() *exec.Cmd
		wall, cpu, faults []float64
	}
	naive := &side{cmd: func() *exec.Cmd { return naiveCmd(b) }}
	aeat := &side{cmd: func() *exec.Cmd { return aeatCmd(b) }}
	sides := []*side{naive, aeat}
	var base *side
	if bin := baselineBinary(b); bin != "" {
		base = &side{cmd: func() *exec.Cmd { return aeatCmdOf(b, bin, "cache-base") }}
		sides = append(sides, base)
	}
	start := func(s *side) {
		s.wall = append(s.wall, msToInitializeThen(b, s.cmd(), func(pid int) {
			cpu, faults := startCPU(b, pid)
			s.cpu = append(s.cpu, cpu)
			s.faults = append(s.faults, faults)
		}))
	}
	// One start of each first, untimed: the manifest cache is written, and
	// the binaries are in the page cache, as for a host's every start.
	for _, s := range sides {
		msToInitialize(b, s.cmd())
	}
	// Every order of the sides in turn, not a rotation: a rotation of
	// three keeps who follows whom (aeat always after naive, base always
	// after aeat), and a start may pay for its predecessor's exit.
	orders := orderings(len(sides))
	i := 0
	for b.Loop() {
		for _, k := range orders[i%len(orders)] {
			start(sides[k])
		}
		i++
	}
	b.ReportMetric(median(naive.wall), "ms-naive")
	b.ReportMetric(median(aeat.wall), "ms-aeat")
	b.ReportMetric(median(aeat.wall)-median(naive.wall), "ms-over-naive")
	b.ReportMetric(median(naive.cpu), "cpu-ms-naive")
	b.ReportMetric(median(aeat.cpu), "cpu-ms-aeat")
	b.ReportMetric(median(aeat.cpu)-median(naive.cpu), "cpu-ms-over-naive")
	b.ReportMetric(median(aeat.faults)-median(naive.faults), "faults-over-naive")
	b.ReportMetric(fileMB(b, aeatMCP(b)), "MB-aeat-binary")
	b.ReportMetric(fileMB(b, naiveBinary(b)), "MB-naive-binary")
	if base != nil {
		b.ReportMetric(median(base.wall)-median(naive.wall), "ms-over-naive-base")
		b.ReportMetric(median(base.cpu)-median(naive.cpu), "cpu-ms-over-naive-base")
		b.ReportMetric(median(base.faults)-median(naive.faults), "faults-over-naive-base")
		b.ReportMetric(fileMB(b, baselineBinary(b)), "MB-base-binary")
	}
}

// orderings are the n! orders of 0..n-1.
func orderings(n int) [][]int {
	if n == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for _, o := range orderings(n - 1) {
		for at := 0; at <= len(o); at++ {
			out = append(out, append(append(append([]int{}, o[:at]...), n-1), o[at:]...))
		}
	}
	return out
}

// startCPU is the CPU time pid's threads have had so far, in ms, and its
// minor page faults.
func startCPU(b *testing.B, pid int) (ms, faults float64) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var ns int64
	for _, t := range tasks {
		raw, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue // a thread that ended
		}
		f := strings.Fields(string(raw))
		n, _ := strconv.ParseInt(f[0], 10, 64)
		ns += n
	}
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		b.Fatal(err)
	}
	st := string(raw)
	f := strings.Fields(st[strings.LastIndexByte(st, ')')+1:])
	minflt, _ := strconv.ParseFloat(f[7], 64) // field 10 of stat: minflt
	return float64(ns) / 1e6, minflt
}

func fileMB(b *testing.B, path string) float64 {
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return float64(fi.Size()) / 1e6
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
