//go:build linux

package server

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
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
	"github.com/stretchr/testify/require"
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
// thread that exits once a line comes on its stdin (as a host spawning from
// a worker thread does; the test sends it once the server answered, so has
// armed its parent-death signal): Linux then sends the server that signal
// although its parent lives on. It prints "thread-exited" once the thread
// is gone.
func helperParent() int {
	cmd := exec.Command(os.Getenv("AEAT_MCP_BINARY"), "--manifest", os.Getenv("AEAT_MCP_MANIFEST"), "--log-level", "error")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.NewFile(3, "in"), os.NewFile(4, "out"), os.Stderr
	started := make(chan error)
	thread := os.Getenv("SERVER_TEST_SPAWN_THREAD") != ""
	if thread {
		// Keep the main thread for this goroutine: a locked goroutine that
		// exits on the main thread does not end it, on any other it does.
		runtime.LockOSThread()
	}
	tid := make(chan int, 1)
	go func() {
		if thread {
			runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
			tid <- syscall.Gettid()
		}
		started <- cmd.Start()
		if thread {
			_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // the test's go-ahead
		}
	}()
	if err := <-started; err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println(cmd.Process.Pid)
	if thread {
		task := fmt.Sprintf("/proc/self/task/%d", <-tid)
		for _, err := os.Stat(task); err == nil; _, err = os.Stat(task) {
			time.Sleep(5 * time.Millisecond)
		}
		fmt.Println("thread-exited")
	}
	for {
		time.Sleep(time.Hour)
	}
}

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
