//go:build windows

package main

import (
	"os"
	"syscall"
)

// Windows has no sessions to escape into; a new process group is the
// closest analogue of Playwright's detached browser.
func newSession() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

func redirect(f *os.File) {
	os.Stdout, os.Stderr = f, f
}

func crash(name string) {
	os.Exit(3) // Windows has no signals to die of; an abnormal exit stands in.
}
