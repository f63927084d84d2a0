package server

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
)

func killPids(pids map[string]int) {
	for _, pid := range pids {
		proctest.Kill(pid)
	}
}

// fakecliPids lists the live processes running this package's fakecli.
func fakecliPids() map[string]int { return proctest.Running(fakecli) }

// concurrentPids calls mutate_slow n times at once (100 ms apart) and
// returns the pid each result reports ("pid self N"): equal pids mean one
// process tree served both calls.
func concurrentPids(t *testing.T, cs *mcp.ClientSession, n int, args map[string]any) []string {
	t.Helper()
	var wg sync.WaitGroup
	pids := make([]string, n)
	for i := range pids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mutate_slow", Arguments: args})
			if assert.NoError(t, err) && assert.False(t, r.IsError) { // no require off the test goroutine
				pids[i] = strings.SplitN(text(r), "\n", 2)[0]
			}
		}()
		time.Sleep(100 * time.Millisecond)
	}
	wg.Wait()
	return pids
}
