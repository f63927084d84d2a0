package server

import (
	"os"
	"os/signal"

	"golang.org/x/sys/unix"
)

// reparents: a Linux process whose parent dies gets a new parent.
const reparents = true

// parentDeathSignal is the signal the kernel sends when our parent dies. It
// is a signal of its own, not SIGTERM, because Linux sends it when the
// *thread* that forked us exits, not only when the whole host does: a host
// that spawns servers from a short-lived thread would kill every one of
// them. Receiving it only triggers a check of getppid, which changes when
// the process is gone and not when one of its threads is.
const parentDeathSignal = unix.SIGUSR2

// watchParentExit arms the parent-death signal and calls exited when it
// arrives and getppid confirms the parent is gone.
func watchParentExit(parent int, exited func()) (stop func(), err error) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, parentDeathSignal)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-sig:
				if os.Getppid() != parent {
					exited()
					return
				}
			}
		}
	}()
	err = unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(parentDeathSignal), 0, 0, 0)
	// The signal stays handled after stop: a later parent death must not
	// kill the process through the signal's default action.
	return func() { close(done) }, err
}

// processAlive reports whether a process with this pid exists.
func processAlive(pid int) bool { return unix.Kill(pid, 0) != unix.ESRCH }
