//go:build windows

package main

import (
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// startAnnounced starts c. Windows cannot hand a child an extra
// descriptor through os/exec (ExtraFiles), so the tree step does not wait
// there for its children's pid lines.
func startAnnounced(c *exec.Cmd) error { return c.Start() }

func announced() {}

// Windows has no sessions to escape into; a new process group is the
// closest analogue of Playwright's detached browser.
func newSession() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// breakawayAttr asks to start outside the job: refused unless the job
// allows breakaway (JOB_OBJECT_LIMIT_BREAKAWAY_OK), which ours never does.
func breakawayAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_BREAKAWAY_FROM_JOB}
}

// launch starts c the way distlib's launcher (pip's and uv's aeat.exe)
// starts python.exe: in a job of the launcher's own with KILL_ON_JOB_CLOSE
// and SILENT_BREAKAWAY_OK — a job nested in the call's (Windows 8 and
// later), which the call's TerminateJobObject must still reach.
func launch(c *exec.Cmd) error {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | windows.JOB_OBJECT_LIMIT_SILENT_BREAKAWAY_OK
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		return err
	}
	if err := c.Start(); err != nil {
		return err
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(c.Process.Pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return windows.AssignProcessToJobObject(job, h) // the job handle stays open for the launcher's life
}

var getConsoleWindow = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetConsoleWindow")

// consoleWindow says whether this process has a console window.
func consoleWindow() string {
	if h, _, _ := getConsoleWindow.Call(); h != 0 {
		return "yes"
	}
	return "no"
}

func redirect(f *os.File) {
	os.Stdout, os.Stderr = f, f
}

// crashCodes are the exit codes Windows gives a process that dies of what
// the Unix signal would be: the NTSTATUS of the unhandled exception.
var crashCodes = map[string]uint32{
	"SEGV": 0xC0000005, // STATUS_ACCESS_VIOLATION
	"ABRT": 0xC0000409, // STATUS_STACK_BUFFER_OVERRUN: abort() and fail-fast
	"ILL":  0xC000001D, // STATUS_ILLEGAL_INSTRUCTION
	"FPE":  0xC0000094, // STATUS_INTEGER_DIVIDE_BY_ZERO
	"KILL": 1,          // TerminateProcess's usual code: no crash at all
}

// crash ends the process with the exit code its crash would give on
// Windows — what the supervisor reads, and all that it reads.
func crash(name string) {
	code, ok := crashCodes[name]
	if !ok {
		fail("crash: unknown signal %q", name)
	}
	_ = windows.TerminateProcess(windows.CurrentProcess(), code)
	select {}
}

// inheritedFDs: Windows hands a child the handles it names, not a
// descriptor table; nothing to list.
func inheritedFDs() string { return "" }
