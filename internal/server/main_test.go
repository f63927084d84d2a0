//go:build linux

package server

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
)

func init() {
	testMainHelpers["parent"] = helperParent
	testMainHelpers["naive"] = naiveMain
}

func killPids(pids map[string]int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// fakecliPids lists the live processes running this package's fakecli.
func fakecliPids() map[string]int {
	out := map[string]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if exe, err := os.Readlink("/proc/" + e.Name() + "/exe"); err == nil && exe == fakecli && !proctest.Gone(pid) {
			out[e.Name()] = pid
		}
	}
	return out
}

// helperParent plays a host: it starts aeat-mcp on the pipes it inherited as
// fds 3 (stdin) and 4 (stdout), prints the server's pid, and waits to be
// killed. With SERVER_TEST_SPAWN_THREAD set it starts the server from an OS
// thread that exits right after (as a host spawning from a worker thread
// does): Linux then sends the server its parent-death signal although its
// parent lives on.
func helperParent() int {
	cmd := exec.Command(os.Getenv("AEAT_MCP_BINARY"), "--manifest", os.Getenv("AEAT_MCP_MANIFEST"), "--log-level", "error")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.NewFile(3, "in"), os.NewFile(4, "out"), os.Stderr
	started := make(chan error)
	if os.Getenv("SERVER_TEST_SPAWN_THREAD") != "" {
		// Keep the main thread for this goroutine: a locked goroutine that
		// exits on the main thread does not end it, on any other it does.
		runtime.LockOSThread()
	}
	go func() {
		if os.Getenv("SERVER_TEST_SPAWN_THREAD") != "" {
			runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		}
		started <- cmd.Start()
		// Outlive the server's start-up, so that it has armed its
		// parent-death signal when this thread exits.
		time.Sleep(500 * time.Millisecond)
	}()
	if err := <-started; err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println(cmd.Process.Pid)
	for {
		time.Sleep(time.Hour)
	}
}

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
