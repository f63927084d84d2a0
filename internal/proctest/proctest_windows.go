package proctest

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"
)

const stillActive = 259 // STILL_ACTIVE

// exists reports whether pid names a process that has not exited. Windows
// has no zombies: a process someone still holds a handle to outlives its
// exit as an object, with an exit code.
func exists(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return err == windows.ERROR_ACCESS_DENIED // another user's: it exists
	}
	defer windows.CloseHandle(h)
	var code uint32
	return windows.GetExitCodeProcess(h, &code) != nil || code == stillActive
}

// parentOfZombie: Windows has no zombies.
func parentOfZombie(int) int { return 0 }

func describe(pid int) string { return fmt.Sprintf("running as %q", imagePath(pid)) }

// Running lists the live processes running the program at path, by pid
// (as text): a Toolhelp snapshot, each process's image path compared
// without case.
func Running(path string) map[string]int {
	out := map[string]int{}
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return out
	}
	defer windows.CloseHandle(snap)
	var pe windows.ProcessEntry32
	pe.Size = uint32(unsafe.Sizeof(pe))
	for err = windows.Process32First(snap, &pe); err == nil; err = windows.Process32Next(snap, &pe) {
		pid := int(pe.ProcessID)
		if exe := imagePath(pid); exe != "" && strings.EqualFold(exe, path) && exists(pid) {
			out[strconv.Itoa(pid)] = pid
		}
	}
	return out
}

// imagePath is pid's executable, "" when it cannot be read.
func imagePath(pid int) string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n := uint32(len(buf))
	if windows.QueryFullProcessImageName(h, 0, &buf[0], &n) != nil {
		return ""
	}
	return windows.UTF16ToString(buf[:n])
}

// Kill terminates pid; cleanup after a failed test.
func Kill(pid int) {
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return
	}
	defer windows.CloseHandle(h)
	_ = windows.TerminateProcess(h, 1)
}
