//go:build linux

package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/find"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/text/language"
)

// The whole aeat on each surface (docs/catalog.md). Every benchmark here
// measures its subject and its floor in the same loop, interleaved, and
// reports the medians and their ratio: the machine is shared and noisy.

// curatedAeatManifest is the 19-verb curated example.
const curatedAeatManifest = "../../examples/aeat.manifest.json"

// surfaceServer serves path on surface, in memory, for b.
func surfaceServer(b *testing.B, path, surface string) *mcp.ClientSession {
	b.Helper()
	m, err := annotations.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	r, err := callruntime.NewRunner(callruntime.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	s, err := New(Config{Manifest: m, CLIPath: fakeaeat, Runner: r, Surface: surface, Printer: i18n.For(language.English)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Shutdown)
	return connect(b, s, "2025-11-25", nil)
}

func timedMS(f func()) float64 {
	t0 := time.Now()
	f()
	return float64(time.Since(t0).Nanoseconds()) / 1e6
}

// BenchmarkToolsListSurfaces: tools/list of the whole aeat (300 tools) on
// the default surface and on the catalog: its size as the host receives it
// (JSON) and the time of the round trip, in memory.
func BenchmarkToolsListSurfaces(b *testing.B) {
	all := surfaceServer(b, fullAeatManifest, SurfaceAll)
	cat := surfaceServer(b, fullAeatManifest, SurfaceCatalog)
	list := func(cs *mcp.ClientSession) int {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			b.Fatal(err)
		}
		raw, _ := json.Marshal(res)
		return len(raw)
	}
	var tAll, tCat []float64
	var nAll, nCat int
	for b.Loop() {
		tAll = append(tAll, timedMS(func() { nAll = list(all) }))
		tCat = append(tCat, timedMS(func() { nCat = list(cat) }))
	}
	b.ReportMetric(float64(nAll)/1000, "KB-all")
	b.ReportMetric(float64(nCat)/1000, "KB-catalog")
	b.ReportMetric(median(tAll), "ms-all")
	b.ReportMetric(median(tCat), "ms-catalog")
	b.ReportMetric(median(tAll)/median(tCat), "x-catalog-faster")
}

// BenchmarkFind: aeat_mcp_find over the whole aeat's 300 tools, a full
// tools/call round trip in memory, against the floor of the same round
// trip to aeat_mcp_runs (a built-in that does next to nothing); and the
// ranking alone (package find), against the same ranking without aeat's
// paraphrases. It stays with the server because it measures the tool.
func BenchmarkFind(b *testing.B) {
	cs := surfaceServer(b, fullAeatManifest, SurfaceCatalog)
	call := func(name string, args any) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
	call(ToolFind, map[string]any{"query": "warm up the index"})
	m, err := annotations.Load(fullAeatManifest)
	if err != nil {
		b.Fatal(err)
	}
	idx := find.NewIndex(m.Tools, m.CLI.Command)
	bare := find.NewIndex(m.Tools, "") // what the paraphrases cost: the ranking without them
	queries := []string{"ledger categories", "notificación pull", "certificate secret set", "modelo 303 review package verify"}
	var tFind, tFloor, tRank, tBare []float64
	i := 0
	for b.Loop() {
		q := queries[i%len(queries)]
		i++
		tFind = append(tFind, timedMS(func() { call(ToolFind, map[string]any{"query": q, "limit": 10}) }))
		tFloor = append(tFloor, timedMS(func() { call(ToolRuns, map[string]any{}) }))
		tRank = append(tRank, timedMS(func() { idx.Rank(q) }))
		tBare = append(tBare, timedMS(func() { bare.Rank(q) }))
	}
	b.ReportMetric(median(tFind)*1000, "µs-find")
	b.ReportMetric(median(tFloor)*1000, "µs-runs-floor")
	b.ReportMetric(median(tRank)*1000, "µs-rank-only")
	b.ReportMetric(median(tFind)/median(tFloor), "x-floor")
	b.ReportMetric(median(tRank)/median(tBare), "x-rank-without-paraphrases")
}

// BenchmarkStartFullVsCurated: what a host waits for, from spawning the
// binary to its answer to tools/list (after initialize), with the whole
// aeat (300 tools, on each surface) and with the 19-verb curated example,
// all interleaved: through a warm manifest cache (the cache directory of
// every earlier start) and a cold one (an empty directory: the manifest is
// loaded, validated and written to it). ms-*-minus-curated are differences
// of medians; the target is ≤ 3 ms with a warm cache. cpu-ms-* are the
// medians of each server process's CPU time (user + system, start to
// exit): on a loaded machine wall time mostly measures the wait for a
// core, and CPU time what the server itself spent. With AEAT_MCP_BASELINE
// naming an earlier build (BenchmarkStartVsNaive), its three warm starts
// take their turns too, printed as *-base. The floor takes its turns too:
// testdata/answerfloor, a program that writes the answers this binary
// wrote for the curated 19 and for the whole aeat on all, byte for byte,
// read from a file — ms-floor-all-minus-curated is what writing the bigger
// answer costs by itself.
func BenchmarkStartFullVsCurated(b *testing.B) {
	binary := aeatMCP(b)
	floor := proctest.Build(b, "testdata/answerfloor")
	warmDir, baseDir := b.TempDir(), b.TempDir()
	var vs []*startVariant
	for _, dir := range []string{warmDir, ""} { // warm, then cold: a fresh directory each start
		vs = append(vs,
			&startVariant{name: "curated-19", bin: binary, path: curatedAeatManifest, dir: dir},
			&startVariant{name: "full-all", bin: binary, path: fullAeatManifest, dir: dir},
			&startVariant{name: "full-catalog", bin: binary, path: fullAeatManifest, args: []string{"--surface", "catalog"}, dir: dir})
	}
	if base := baselineBinary(b); base != "" {
		for _, v := range vs[:3] {
			vs = append(vs, &startVariant{name: v.name, bin: base, path: v.path, args: v.args, dir: baseDir, base: true})
		}
	}
	for _, v := range append(vs[:3:3], vs[6:]...) {
		msToToolsList(b, v.command(b)) // warm the cache
	}
	for _, v := range vs[:2] { // the floor's answers: the curated 19's, the whole aeat's on all
		vs = append(vs, &startVariant{name: "floor-" + v.name, bin: floor, path: answersOf(b, v.command(b)), floor: true})
	}
	i := 0
	for b.Loop() {
		for k := range vs {
			v := vs[(k+i)%len(vs)] // who goes first rotates
			wall, cpu := msToToolsList(b, v.command(b))
			v.times, v.cpu = append(v.times, wall), append(v.cpu, cpu)
		}
		i++
	}
	for _, v := range vs {
		b.ReportMetric(median(v.times), "ms-"+v.name+v.suffix())
		b.ReportMetric(median(v.cpu), "cpu-ms-"+v.name+v.suffix())
	}
	reportMinus(b, "all-minus-curated-warm", vs[1], vs[0])
	reportMinus(b, "catalog-minus-curated-warm", vs[2], vs[0])
	reportMinus(b, "all-minus-curated-cold", vs[4], vs[3])
	reportMinus(b, "catalog-minus-curated-cold", vs[5], vs[3])
	floors := vs[len(vs)-2:]
	reportMinus(b, "floor-all-minus-curated", floors[1], floors[0])
	if len(vs) > 8 {
		reportMinus(b, "all-minus-curated-warm-base", vs[7], vs[6])
		reportMinus(b, "catalog-minus-curated-warm-base", vs[8], vs[6])
	}
}

// startVariant is one start BenchmarkStartFullVsCurated times: a binary,
// its manifest and arguments, and its cache directory ("" for a fresh one
// at each start: cold) — or the floor, whose path is its answers' file.
type startVariant struct {
	name, bin, path string
	args            []string
	dir             string
	base, floor     bool
	times, cpu      []float64
}

// command is the variant's process, to start.
func (v *startVariant) command(b *testing.B) *exec.Cmd {
	if v.floor {
		return exec.Command(v.bin, v.path)
	}
	dir := v.dir
	if dir == "" {
		dir = b.TempDir()
	}
	cmd := exec.Command(v.bin, append([]string{"--manifest", v.path, "--cli", fakeaeat, "--log-level", "error"}, v.args...)...)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+dir)
	return cmd
}

