//go:build unix

package main

import (
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
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

// startAnnounced starts c and returns once it has announced itself (a
// daemon's middle process: once the daemon has): the child holds the write
// end of a pipe until its pid line is written, and its exit closes it too,
// so this never waits on a child that died first.
func startAnnounced(c *exec.Cmd) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	c.ExtraFiles = append(c.ExtraFiles, w)
	c.Env = append(os.Environ(), announceEnv+"="+strconv.Itoa(2+len(c.ExtraFiles)))
	err = c.Start()
	_ = w.Close()
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, r)
	return nil
}

// announced closes the descriptor startAnnounced handed this process, and
// forgets it, so that nothing this process starts holds it.
func announced() {
	fd, ok := os.LookupEnv(announceEnv)
	if !ok {
		return
	}
	_ = os.Unsetenv(announceEnv)
	if n, err := strconv.Atoi(fd); err == nil {
		_ = syscall.Close(n)
	}
}

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

// inheritedFDs lists the open descriptors above stderr, space-separated.
// The Go runtime opens none of its own before main, so each was inherited.
func inheritedFDs() string {
	var open []string
	for fd := 3; fd < 1024; fd++ {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil {
			open = append(open, strconv.Itoa(fd))
		}
	}
	return strings.Join(open, " ")
}

// nestedLimit: only Windows nests jobs.
func nestedLimit(int64) string { return "nested limit: no jobs here" }
