//go:build linux || darwin

package callruntime

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultStateDir: one directory per user and OS, from the home
// directory alone — never from the temporary directory, which differs
// between a server started by Claude Desktop and one from a terminal.
func TestDefaultStateDir(t *testing.T) {
	for _, tc := range []struct{ goos, home, want string }{
		{"darwin", "/Users/ana", "/Users/ana/Library/Caches/aeat-mcp"},
		{"linux", "/home/ana", "/home/ana/.local/state/aeat-mcp"},
		{"linux", "/home/ana/", "/home/ana/.local/state/aeat-mcp"},
		{"darwin", "", ""},        // no HOME: the temporary directory's, as before
		{"linux", "relative", ""}, // not a home
		{"linux", "/", ""},        // a service without a home of its own
	} {
		assert.Equal(t, tc.want, defaultStateDir(tc.goos, tc.home), "%s %q", tc.goos, tc.home)
	}
}

// TestSweepLedger_LeaderGroupOfAReusedPid: the lifeline kills each
// recorded call's leader's process group even when the leader is gone —
// but not when the leader's pid now names another process: that process's
// group is not the call's. A process of this test, leading its own group,
// stands for the one that took the pid.
func TestSweepLedger_LeaderGroupOfAReusedPid(t *testing.T) {
	cmd := exec.Command("sleep", "300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	var now proc
	require.Eventually(t, func() bool {
		for _, p := range readTable() {
			if p.pid == cmd.Process.Pid {
				now = p
				return true
			}
		}
		return false
	}, proctest.HangAfter, time.Millisecond, "the stand-in is in the process table")
	// The recorded leader had the same pid and an earlier start.
	ledger := fmt.Sprintf("+1 %d %d %d %d\n", now.pid, now.start-1, now.pid, now.sid)
	sweepLedger([]byte(ledger), os.Getpid(), true, readTable)

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err := cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, syscall.SIGTERM, exit.Sys().(syscall.WaitStatus).Signal(), "the reused pid's group was left alone: %v", err)
}
