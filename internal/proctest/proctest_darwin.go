package proctest

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

const sZombie = 5 // SZOMB, <sys/proc.h>

func exists(pid int) bool { return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// parentOfZombie is the parent pid of pid when it is a zombie, else 0.
func parentOfZombie(pid int) int {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) || kp.Proc.P_stat != sZombie {
		return 0
	}
	return int(kp.Eproc.Ppid)
}

func describe(pid int) string {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("p_stat %d, parent %d, group %d", kp.Proc.P_stat, kp.Eproc.Ppid, kp.Eproc.Pgid)
}

// Running lists the live processes running the program at path, by pid
// (as text) — a zombie is not running. The program of a process is the
// path it was executed as (sysctl kern.procargs2), compared with path as
// given and with its links resolved (/var is /private/var).
func Running(path string) map[string]int {
	want := map[string]bool{path: true}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		want[real] = true
	}
	out := map[string]int{}
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return out
	}
	for i := range kps {
		pid := int(kps[i].Proc.P_pid)
		if pid <= 0 || kps[i].Proc.P_stat == sZombie {
			continue
		}
		exe := executable(pid)
		if exe == "" {
			continue
		}
		real, _ := filepath.EvalSymlinks(exe)
		if want[exe] || want[real] {
			out[strconv.Itoa(pid)] = pid
		}
	}
	return out
}

// executable reads the path pid was executed as: kern.procargs2 is argc
// (an int32), then that path, NUL-terminated.
func executable(pid int) string {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil || len(b) < 5 {
		return ""
	}
	b = b[4:]
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// Kill sends SIGKILL to pid; cleanup after a failed test.
func Kill(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
