//go:build unix

package e2e

import (
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2E_SIGTERM: the host sends SIGTERM with a call in flight.
// A stop on SIGTERM does not wait for the call (it never ends) nor for the
// drain (ten minutes): past the hang bound it did.
func TestE2E_SIGTERM(t *testing.T) {
	rs := startRaw(t, "--drain", "10m")
	rs.initialize(t)
	rs.startLivePull(t)
	pids := fakecliPids()
	start := time.Now()
	require.NoError(t, rs.cmd.Process.Signal(syscall.SIGTERM))
	err := rs.cmd.Wait()
	assert.NoError(t, err, "exit 0; stderr: %s", rs.errs.String())
	assert.NotContains(t, rs.errs.String(), "level=ERROR", "a routine stop is no error")
	assert.Less(t, time.Since(start), proctest.HangAfter)
	proctest.RequireGone(t, pids, proctest.HangAfter)
}
