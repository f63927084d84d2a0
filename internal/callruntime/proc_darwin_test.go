package callruntime_test

import (
	"os"
	"syscall"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"golang.org/x/sys/unix"
)

// osModes are macOS's ways of tracking a tree: the process-table walk, and
// the bare process group when the walk is disabled.
var osModes = []mode{
	{name: "procwalk", tree: "procwalk"},
	{name: "pgroup", disable: []callruntime.Mechanism{callruntime.TreeWalk}, tree: "pgroup"},
}

// running reports whether pid is a live process: neither gone nor a zombie
// (p_stat SZOMB).
func running(pid int) bool {
	if unix.Kill(pid, 0) == unix.ESRCH {
		return false
	}
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	return err == nil && kp.Proc.P_pid == int32(pid) && kp.Proc.P_stat != 5
}

// crashSignal is what "crash SEGV" ends as: the Go runtime re-raises a
// fatal signal as SIGABRT with traceback "crash".
const crashSignal = "SIGABRT"

// terminate is a host's polite stop: SIGTERM.
func terminate(p *os.Process) { _ = p.Signal(syscall.SIGTERM) }
