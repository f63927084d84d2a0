//go:build linux

package server

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"golang.org/x/sys/unix"
)

// BenchmarkStartInstructions: BenchmarkStartFullVsCurated's question — the
// whole aeat against the curated 19, spawn → tools/list answered, warm
// cache — counted in instructions the server executed (valgrind's
// cachegrind, Ir) instead of time. On this machine (two shared cores, a
// guest without hardware counters) CPU time moved a median by up to 12 ms
// between two copies of one binary; a count of instructions does not
// depend on the load. It is not time either: valgrind runs Go's portable
// SHA-256 where the machine has SHA-NI (Minstr-*-nosha count without
// sha256block*), and a cache miss or a page fault costs nothing in it —
// the page faults are counted apart (minflt-*, of native starts in the
// same rounds). ms-est-*-nosha turn a gap without SHA-256 into
// milliseconds at the rate measured in the same run on a user-mode
// workload of the same kind (calibrationRate: the server built in process
// from the whole aeat's manifest); ms-est-*-faults, the gap in page faults
// at the CPU a fault costs, measured in the same run too (faultCPU).
//
// The curated start runs in two slots (A and A again): the median of their
// paired differences, and the largest, say what the count resolves. Skipped
// without valgrind (it is no part of .ci/run).
func BenchmarkStartInstructions(b *testing.B) {
	valgrind, err := exec.LookPath("valgrind")
	if err != nil {
		b.Skip("valgrind is not installed")
	}
	binary, warmDir, outDir := aeatMCP(b), b.TempDir(), b.TempDir()
	type slot struct {
		name      string
		args      []string
		ir, nosha []float64
		minflt    []float64
	}
	full := []string{"--manifest", fullAeatManifest}
	slots := []*slot{
		{name: "curated-19", args: []string{"--manifest", curatedAeatManifest}},
		{name: "curated-19-again", args: []string{"--manifest", curatedAeatManifest}},
		{name: "full-all", args: full},
		{name: "full-catalog", args: append(full[:2:2], "--surface", "catalog")},
	}
	command := func(s *slot, under bool) *exec.Cmd {
		args := append(append([]string{}, s.args...), "--cli", fakeaeat, "--log-level", "error")
		cmd := exec.Command(binary, args...)
		if under {
			out := filepath.Join(outDir, "cg.out")
			cmd = exec.Command(valgrind, append([]string{"--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=" + out, binary}, args...)...)
		}
		// valgrind 3.19 decodes no RDTSCP, which the Go runtime's spinning
		// lock executes when CPUID says it may: a start died of SIGILL now
		// and then. Off, the runtime fences and reads RDTSC instead.
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+warmDir, "GODEBUG=cpu.rdtscp=off")
		return cmd
	}
	for _, s := range slots {
		msToToolsList(b, command(s, false)) // warm the cache
	}
	i := 0
	for b.Loop() {
		for k := range slots {
			s := slots[(k+i)%len(slots)] // who goes first rotates
			ir, sha := cachegrindStart(b, command(s, true), filepath.Join(outDir, "cg.out"))
			s.ir, s.nosha = append(s.ir, ir/1e6), append(s.nosha, (ir-sha)/1e6)
			cmd := command(s, false)
			msToToolsList(b, cmd)
			s.minflt = append(s.minflt, float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Minflt))
		}
		i++
	}
	aa := pairedDiffs(slots[1].ir, slots[0].ir)
	all := pairedDiffs(slots[2].ir, slots[0].ir)
	cat := pairedDiffs(slots[3].ir, slots[0].ir)
	allNosha := pairedDiffs(slots[2].nosha, slots[0].nosha)
	catNosha := pairedDiffs(slots[3].nosha, slots[0].nosha)
	faultsAll := pairedDiffs(slots[2].minflt, slots[0].minflt)
	faultsCat := pairedDiffs(slots[3].minflt, slots[0].minflt)
	faultsAA := pairedDiffs(slots[1].minflt, slots[0].minflt)
	rate := calibrationRate(b, valgrind)
	for _, s := range slots {
		b.ReportMetric(median(s.ir), "Minstr-"+s.name)
		b.ReportMetric(median(s.minflt), "minflt-"+s.name)
	}
	b.ReportMetric(median(faultsAA), "minflt-AA-curated-again-minus-curated")
	b.ReportMetric(median(faultsAll), "minflt-all-minus-curated")
	b.ReportMetric(median(faultsCat), "minflt-catalog-minus-curated")
	b.ReportMetric(median(aa), "Minstr-AA-curated-again-minus-curated")
	b.ReportMetric(maxAbs(aa), "Minstr-AA-largest")
	b.ReportMetric(median(all), "Minstr-all-minus-curated")
	b.ReportMetric(median(cat), "Minstr-catalog-minus-curated")
	b.ReportMetric(median(allNosha), "Minstr-all-minus-curated-nosha")
	b.ReportMetric(median(catNosha), "Minstr-catalog-minus-curated-nosha")
	b.ReportMetric(rate, "Minstr-per-ms-calibration")
	b.ReportMetric(median(slices.Clone(allNosha))/rate, "ms-est-all-minus-curated-nosha")
	b.ReportMetric(median(slices.Clone(catNosha))/rate, "ms-est-catalog-minus-curated-nosha")
	b.ReportMetric(maxAbs(aa)/rate, "ms-est-AA-largest")
	fault := faultCPU(b)
	b.ReportMetric(fault*1e3, "µs-per-page-fault")
	b.ReportMetric(median(faultsAll)*fault, "ms-est-all-minus-curated-faults")
	b.ReportMetric(median(faultsCat)*fault, "ms-est-catalog-minus-curated-faults")
}

