package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/require"
)

// TestWatchParentExit: a process whose parent exits is told so by the
// platform's prompt mechanism (Linux: the parent-death signal checked
// against getppid; macOS: kqueue NOTE_EXIT; Windows: the parent's process
// handle). Portable: it runs wherever the package's tests run.
//
// The test starts a middle process, which starts a watcher and exits once
// the watcher watches it; the watcher writes "gone" to a file when told.
func TestWatchParentExit(t *testing.T) {
	file := filepath.Join(t.TempDir(), "watch")
	middle := exec.Command(os.Args[0], "-test.run=^TestParentWatchHelper$")
	middle.Env = append(os.Environ(), "PARENT_WATCH_ROLE=middle", "PARENT_WATCH_FILE="+file)
	middle.Stderr = os.Stderr
	require.NoError(t, middle.Run())
	deadline := time.Now().Add(proctest.HangAfter)
	for {
		b, _ := os.ReadFile(file)
		if strings.Contains(string(b), "gone") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the watcher was not told its parent exited: %q", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestParentWatchHelper is the middle process and the watcher of
// TestWatchParentExit; run as a test it does nothing.
func TestParentWatchHelper(t *testing.T) {
	file := os.Getenv("PARENT_WATCH_FILE")
	switch os.Getenv("PARENT_WATCH_ROLE") {
	case "middle":
		w := exec.Command(os.Args[0], "-test.run=^TestParentWatchHelper$")
		w.Env = append(os.Environ(), "PARENT_WATCH_ROLE=watcher")
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(proctest.HangAfter); time.Now().Before(deadline); { // exit once it watches
			if b, _ := os.ReadFile(file); strings.Contains(string(b), "watching") {
				os.Exit(0)
			}
			time.Sleep(10 * time.Millisecond)
		}
		os.Exit(1)
	case "sleeper":
		time.Sleep(time.Minute) // a host that lives; killed by its test
		os.Exit(0)
	case "watcher":
		gone := make(chan struct{})
		stop, err := watchParentExit(os.Getppid(), func() { close(gone) })
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		_ = os.WriteFile(file, []byte("watching\n"), 0o600)
		select {
		case <-gone:
			_ = os.WriteFile(file, []byte("watching\ngone\n"), 0o600)
		case <-time.After(2 * proctest.HangAfter):
		}
		os.Exit(0)
	}
}
