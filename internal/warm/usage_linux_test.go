package warm_test

import (
	"context"
	"sync"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWarmReportsWhatEachChildUsed: the template reads each warm child's
// page faults and CPU from its zombie and sends them with its exit line;
// the Pool hands them on per call. A call that writes to 64 fresh MiB
// faults at least once per 4 KiB page of them; one that prints a line
// faults far less — so the counts are the call's own, not the template's
// or another call's.
func TestWarmReportsWhatEachChildUsed(t *testing.T) {
	var mu sync.Mutex
	var seen []warm.ChildUsage
	t.Cleanup(warm.OnChildUsage(func(u warm.ChildUsage) {
		mu.Lock()
		seen = append(seen, u)
		mu.Unlock()
	}))
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2"))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State, st.Reason)
	used := func(args ...string) warm.ChildUsage {
		t.Helper()
		mu.Lock()
		seen = nil
		mu.Unlock()
		res := s.run(t, context.Background(), s.spec(args...))
		require.Equal(t, 0, res.ExitCode, "stderr: %s", res.Stderr.Head)
		mu.Lock()
		defer mu.Unlock()
		require.Len(t, seen, 1, "one report for the one warm call %v", args)
		return seen[0]
	}
	const mib = 64
	big := used("touch", "64")
	small := used("hello")
	t.Logf("touch %d MiB: %+v; hello: %+v", mib, big, small)
	for name, u := range map[string]warm.ChildUsage{"touch": big, "hello": small} {
		assert.True(t, u.Reported, name)
		assert.Positive(t, u.MinFlt, name)
		assert.Positive(t, u.User+u.Sys, "%s: CPU time", name)
	}
	assert.GreaterOrEqual(t, big.MinFlt, int64(mib<<20/4096), "a fault per fresh page at least")
	assert.Less(t, small.MinFlt, big.MinFlt-int64(mib<<20/4096), "hello faulted less than the pages touch wrote")
}
