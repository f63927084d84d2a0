package callruntime_test

// Windows-only tests: what only Job Objects and consoles do. Compiled on
// Linux by CI; run on Windows.

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/windows"
)

// TestWindows_BreakawayRefused: a program that asks to start a child
// outside the job (CREATE_BREAKAWAY_FROM_JOB) is refused — the call's job
// never allows breakaway — so nothing escapes the kill.
func TestWindows_BreakawayRefused(t *testing.T) {
	r := newRunner(t)
	if r.Tree() != "job" {
		t.Fatalf("no Job Object here (%s): %v", r.Tree(), r.Mechanisms())
	}
	res := run(t, r, spec("pid", "tree breakaway", "sleep 300ms", "exit 0"))
	pids := reportedPids(res.Stdout.Text(nil))
	defer proctest.KillAfterFailure(t, pids)
	assert.Contains(t, res.Stdout.Text(nil), "breakaway refused", "the escape was not refused")
	assert.NotContains(t, pids, "escaped")
	assert.True(t, res.TreeDead)
	requireStopped(t, pids, proctest.HangAfter)
}

// TestWindows_LauncherChain: pip's and uv's aeat.exe is a launcher that
// starts python.exe in a job of its own (distlib: KILL_ON_JOB_CLOSE,
// SILENT_BREAKAWAY_OK) and waits for it; the call's kill must reach the
// python process through the nested job.
func TestWindows_LauncherChain(t *testing.T) {
	r := newRunner(t)
	s := spec("pid", "tree launcher", "hang")
	ctx, _ := endWhenSeen(&s, "pid python ", 1, callruntime.ErrTimeout)
	res, err := r.Run(ctx, s)
	require.NoError(t, err)
	pids := reportedPids(res.Stdout.Text(nil))
	defer proctest.KillAfterFailure(t, pids)
	require.Contains(t, pids, "python", res.Stdout.Text(nil))
	assert.Equal(t, callruntime.TimedOut, res.End)
	assert.True(t, res.TreeDead)
	requireStopped(t, pids, proctest.HangAfter)
}

// TestWindows_NestedJobMessages: a job nested in the call's (as pip's
// launcher nests one) sends its messages to the call's port too: its
// memory limit must not make a call without --max-memory end as
// resource_exceeded (jobevents_test.go holds the rules, and the nested
// emptying, on any OS).
func TestWindows_NestedJobMessages(t *testing.T) {
	r := newRunner(t)
	if r.Tree() != "job" {
		t.Fatalf("no Job Object here (%s): %v", r.Tree(), r.Mechanisms())
	}
	res := run(t, r, spec("nestedlimit 33554432", "exit 0"))
	require.Contains(t, res.Stdout.Text(nil), "nested limit reached", res.Stderr.Text(nil))
	assert.Equal(t, callruntime.Exited, res.End, "a nested job's memory message taken for ours")
	assert.Equal(t, 0, res.ExitCode)
}

// TestWindows_MemoryCeiling: the ceiling is a notification limit on the
// job's committed memory, whose message is guaranteed; the tree is killed
// and the call ends as resource_exceeded.
func TestWindows_MemoryCeiling(t *testing.T) {
	r := newRunner(t)
	s := spec("pid", "tree hog:400000000", "hang")
	s.MemoryLimit = 150 << 20
	s.Timeout = proctest.HangAfter // ResourceExceeded, not TimedOut: the ceiling stopped it
	res := run(t, r, s)
	pids := reportedPids(res.Stdout.Text(nil))
	defer proctest.KillAfterFailure(t, pids)
	assert.Equal(t, callruntime.ResourceExceeded, res.End)
	assert.True(t, res.TreeDead)
	requireStopped(t, pids, proctest.HangAfter)
}

// TestWindows_NestedHostJobs (W7): a host may run the server in a job of
// its own. libuv's (every Node-based host's) and a plain KILL_ON_JOB_CLOSE
// one are nested under; one with UI restrictions cannot be, and then calls
// must still run — breaking away where the host's job allows it, or on the
// Toolhelp walk, which reports tree_dead false — instead of every call
// failing while doctor shows green.
func TestWindows_NestedHostJobs(t *testing.T) {
	const (
		libuv = windows.JOB_OBJECT_LIMIT_BREAKAWAY_OK | windows.JOB_OBJECT_LIMIT_SILENT_BREAKAWAY_OK |
			windows.JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION | windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
		killOnClose = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	)
	tests := []struct {
		name     string
		limits   uint32
		ui       uint32
		tree     string
		treeDead bool
	}{
		{"libuv's job", libuv, 0, "job", true},
		{"KILL_ON_JOB_CLOSE", killOnClose, 0, "job", true},
		{"UI restrictions, breakaway allowed", killOnClose | windows.JOB_OBJECT_LIMIT_BREAKAWAY_OK, windows.JOB_OBJECT_UILIMIT_DESKTOP, "job", true},
		{"UI restrictions, no breakaway", killOnClose, windows.JOB_OBJECT_UILIMIT_DESKTOP, "walk", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := runInHostJob(t, tc.limits, tc.ui, 0, "pid + tree plain,setsid + sleep 200ms + exit 0")
			assert.Contains(t, out, "tree "+tc.tree+"\n", out)
			assert.Contains(t, out, "outcome exited", "the call ran")
			if tc.treeDead {
				assert.Contains(t, out, "tree_dead true")
			} else {
				assert.Contains(t, out, "tree_dead false", "the walk cannot confirm a tree dead, and says so")
			}
			pids := reportedPids(out)
			defer proctest.KillAfterFailure(t, pids)
			requireStopped(t, pids, proctest.HangAfter)
		})
	}
}

// TestWindows_ConsolelessStart (W8): a server started without a console
// (DETACHED_PROCESS) starts its calls with CREATE_NO_WINDOW — else each
// would open a console window — and says a stop cannot be graceful.
func TestWindows_ConsolelessStart(t *testing.T) {
	out := runInHostJob(t, 0, 0, windows.DETACHED_PROCESS, "console")
	assert.Contains(t, out, "console window no", out)
	assert.Contains(t, out, "no console", out)
}

// runInHostJob runs the report-tree helper, with args as its fakecli steps,
// started suspended in a job with the given limits and UI restrictions (no
// job when both are zero), and with extra creation flags; it returns what
// the helper printed.
func runInHostJob(t *testing.T, limits, ui, flags uint32, args string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CALLRUNTIME_TEST_HELPER=report-tree", "FAKECLI="+fakecli, "ARGS="+args)
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | flags}
	var out strings.Builder
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	if limits != 0 || ui != 0 {
		job, err := windows.CreateJobObject(nil, nil)
		require.NoError(t, err)
		t.Cleanup(func() { windows.CloseHandle(job) })
		info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
		info.BasicLimitInformation.LimitFlags = limits
		_, err = windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
			uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
		require.NoError(t, err)
		if ui != 0 {
			r := windows.JOBOBJECT_BASIC_UI_RESTRICTIONS{UIRestrictionsClass: ui}
			_, err = windows.SetInformationJobObject(job, windows.JobObjectBasicUIRestrictions,
				uintptr(unsafe.Pointer(&r)), uint32(unsafe.Sizeof(r)))
			require.NoError(t, err)
		}
		h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
		require.NoError(t, err)
		defer windows.CloseHandle(h)
		require.NoError(t, windows.AssignProcessToJobObject(job, h))
	}
	require.NoError(t, callruntime.ResumeThreads(uint32(cmd.Process.Pid)))
	require.NoError(t, cmd.Wait())
	return out.String()
}
