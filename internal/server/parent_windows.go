package server

import (
	"fmt"

	"golang.org/x/sys/windows"
)

// reparents: Windows never re-parents a process, so polling the parent pid
// tells nothing; the parent's process handle does.
const reparents = false

// watchParentExit opens the parent's process handle and waits on it. The
// handle is checked to be the parent itself, not a process that reused its
// pid: a parent is always created before its child. A parent that cannot be
// opened (an elevated host, a protected process) is an error the caller
// logs: Windows never re-parents, so nothing else can tell that it died.
func watchParentExit(parent int, exited func()) (stop func(), err error) {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(parent))
	if err != nil {
		if err == windows.ERROR_INVALID_PARAMETER {
			exited() // no such process: the parent is already gone
			return func() {}, nil
		}
		return func() {}, fmt.Errorf("opening the parent process %d: %w", parent, err)
	}
	if !createdBefore(h, windows.CurrentProcess()) {
		windows.CloseHandle(h)
		exited() // the pid was reused: our parent is gone
		return func() {}, nil
	}
	cancel, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		windows.CloseHandle(h)
		return func() {}, err
	}
	go func() {
		defer windows.CloseHandle(h)
		defer windows.CloseHandle(cancel)
		ev, err := windows.WaitForMultipleObjects([]windows.Handle{h, cancel}, false, windows.INFINITE)
		if err == nil && ev == windows.WAIT_OBJECT_0 {
			exited()
		}
	}()
	return func() { _ = windows.SetEvent(cancel) }, nil
}

// createdBefore reports whether process a was created before process b.
func createdBefore(a, b windows.Handle) bool {
	var ca, cb, x1, x2, x3 windows.Filetime
	if windows.GetProcessTimes(a, &ca, &x1, &x2, &x3) != nil || windows.GetProcessTimes(b, &cb, &x1, &x2, &x3) != nil {
		return true // cannot tell: trust the pid
	}
	return ca.Nanoseconds() <= cb.Nanoseconds()
}

// processAlive reports whether a process with this pid exists.
func processAlive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return err != windows.ERROR_INVALID_PARAMETER
	}
	defer windows.CloseHandle(h)
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil {
		return true
	}
	return code == 259 // STILL_ACTIVE
}
