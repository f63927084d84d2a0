//go:build !windows

package main

import (
	"bytes"
	"cmp"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The commands that block on a program they run — doctor's health probe,
// generate's walk, warm record's warm call — stop on Ctrl-C: the built
// binary gets SIGINT while the program runs, exits as a shell reports an
// interrupted command (130), and nothing it started is left. Told by
// SIGTERM (what a supervisor or a host sends), the exit says so: 143. (serve:
// internal/server's TestE2E_SIGTERM; call: TestCall_CtrlC; secret set on
// a terminal: TestSecretSet_Terminal.)
func TestCtrlC_StopsWhatACommandRuns(t *testing.T) {
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	// hang writes its pid where the test reads it, then waits for a signal.
	hang := filepath.Join(dir, "hang")
	require.NoError(t, os.WriteFile(hang, []byte("#!/bin/sh\necho $$ >> '"+pids+"'\nexec sleep 3600\n"), 0o755))
	read := `{"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}`
	manifest := filepath.Join(dir, "m.json")
	require.NoError(t, os.WriteFile(manifest, []byte(`{"version": 1, "cli": {"command": "`+hang+`", "health": {"command": ["status"]}},
	  "tools": [{"name": "a", "title": "A", "description": "d", "command": ["a"], "annotations": `+read+`}]}`), 0o644))

	for _, tc := range []struct {
		name string
		args func(t *testing.T) []string
		sig  syscall.Signal // SIGINT when zero
	}{
		{"doctor's health probe", func(*testing.T) []string { return []string{"--manifest", manifest, "doctor"} }, 0},
		{"doctor's health probe, SIGTERM", func(*testing.T) []string { return []string{"--manifest", manifest, "doctor"} }, syscall.SIGTERM},
		{"generate's walk", func(*testing.T) []string { return []string{"generate", "--from", "cobra:" + hang} }, 0},
		{"warm record's call", func(t *testing.T) []string {
			return []string{"--manifest", warmSleepManifest(t, pids), "--warm", "warm", "record", "sleep"} // --warm: off by default on macOS
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(pids, nil, 0o644))
			cmd := exec.Command(binaryPath(t), tc.args(t)...)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LANG=C.UTF-8", proctest.CacheEnv()}
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			require.NoError(t, cmd.Start())
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }()
			t.Cleanup(func() {
				if cmd.ProcessState == nil {
					_ = cmd.Process.Kill()
					<-done
				}
			})
			started := waitForPid(t, pids, done, &out)
			left := descendants(t, cmd.Process.Pid)
			left["the program it ran"] = started
			defer proctest.KillAfterFailure(t, left)

			sig := cmp.Or(tc.sig, syscall.SIGINT)
			require.NoError(t, cmd.Process.Signal(sig))
			select {
			case <-done:
			case <-time.After(proctest.HangAfter):
				t.Fatalf("still running %v after %v; output: %s", proctest.HangAfter, sig, out.String())
			}
			assert.Equal(t, 128+int(sig), shellStatus(cmd.ProcessState), "output: %s", out.String())
			proctest.RequireGone(t, left, proctest.HangAfter)
		})
	}
}

// warmSleepManifest is a manifest of the warm test CLI whose one tool,
// sleep, writes its pid to pids and sleeps an hour.
func warmSleepManifest(t *testing.T, pids string) string {
	t.Helper()
	cli := proctest.WarmCLI(t)
	p := filepath.Join(t.TempDir(), "m.json")
	require.NoError(t, os.WriteFile(p, []byte(`{"version": 1, "cli": {"command": "`+cli+`",
	  "env": {"set": {"WARMDEMO_IMPORT_SECONDS": "0", "WARMDEMO_PIDFILE": "`+pids+`"}},
	  "warm": {"python": "warmdemo:main", "preload": "click"}},
	  "tools": [{"name": "sleep", "title": "t", "description": "d", "command": ["sleep", "3600"],
	   "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`), 0o644))
	return p
}

// waitForPid waits until the file pids holds a pid (the program the
// command runs has started), or the command ends, or a hang's bound.
func waitForPid(t *testing.T, pids string, ended <-chan struct{}, out *bytes.Buffer) int {
	t.Helper()
	deadline := time.After(proctest.HangAfter)
	for {
		b, _ := os.ReadFile(pids)
		if line, _, ok := strings.Cut(string(b), "\n"); ok {
			if strings.HasPrefix(line, "{") { // the warm test CLI's {"pid": N}
				line = strings.Trim(strings.TrimPrefix(strings.TrimSpace(line), `{"pid":`), " }")
			}
			pid, err := strconv.Atoi(strings.TrimSpace(line))
			require.NoError(t, err, "pid file: %q", b)
			return pid
		}
		select {
		case <-ended:
			t.Fatalf("ended before it ran anything; output: %s", out.String())
		case <-deadline:
			t.Fatalf("ran nothing within %v; output: %s", proctest.HangAfter, out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// descendants are the processes below pid now, by ps (Linux and macOS).
func descendants(t *testing.T, pid int) map[string]int {
	t.Helper()
	b, err := exec.Command("ps", "-A", "-o", "pid=", "-o", "ppid=").Output()
	require.NoError(t, err)
	children := map[int][]int{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		p, _ := strconv.Atoi(f[0])
		pp, _ := strconv.Atoi(f[1])
		children[pp] = append(children[pp], p)
	}
	out := map[string]int{}
	for queue := children[pid]; len(queue) > 0; queue = queue[1:] {
		out["descendant "+strconv.Itoa(queue[0])] = queue[0]
		queue = append(queue, children[queue[0]]...)
	}
	return out
}

// shellStatus is the status a shell reports: 128 plus the signal for a
// process a signal ended, else its exit code.
func shellStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
