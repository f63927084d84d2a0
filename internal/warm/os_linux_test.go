package warm_test

import (
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
)

// treesConfirmed: Linux's mechanisms (a cgroup, the /proc walk with the
// server as child subreaper) confirm that a whole tree is gone.
const treesConfirmed = true

// gone waits until pid is gone (proctest.RequireGone), or fails.
func gone(t testing.TB, pid int) {
	t.Helper()
	proctest.RequireGone(t, map[string]int{"the call": pid}, proctest.HangAfter)
}