// suffix ends the variant's metric names.
func (v *startVariant) suffix() string {
	switch {
	case v.dir == "" && !v.floor:
		return "-cold"
	case v.base:
		return "-warm-base"
	}
	return "-warm"
}

// reportMinus reports the differences of x's and y's medians, wall and
// CPU, as ms-name and cpu-ms-name.
func reportMinus(b *testing.B, name string, x, y *startVariant) {
	b.ReportMetric(median(x.times)-median(y.times), "ms-"+name)
	b.ReportMetric(median(x.cpu)-median(y.cpu), "cpu-ms-"+name)
}

// answersOf is a file of what cmd, a server, answers to initialize and
// then tools/list (a line each): the floor's answers.
func answersOf(b *testing.B, cmd *exec.Cmd) string {
	cmd.Stdin = strings.NewReader(initLine + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n")
	out, err := cmd.Output()
	if err != nil || bytes.Count(out, []byte("\n")) != 2 {
		b.Fatalf("the server's answers: %v, %d lines", err, bytes.Count(out, []byte("\n")))
	}
	path := filepath.Join(b.TempDir(), "answers.jsonl")
	if err := os.WriteFile(path, out, 0o600); err != nil {
		b.Fatal(err)
	}
	return path
}

// msToToolsList starts cmd, a server, and returns the milliseconds until
// its answer to tools/list, asked right after initialize was answered;
// then it closes its stdin and waits for it, and returns the CPU time the
// server spent too.
func msToToolsList(b *testing.B, cmd *exec.Cmd) (float64, float64) {
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	r := bufio.NewReaderSize(out, 1<<20)
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	_, _ = io.WriteString(in, initLine+"\n")
	if _, err := r.ReadString('\n'); err != nil {
		b.Fatal(err)
	}
	_, _ = io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n")
	line, err := r.ReadString('\n')
	if err != nil || !strings.Contains(line, `"tools":[`) {
		b.Fatalf("no tools/list answer: %v %.200s", err, line)
	}
	d := float64(time.Since(t0)) / 1e6
	in.Close()
	_ = cmd.Wait()
	return d, float64(cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime()) / 1e6
}

// BenchmarkNewFullVsCurated: the server's own start-up in process — load
// the manifest and build the server (New; no tool is registered with the
// SDK before its first call) — for the whole aeat and for the curated 19.
func BenchmarkNewFullVsCurated(b *testing.B) {
	r, err := callruntime.NewRunner(callruntime.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	var tLoad, tNew []float64
	build := func(path, surface string) {
		t0 := time.Now()
		m, err := annotations.Load(path)
		if err != nil {
			b.Fatal(err)
		}
		if path == fullAeatManifest && surface == SurfaceAll {
			tLoad = append(tLoad, float64(time.Since(t0).Nanoseconds())/1e6)
			t0 = time.Now()
			defer func() { tNew = append(tNew, float64(time.Since(t0).Nanoseconds())/1e6) }()
		}
		s, err := New(Config{Manifest: m, CLIPath: fakeaeat, Runner: r, Surface: surface, Printer: i18n.For(language.English)})
		if err != nil {
			b.Fatal(err)
		}
		s.Shutdown()
	}
	var tCurated, tFull, tCatalog []float64
	for b.Loop() {
		tCurated = append(tCurated, timedMS(func() { build(curatedAeatManifest, SurfaceAll) }))
		tFull = append(tFull, timedMS(func() { build(fullAeatManifest, SurfaceAll) }))
		tCatalog = append(tCatalog, timedMS(func() { build(fullAeatManifest, SurfaceCatalog) }))
	}
	b.ReportMetric(median(tCurated), "ms-curated-19")
	b.ReportMetric(median(tFull), "ms-full-300")
	b.ReportMetric(median(tCatalog), "ms-full-catalog")
	b.ReportMetric(median(tLoad), "ms-full-load")
	b.ReportMetric(median(tNew), "ms-full-new")
	b.ReportMetric(median(tFull)/median(tCurated), "x-curated")
}

// BenchmarkToolsListStdio: tools/list of the whole aeat as a host gets it
// from the built binary over stdio, on each surface — the server's side
// (encode and write) and the pipe, without a client's decoding — against
// the floor of a ping round trip on the same pipe.
func BenchmarkToolsListStdio(b *testing.B) {
	type pipe struct {
		in  io.WriteCloser
		out *bufio.Reader
	}
	open := func(args ...string) pipe {
		cmd := exec.Command(aeatMCP(b), append([]string{"--manifest", fullAeatManifest, "--cli", fakeaeat, "--log-level", "error"}, args...)...)
		in, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { in.Close(); _ = cmd.Wait() })
		p := pipe{in, bufio.NewReaderSize(stdout, 1<<20)}
		_, _ = io.WriteString(in, initLine+"\n")
		if _, err := p.out.ReadString('\n'); err != nil {
			b.Fatal(err)
		}
		_, _ = io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		return p
	}
	ask := func(p pipe, method string) int {
		_, _ = io.WriteString(p.in, `{"jsonrpc":"2.0","id":2,"method":"`+method+`"}`+"\n")
		line, err := p.out.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		return len(line)
	}
	all, cat := open(), open("--surface", "catalog")
	var tAll, tCat, tPing []float64
	var nAll, nCat int
	for b.Loop() {
		tAll = append(tAll, timedMS(func() { nAll = ask(all, "tools/list") }))
		tCat = append(tCat, timedMS(func() { nCat = ask(cat, "tools/list") }))
		tPing = append(tPing, timedMS(func() { ask(cat, "ping") }))
	}
	b.ReportMetric(float64(nAll)/1000, "KB-all")
	b.ReportMetric(float64(nCat)/1000, "KB-catalog")
	b.ReportMetric(median(tAll), "ms-all")
	b.ReportMetric(median(tCat), "ms-catalog")
	b.ReportMetric(median(tPing), "ms-ping-floor")
	b.ReportMetric(median(tAll)/median(tCat), "x-catalog-faster")
}
