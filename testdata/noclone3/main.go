//go:build linux

// Command noclone3 runs a command under a seccomp filter that answers
// clone3 with ENOSYS, as older container runtimes' default profiles do
// (Docker before 20.10.10, runc with an old libseccomp) and as a kernel
// before 5.3 does by not having it:
//
//	noclone3 go test -race ./internal/callruntime
//
// The filter is inherited by everything the command starts, so a test
// binary, its helpers and the CLIs they supervise all see clone3 refused —
// the container path of callruntime (CLONE_INTO_CGROUP unavailable) runs
// for real. Before it runs the command it checks that the filter took:
// clone3 must answer ENOSYS where it answered otherwise before.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: noclone3 COMMAND [ARG...]")
		os.Exit(2)
	}
	path, err := exec.LookPath(os.Args[1])
	if err != nil {
		fail(err)
	}
	// The filter is installed for every thread (TSYNC), and the command
	// is executed from the thread that installed it.
	runtime.LockOSThread()
	if err := refuseClone3(); err != nil {
		fail(fmt.Errorf("installing the seccomp filter: %w", err))
	}
	if errno := clone3Probe(); errno != unix.ENOSYS {
		fail(fmt.Errorf("clone3 still answers %v under the filter", errno))
	}
	fail(unix.Exec(path, os.Args[1:], os.Environ()))
}

// auditArch is this architecture's AUDIT_ARCH_* value: a filter checks it
// so that a syscall number is read in the right table.
var auditArch = map[string]uint32{
	"amd64": unix.AUDIT_ARCH_X86_64,
	"arm64": unix.AUDIT_ARCH_AARCH64,
}

// refuseClone3 installs, for every thread of this process and whatever it
// executes, a classic BPF program over struct seccomp_data (nr at offset
// 0, arch at 4): clone3 of this architecture gets ENOSYS, everything else
// is allowed.
func refuseClone3() error {
	arch, ok := auditArch[runtime.GOARCH]
	if !ok {
		return fmt.Errorf("no seccomp architecture known for %s", runtime.GOARCH)
	}
	const (
		ldAbsW = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeqK   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		retK   = unix.BPF_RET | unix.BPF_K
	)
	prog := []unix.SockFilter{
		{Code: ldAbsW, K: 4},                                          // arch
		{Code: jeqK, K: arch, Jt: 0, Jf: 3},                           // another ABI: allow
		{Code: ldAbsW, K: 0},                                          // nr
		{Code: jeqK, K: unix.SYS_CLONE3, Jt: 0, Jf: 1},                //
		{Code: retK, K: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)}, // clone3: ENOSYS
		{Code: retK, K: unix.SECCOMP_RET_ALLOW},
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER,
		unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	if errno != 0 {
		return errno
	}
	return nil
}

// clone3Probe calls clone3 with a size no kernel accepts: the kernel
// answers EINVAL without creating anything, the filter ENOSYS.
func clone3Probe() unix.Errno {
	_, _, errno := unix.RawSyscall(unix.SYS_CLONE3, 0, 0, 0)
	return errno
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "noclone3:", err)
	os.Exit(2)
}
