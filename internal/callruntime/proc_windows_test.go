package callruntime_test

import (
	"os"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"golang.org/x/sys/windows"
)

// osModes are Windows' ways of tracking a tree: a Job Object per call, and
// the Toolhelp walk when jobs are disabled (or refused by a host's job).
var osModes = []mode{
	{name: "job", tree: "job"},
	{name: "walk", disable: []callruntime.Mechanism{callruntime.JobObject}, tree: "walk"},
}

// running reports whether pid is a live process.
func running(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return err != windows.ERROR_INVALID_PARAMETER // gone, or not ours to open (then alive)
	}
	defer windows.CloseHandle(h)
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil {
		return true
	}
	return code == 259 // STILL_ACTIVE
}

// crashSignal is what "crash SEGV" ends as: fakecli exits with the
// NTSTATUS an access violation gives.
const crashSignal = "STATUS_ACCESS_VIOLATION"

// terminate is a host's polite stop, which Windows does not have: Node's
// child.kill() is TerminateProcess, the same as the kill that follows.
func terminate(*os.Process) {}
