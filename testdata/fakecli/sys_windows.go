//go:build windows

package main

import (
	"os"
	"os/exec"
	"strconv"
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

// nestedLimit runs a child that commits 2*limit bytes in a job of this
// process's own with a notification limit of limit, and waits for the
// limit's message on that job's completion port. Windows delivers a nested
// job's messages to every port up the chain: the call's port hears it too,
// under the call's own key, about a limit the call never set.
func nestedLimit(limit int64) string {
	job, err := windows.CreateJobObject(nil, nil)
	must(err)
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	_, err = windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	must(err)
	port, err := windows.CreateIoCompletionPort(windows.InvalidHandle, 0, 0, 1)
	must(err)
	assoc := struct {
		CompletionKey  uintptr
		CompletionPort windows.Handle
	}{1, port}
	_, err = windows.SetInformationJobObject(job, windows.JobObjectAssociateCompletionPortInformation,
		uintptr(unsafe.Pointer(&assoc)), uint32(unsafe.Sizeof(assoc)))
	must(err)
	// JOBOBJECT_NOTIFICATION_LIMIT_INFORMATION, padded to MSVC's 48 bytes.
	notify := struct {
		IoReadBytesLimit, IoWriteBytesLimit uint64
		PerJobUserTimeLimit                 int64
		JobMemoryLimit                      uint64
		RateControlTolerance                int32
		RateControlToleranceInterval        int32
		LimitFlags                          uint32
		_                                   uint32
	}{JobMemoryLimit: uint64(limit), LimitFlags: windows.JOB_OBJECT_LIMIT_JOB_MEMORY}
	_, err = windows.SetInformationJobObject(job, windows.JobObjectNotificationLimitInformation,
		uintptr(unsafe.Pointer(&notify)), uint32(unsafe.Sizeof(notify)))
	must(err)

	c := exec.Command(self(), "child", "hogwait:"+strconv.FormatInt(2*limit, 10))
	start, err := c.StdinPipe()
	must(err)
	must(c.Start())
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(c.Process.Pid))
	must(err)
	must(windows.AssignProcessToJobObject(job, h))
	windows.CloseHandle(h)
	_, err = start.Write([]byte{1}) // in the job: now commit
	must(err)
	for {
		var msg uint32
		var key, pid uintptr
		must(windows.GetQueuedCompletionStatus(port, &msg, &key, (**windows.Overlapped)(unsafe.Pointer(&pid)), 60_000))
		if msg == 11 { // JOB_OBJECT_MSG_NOTIFICATION_LIMIT
			break
		}
	}
	windows.CloseHandle(job) // KILL_ON_JOB_CLOSE: the child goes
	_ = c.Wait()
	return "nested limit reached"
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
