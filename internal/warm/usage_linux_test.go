package warm_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// usageOf starts a pool over the demo CLI with env and returns what runs
// one warm call of it, successful, and says what its child used: the one
// report the Pool handed on for it.
func usageOf(t *testing.T, env []string) func(args ...string) warm.ChildUsage {
	t.Helper()
	_, used := usageIn(t, env)
	return used
}

// usageIn is usageOf, with the setup.
func usageIn(t *testing.T, env []string) (*setup, func(args ...string) warm.ChildUsage) {
	t.Helper()
	var mu sync.Mutex
	var seen []warm.ChildUsage
	t.Cleanup(warm.OnChildUsage(func(u warm.ChildUsage) {
		mu.Lock()
		seen = append(seen, u)
		mu.Unlock()
	}))
	s := newSetup(t, annotations.Warm{}, env)
	st := s.settled(t)
	require.Equal(t, warm.On, st.State, st.Reason)
	return s, func(args ...string) warm.ChildUsage {
		t.Helper()
		mu.Lock()
		seen = nil
		mu.Unlock()
		res := s.run(t, context.Background(), s.spec(args...))
		require.Equal(t, 0, res.ExitCode, "stderr: %s", res.Stderr.Head)
		mu.Lock()
		defer mu.Unlock()
		require.Len(t, seen, 1, "one report for the one warm call %v", args)
		assert.True(t, seen[0].Reported, "%v", args)
		return seen[0]
	}
}

// pagesOf64MiB is how many 4 KiB pages the demo CLI's "touch 64" writes.
const pagesOf64MiB = int64(64 << 20 / 4096)

// TestWarmReportsWhatEachChildUsed: the template reads each warm child's
// page faults and CPU from its zombie and sends them with its exit line;
// the Pool hands them on per call. A call that writes to 64 fresh MiB
// faults at least once per 4 KiB page of them; one that prints a line
// faults far less — so the counts are the call's own, not the template's
// or another call's.
func TestWarmReportsWhatEachChildUsed(t *testing.T) {
	// Without huge pages, whatever the machine: a fault per 4 KiB page.
	used := usageOf(t, baseEnv("0.2", "GLIBC_TUNABLES=glibc.malloc.hugetlb=0"))
	big := used("touch", "64")
	small := used("hello")
	t.Logf("touch 64 MiB: %+v; hello: %+v", big, small)
	for name, u := range map[string]warm.ChildUsage{"touch": big, "hello": small} {
		assert.Positive(t, u.MinFlt, name)
		assert.Positive(t, u.User+u.Sys, "%s: CPU time", name)
	}
	assert.GreaterOrEqual(t, big.MinFlt, pagesOf64MiB, "a fault per fresh page at least")
	assert.Less(t, small.MinFlt, big.MinFlt-pagesOf64MiB, "hello faulted less than the pages touch wrote")
}

// TestWarmHugePages: a warm child's large allocations are backed by
// transparent huge pages where the kernel offers them (the template's
// interpreter runs with glibc.malloc.hugetlb=1, templateEnv), so writing
// 64 fresh MiB faults far fewer times than once per 4 KiB page; where the
// kernel does not, as before.
func TestWarmHugePages(t *testing.T) {
	thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	offered := err == nil && !strings.Contains(string(thp), "[never]")
	u := usageOf(t, baseEnv("0.2"))("touch", "64")
	t.Logf("transparent huge pages %q: touch 64 MiB faulted %d times", strings.TrimSpace(string(thp)), u.MinFlt)
	if offered {
		assert.Less(t, u.MinFlt, pagesOf64MiB/2, "64 MiB in 2 MiB pages")
	} else {
		assert.GreaterOrEqual(t, u.MinFlt, pagesOf64MiB, "no huge pages here: a fault per 4 KiB page")
	}
}

