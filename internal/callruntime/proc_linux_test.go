package callruntime_test

import (
	"os"
	"os/exec"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/stretchr/testify/require"
)

// osModes are Linux's ways of tracking a tree, forced through
// Options.Disable.
var osModes = []mode{
	{name: "cgroup", tree: "cgroup"},
	{name: "procwalk", disable: []callruntime.Mechanism{callruntime.CgroupV2}, tree: "procwalk"},
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
