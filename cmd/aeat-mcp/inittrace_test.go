//go:build !windows

package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInit_CatalogsAreNotBuiltAtStart: the message catalogs and the
// language matcher are built at the first message, not in package init —
// a host waits for initialize, which needs none of them. What the runtime
// reports for i18n's init (GODEBUG=inittrace=1: bytes allocated, which
// do not depend on the machine's speed) stays small: building them was
// 52 KB in 278 allocations.
func TestInit_CatalogsAreNotBuiltAtStart(t *testing.T) {
	cmd := exec.Command(binaryPath(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	m := regexp.MustCompile(`init github.com/aeat-mcp/aeat-mcp/internal/i18n @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs`).FindSubmatch(out)
	require.NotNil(t, m, "no inittrace line for i18n in:\n%s", out)
	bytes, _ := strconv.Atoi(string(m[1]))
	assert.Less(t, bytes, 8<<10, "i18n's init allocates its catalogs again")
}
