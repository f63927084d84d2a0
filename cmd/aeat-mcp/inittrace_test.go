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

// TestInit_TablesAreNotBuiltAtStart: the message catalogs and the
// language matcher (i18n), generate's tables, the manifest cache's CRC
// table (hash/crc32's, at its first use) and the ranker's word tables
// (server) are built at their first use, not in package init — a host waits for
// initialize, which needs none of them but the cache's, and every command
// pays package init, whether it reads a cache file or not. What the
// runtime reports for each package's init (GODEBUG=inittrace=1: bytes
// allocated, which do not depend on the machine's speed) stays small:
// building them was 52 KB in 278 allocations (i18n), 22 KB in 113
// (generate), 10.9 KB in 35 (annotations), 31 KB in 86 (server) and
// 8.3 KB in 70 (find: the word sets' slices and each sync.OnceValue's
// closure and state; now composite literals, laid out by the compiler).
// lazyre's patterns were sync.OnceValues too, allocated in init: 1.7 KB
// in 54 allocations of generate's, 0.7 KB in 21 of annotations'; now
// composite literals as well, and generate's map literals (4.5 KB) are
// tables laid out the same way, as main's are (the hosts' paths and
// inherited variables: 2.3 KB in 19).
func TestInit_TablesAreNotBuiltAtStart(t *testing.T) {
	cmd := exec.Command(binaryPath(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	for pkg, most := range map[string]int{"i18n": 8 << 10, "generate": 1 << 10, "annotations": 1280, "server": 12 << 10, "find": 1 << 10, "main": 1 << 10} {
		name := "github.com/aeat-mcp/aeat-mcp/internal/" + pkg
		if pkg == "main" {
			name = pkg
		}
		m := regexp.MustCompile(`init ` + regexp.QuoteMeta(name) + ` @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs`).FindSubmatch(out)
		require.NotNil(t, m, "no inittrace line for %s in:\n%s", pkg, out)
		bytes, _ := strconv.Atoi(string(m[1]))
		assert.Less(t, bytes, most, "%s's init allocates its tables again", pkg)
	}
}
