//go:build unix

package warm_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func killPid(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

func chtimes(path string, t time.Time) error { return os.Chtimes(path, t, t) }

func writeScript(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o755))
	return p
}

func dirOf(p string) string { return filepath.Dir(p) }
