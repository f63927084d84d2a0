//go:build unix

package server

import (
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2E_SIGTERM: the host sends SIGTERM with a call in flight.
func TestE2E_SIGTERM(t *testing.T) {
	rs := startRaw(t)
	rs.initialize(t)
	rs.startLivePull(t)
	pids := fakecliPids()
	start := time.Now()
	require.NoError(t, rs.cmd.Process.Signal(syscall.SIGTERM))
	err := rs.cmd.Wait()
	assert.NoError(t, err, "exit 0; stderr: %s", rs.errs.String())
	assert.NotContains(t, rs.errs.String(), "level=ERROR", "a routine stop is no error")
	assert.Less(t, time.Since(start), time.Second)
	proctest.RequireGone(t, pids, 500*time.Millisecond)
}
