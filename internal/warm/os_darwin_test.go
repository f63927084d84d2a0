package warm_test

import (
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// treesConfirmed: macOS's process-table walk cannot see an orphan no walk
// saw, so it never confirms a tree is gone (callruntime: tree_dead false).
const treesConfirmed = false

// gone waits until pid is gone — kill(pid, 0) answers ESRCH, or ps says it
// is a zombie (a dead process its parent has not reaped yet) — or fails.
func gone(t testing.TB, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		out, _ := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
		if strings.HasPrefix(strings.TrimSpace(string(out)), "Z") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("pid %d still alive after 10s (ps: %q)", pid, out)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