// faultCPU is the CPU ms a fresh page costs this process when first
// touched (a minor fault): the median over rounds of 2000 pages mapped
// and touched one by one. On this machine's guest it is what a start's
// memory costs more than its instructions.
func faultCPU(b *testing.B) float64 {
	const pages = 2000
	var ms []float64
	for range 20 {
		mem, err := unix.Mmap(-1, 0, pages*4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
		if err != nil {
			b.Fatal(err)
		}
		t0 := processCPU()
		for i := 0; i < len(mem); i += 4096 {
			mem[i] = 1
		}
		ms = append(ms, float64(processCPU()-t0)/1e6/pages)
		_ = unix.Munmap(mem)
	}
	return median(ms)
}

// cachegrindStart runs cmd (a server under cachegrind) to its tools/list
// answer and its exit, and returns the instructions it executed and, of
// them, those of SHA-256's block functions.
func cachegrindStart(b *testing.B, cmd *exec.Cmd, out string) (ir, sha float64) {
	msToToolsList(b, cmd)
	return cachegrindFile(b, out)
}

// cachegrindFile reads cachegrind's output file (--cache-sim=no: one count
// a line, Ir) and removes it.
func cachegrindFile(b *testing.B, out string) (ir, sha float64) {
	f, err := os.Open(out)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	defer os.Remove(out)
	inSHA := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "fn="):
			inSHA = strings.Contains(line, "sha256.block")
		case line != "" && line[0] >= '0' && line[0] <= '9':
			_, count, _ := strings.Cut(line, " ")
			n, _ := strconv.ParseFloat(count, 64)
			ir += n
			if inSHA {
				sha += n
			}
		}
	}
	if err := sc.Err(); err != nil || ir == 0 {
		b.Fatalf("no instructions counted in %s: %v", out, err)
	}
	return ir, sha
}

// pairedDiffs is a[i] − b[i]: the two were measured in the same round.
func pairedDiffs(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return d
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, x, -x)
	}
	return m
}

// calibrationRounds is how many times the calibration parses the
// manifest in one process.
const calibrationRounds = 5

func init() {
	testMainHelpers["calibrate"] = func() int {
		n, _ := strconv.Atoi(os.Getenv("CALIBRATE_ROUNDS"))
		parse := calibrationWork()
		for range n {
			parse()
		}
		return 0
	}
}

// calibrationWork returns the calibration's unit of work: the whole aeat's
// manifest parsed and validated (annotations.Parse) — user-mode Go of the
// kind a start's gap is made of (decoding, maps, the tools), which starts
// no goroutine and no timer. (The server built with New did: under
// valgrind, fifty times slower, its timers' work grew with the rounds and
// the rate came out at 89 M instructions per ms.)
func calibrationWork() func() {
	data, err := os.ReadFile(fullAeatManifest)
	if err != nil {
		panic(err)
	}
	return func() {
		if _, err := annotations.Parse(data, fullAeatManifest); err != nil {
			panic(err)
		}
	}
}

// calibrationRate is M instructions per ms of calibrationWork: its
// instructions under cachegrind (the test binary re-executed, calibrationRounds
// rounds less one round, so what the process does once cancels), over the
// median of its native CPU time in this process.
func calibrationRate(b *testing.B, valgrind string) float64 {
	out := filepath.Join(b.TempDir(), "cg.out")
	count := func(rounds int) float64 {
		cmd := exec.Command(valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file="+out, os.Args[0])
		cmd.Env = append(os.Environ(), "SERVER_TEST_HELPER=calibrate", "CALIBRATE_ROUNDS="+strconv.Itoa(rounds), "GODEBUG=cpu.rdtscp=off")
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("calibration under cachegrind: %v\n%s", err, msg)
		}
		ir, _ := cachegrindFile(b, out)
		return ir
	}
	perRound := (count(calibrationRounds+1) - count(1)) / calibrationRounds / 1e6
	parse := calibrationWork()
	// The time is the process's CPU time (the collector's threads
	// included, as in the count), not the wall's, which counts the waits
	// for a core of a loaded machine; after rounds that grew the heap, so
	// that it is not page faults either (a collector turned off faulted
	// in every round's memory: 0.8 M instructions per ms).
	for range calibrationRounds {
		parse()
	}
	var ms []float64
	for range 30 {
		t0 := processCPU()
		parse()
		ms = append(ms, float64(processCPU()-t0)/1e6)
	}
	return perRound / median(ms)
}

// processCPU is this process's CPU time in ns.
func processCPU() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		panic(err)
	}
	return ts.Nano()
}
