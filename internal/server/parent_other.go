//go:build !linux && !darwin && !windows

package server

import "syscall"

// reparents: on other Unix systems an orphan is re-parented to init.
const reparents = true

// watchParentExit: no prompt mechanism here; the getppid poll covers it.
func watchParentExit(int, func()) (stop func(), err error) { return func() {}, nil }

// processAlive reports whether a process with this pid exists.
func processAlive(pid int) bool { return syscall.Kill(pid, 0) != syscall.ESRCH }
