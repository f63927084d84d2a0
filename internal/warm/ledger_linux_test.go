package warm_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On the /proc walk a warm call is a call like any other for the walk's
// membership and its ledger (the durable record the lifeline, or the next
// server, kills from if this one dies): the child and its setsid grandchild
// are recorded while the call runs, and the call's end is recorded too.
func TestWarmCallInTheLedger(t *testing.T) {
	s := newSetup(t, annotations.Warm{}, baseEnv("0.2"), callruntime.CgroupV2)
	st0 := s.settled(t)
	require.Equal(t, warm.On, st0.State, st0.Reason)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	spec := s.spec("daemon", "--stay", "60")
	var mu sync.Mutex
	var pids []int
	spec.OnLine = func(l callruntime.Line) {
		mu.Lock()
		defer mu.Unlock()
		pids = append(pids, pidLines(t, []byte(l.Text))...)
	}
	done := make(chan callruntime.Result, 1)
	go func() {
		res, _ := s.pool.Run(ctx, spec)
		done <- res
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		want := slices.Clone(pids)
		mu.Unlock()
		recorded := ledgerPids(t, s.state)
		if len(want) == 2 && recorded[want[0]] && recorded[want[1]] {
			break
		}
		require.True(t, time.Now().Before(deadline), "the ledger never listed the warm call's child and grandchild %v: %v", want, recorded)
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	res := <-done
	assert.Equal(t, callruntime.Cancelled, res.End)
	treeDead(t, res)
	for _, pid := range pids {
		gone(t, pid)
	}
}

// ledgerPids are the pids a Runner's ledger in state recorded ("+CALL PID
// START PGID SID" lines).
func ledgerPids(t *testing.T, state string) map[int]bool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(state, "*.members"))
	out := map[int]bool{}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && strings.HasPrefix(f[0], "+") {
				pid, _ := strconv.Atoi(f[1])
				out[pid] = true
			}
		}
	}
	return out
}
