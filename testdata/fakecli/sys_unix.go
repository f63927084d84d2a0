//go:build unix

package main

import (
	"os"
	"os/exec"
	"runtime/debug"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

func newSession() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// breakawayAttr: Unix has no job to break away from; a new session is the
// closest escape.
func breakawayAttr() *syscall.SysProcAttr { return newSession() }

// launch starts c; only Windows launchers put it in a job of their own.
func launch(c *exec.Cmd) error { return c.Start() }

func consoleWindow() string { return "no" }

// redirect points fds 1 and 2 at f.
func redirect(f *os.File) {
	must(unix.Dup2(int(f.Fd()), 1))
	must(unix.Dup2(int(f.Fd()), 2))
}

func crash(name string) {
	sig := unix.SignalNum("SIG" + name)
	if sig == 0 {
		fail("crash: unknown signal %q", name)
	}
	signalSelf(sig)
}

func signalSelf(sig syscall.Signal) {
	// With traceback "crash" the runtime re-raises a fatal signal after
	// printing, so the process really dies by it instead of exiting 2.
	debug.SetTraceback("crash")
	_ = syscall.Kill(os.Getpid(), sig)
	for {
		time.Sleep(time.Second)
	}
}
