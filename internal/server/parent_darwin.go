package server

import (
	"golang.org/x/sys/unix"
)

// reparents: a macOS process whose parent dies is re-parented to launchd.
const reparents = true

// watchParentExit waits on a kqueue for NOTE_EXIT of the parent: the kernel
// tells us the moment it exits, with no polling delay.
func watchParentExit(parent int, exited func()) (stop func(), err error) {
	kq, err := unix.Kqueue()
	if err != nil {
		return func() {}, err
	}
	ev := unix.Kevent_t{}
	unix.SetKevent(&ev, parent, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	ev.Fflags = unix.NOTE_EXIT
	// A user event lets stop wake the waiting goroutine.
	wake := unix.Kevent_t{}
	unix.SetKevent(&wake, 1, unix.EVFILT_USER, unix.EV_ADD|unix.EV_CLEAR)
	if _, err := unix.Kevent(kq, []unix.Kevent_t{ev, wake}, nil, nil); err != nil {
		unix.Close(kq)
		if err == unix.ESRCH {
			exited() // gone before we could watch it
			return func() {}, nil
		}
		return func() {}, err
	}
	go func() {
		defer unix.Close(kq)
		out := make([]unix.Kevent_t, 1)
		for {
			n, err := unix.Kevent(kq, nil, out, nil)
			if err == unix.EINTR {
				continue
			}
			if err != nil || n == 0 {
				return
			}
			if out[0].Filter == unix.EVFILT_PROC {
				exited()
			}
			return
		}
	}()
	return func() {
		trigger := unix.Kevent_t{}
		unix.SetKevent(&trigger, 1, unix.EVFILT_USER, 0)
		trigger.Fflags = unix.NOTE_TRIGGER
		_, _ = unix.Kevent(kq, []unix.Kevent_t{trigger}, nil, nil)
	}, nil
}

// processAlive reports whether a process with this pid exists.
func processAlive(pid int) bool { return unix.Kill(pid, 0) != unix.ESRCH }
