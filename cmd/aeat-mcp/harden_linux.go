package main

import "golang.org/x/sys/unix"

// harden makes the process not dumpable (prctl PR_SET_DUMPABLE 0): the
// kernel then lets only a process with CAP_SYS_PTRACE open its
// /proc/PID/fd, mem and environ, attach to it with ptrace, or read its
// core, and owns its /proc/PID files by root. The process itself keeps
// every /proc/self read it makes (its fds, exe, status, cgroup,
// mountinfo); its children are dumpable again from their exec. A tracer
// attached before (strace -f aeat-mcp) stays attached; attaching later
// (strace -p, gdb -p, lsof -p) needs root. Root is not held back (it has
// CAP_SYS_PTRACE): a server run as root runs its CLI as root.
func harden() (string, error) {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return "", err
	}
	return "not dumpable: other processes of this user cannot open its pipes or memory through /proc", nil
}
