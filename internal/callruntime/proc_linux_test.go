package callruntime_test

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/stretchr/testify/require"
)

// osModes are Linux's ways of tracking a tree, forced through
// Options.Disable.
var osModes = []mode{
	{name: "cgroup", tree: "cgroup"},
	{name: "procwalk", disable: []callruntime.Mechanism{callruntime.CgroupV2}, tree: "procwalk"},
}

// requireGone polls kill(pid, 0) until every pid answers ESRCH.
func requireGone(t *testing.T, pids map[string]int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for role, pid := range pids {
		for {
			err := syscall.Kill(pid, 0)
			if errors.Is(err, syscall.ESRCH) {
				break
			}
			// A zombie is dead; one of ours is reaped as soon as its
			// SIGCHLD is handled, which may trail the call's end a little.
			if time.Now().After(deadline) && !(isOurZombie(pid) && time.Now().Before(deadline.Add(zombieGrace))) {
				stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
				t.Fatalf("%s (pid %d) still alive after %v: kill(0) = %v; stat: %s; all: %v", role, pid, within, err, stat, pids)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// zombieGrace is how long a dead process of ours may await its reaping.
const zombieGrace = time.Second

// isOurZombie reports whether pid is a zombie whose parent is this process.
func isOurZombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 1 && f[0] == "Z" && f[1] == strconv.Itoa(os.Getpid())
}

// killPids cleans up after a failed test so one failure does not leak into
// the next.
func killPids(pids map[string]int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// runHelper runs this test binary as the helper mode and returns its
// stdout.
func runHelper(t *testing.T, mode string, env ...string) []byte {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append(env, "CALLRUNTIME_TEST_HELPER="+mode, "FAKECLI="+fakecli)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	require.NoError(t, err)
	return out
}