// TestWarmHugePagesAfterASetUpThatFreedABuffer: a CLI whose set-up freed a
// large buffer (the real aeat's does) has glibc raise its mmap threshold,
// so a warm child's buffer of that size would come from heap pages the
// template wrote — a copy-on-write fault per 4 KiB page, which huge pages
// do not spare. The template's allocator keeps its threshold fixed
// (templateEnv), so the buffer is a fresh mapping in huge pages. (The real
// aeat's ledger verbs: 12,324 faults a call → 7,828, BENCHMARKS.md.)
func TestWarmHugePagesAfterASetUpThatFreedABuffer(t *testing.T) {
	thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(thp), "[never]") {
		t.Skipf("no transparent huge pages here (%q)", thp)
	}
	u := usageOf(t, baseEnv("0.2", "WARMDEMO_IMPORT_HEAP_MIB=16"))("touch", "16")
	t.Logf("transparent huge pages %q: touch 16 MiB after a 16 MiB set-up faulted %d times", strings.TrimSpace(string(thp)), u.MinFlt)
	assert.Less(t, u.MinFlt, pagesOf64MiB/4/2, "16 MiB in 2 MiB pages")
}

// TestWarmSparePrefaultsWhatCallsWrote: a call that writes pages of its
// template (the demo CLI's "scribble": one byte in each page of a buffer
// its import kept, as CPython writes reference counts into what the
// import made) copies each of them, a fault per page, on the call's path.
// The template learns those pages from the call's child, and its next
// spare copies them before the next call (here the test waits until it
// holds them: a call that comes sooner stops the copying and pays for
// the rest): that call faults far less.
func TestWarmSparePrefaultsWhatCallsWrote(t *testing.T) {
	const mib = 32
	s, used := usageIn(t, baseEnv("0.2", "WARMDEMO_KEEP_MIB=48"))
	pages := int64(mib << 20 / 4096)
	first := used("scribble", "32")
	holds(t, s.pool.Status().TemplatePID, 0, mib)
	second := used("scribble", "32")
	t.Logf("scribble %d MiB of the template's: first call %+v; next %+v", mib, first, second)
	assert.GreaterOrEqual(t, first.MinFlt, pages, "the first call copies each page it writes")
	assert.True(t, second.Spare, "the next call was handed to a spare")
	assert.Less(t, second.MinFlt, first.MinFlt-pages*3/4, "the spare had copied the pages the first call wrote")
}

// TestWarmSpareIsReplacedAtHandOut: the spare is replaced as soon as it is
// handed a call, while that call runs — not once the template is idle
// again — so that a call right after it finds what earlier calls wrote
// copied ahead (a spare forked only after the call had ~200 ms of copying
// left for the real aeat, and a call that came sooner paid 3,000 faults).
// Here the replacement copies while a gate call holds the spare it was
// handed (before this change none was forked until the gate call ended:
// the wait below ran out), and the call right after the gate faults far
// less than the first did.
func TestWarmSpareIsReplacedAtHandOut(t *testing.T) {
	const mib = 32
	s, used := usageIn(t, baseEnv("0.2", "WARMDEMO_KEEP_MIB=48"))
	pages := int64(mib << 20 / 4096)
	first := used("scribble", "32")
	template := s.pool.Status().TemplatePID
	holds(t, template, 0, mib)
	handed := spareOf(t, template, 0)
	gate := filepath.Join(t.TempDir(), "gate")
	running := s.runAsync(context.Background(), s.spec("gate", gate))
	holds(t, template, handed, mib) // its replacement, while the gate call runs
	require.NoError(t, os.WriteFile(gate, nil, 0o644))
	res := await(t, running, "the gate call")
	require.NoError(t, res.err)
	require.Equal(t, 0, res.res.ExitCode, "stderr: %s", res.res.Stderr.Head)
	next := used("scribble", "32")
	t.Logf("scribble %d MiB: first call %+v; the call right after a gate %+v", mib, first, next)
	assert.True(t, next.Spare, "the call after the gate was handed a spare")
	assert.Less(t, next.MinFlt, first.MinFlt-pages*3/4, "its spare had copied the pages the first call wrote")
}

// holds waits until template's spare (its one live child other than not)
// holds mib MiB of its own (the pages it copied ahead of a call).
func holds(t *testing.T, template, not int, mib int) {
	t.Helper()
	deadline := time.Now().Add(settleBound)
	for {
		pid := spareOf(t, template, not)
		if privateKiB(pid) >= mib<<10 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the spare %d of template %d holds %d KiB of its own after %v, not %d MiB", pid, template, privateKiB(pid), settleBound, mib)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// privateKiB is what pid holds of its own (smaps_rollup's Private_Dirty);
// 0 when it cannot be read.
func privateKiB(pid int) int {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "Private_Dirty:" {
			kb, _ := strconv.Atoi(f[1])
			return kb
		}
	}
	return 0
}
