package server

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func killPids(pids map[string]int) {
	for _, pid := range pids {
		proctest.Kill(pid)
	}
}

// fakecliPids lists the live processes running this package's fakecli.
func fakecliPids() map[string]int { return proctest.Running(fakecli) }

// concurrentPids makes n identical mutate_await calls with args, each sent
// once the one before is in flight — its own process running, or, where
// calls join (log is the server's debug log), once the server says it
// joined — then lets them end, and returns the first line of each result
// (the pid line). Nothing depends on how fast the machine is: no call can
// end before the last one is in.
func concurrentPids(t *testing.T, cs *mcp.ClientSession, n int, args map[string]any, log func() string) []string {
	t.Helper()
	gate := newGate(t)
	args = maps.Clone(args)
	args["gate"] = gate
	var wg sync.WaitGroup
	pids := make([]string, n)
	for i := range pids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mutate_await", Arguments: args})
			if assert.NoError(t, err) && assert.False(t, r.IsError) { // no require off the test goroutine
				pids[i] = strings.SplitN(text(r), "\n", 2)[0]
			}
		}()
		switch {
		case i == 0 || log == nil:
			waitForFakecli(t, i+1)
		default:
			waitLog(t, log, "call joined a run", i)
		}
	}
	require.NoError(t, openGate(gate))
	wg.Wait()
	return pids
}

// waitLog waits until log holds what n times.
func waitLog(t *testing.T, log func() string, what string, n int) {
	t.Helper()
	deadline := time.Now().Add(proctest.HangAfter)
	for strings.Count(log(), what) < n {
		require.True(t, time.Now().Before(deadline), "%q not logged %d times: %s", what, n, log())
		time.Sleep(10 * time.Millisecond)
	}
}

// newGate is a path the test manifest's *_await tools wait for (fakecli's
// await step): the run goes on until the test opens it, once what the run
// must outlast has happened — not after a sleep a loaded machine may
// outlast.
func newGate(t *testing.T) string { return filepath.Join(t.TempDir(), "go-ahead") }

// openGate lets the runs waiting for gate end. Safe off the test goroutine.
func openGate(gate string) error { return os.WriteFile(gate, nil, 0o644) }
