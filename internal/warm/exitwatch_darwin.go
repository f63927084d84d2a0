package warm

import (
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"golang.org/x/sys/unix"
)

// exitWatch follows one warm child by kqueue (EVFILT_PROC, NOTE_EXIT),
// without its template: a template that died or stopped answering must
// keep no call from learning that its child ended, nor from killing it.
type exitWatch struct {
	pid  int
	kq   int
	gone chan struct{}
	// done stops the wait; closeOnce guards kq.
	done      chan struct{}
	closeOnce sync.Once
}

// watchExit starts following pid; nil if kqueue refuses it.
func watchExit(pid int) *exitWatch {
	kq, err := unix.Kqueue()
	if err != nil {
		return nil
	}
	unix.CloseOnExec(kq)
	w := &exitWatch{pid: pid, kq: kq, gone: make(chan struct{}), done: make(chan struct{})}
	ev := []unix.Kevent_t{{Ident: uint64(pid), Filter: unix.EVFILT_PROC, Flags: unix.EV_ADD | unix.EV_ONESHOT, Fflags: unix.NOTE_EXIT}}
	if _, err := unix.Kevent(kq, ev, nil, nil); err != nil {
		// ESRCH: it has already exited.
		unix.Close(kq)
		close(w.gone)
		return w
	}
	go func() {
		defer unix.Close(kq)
		out := make([]unix.Kevent_t, 1)
		// Woken every 200 ms to see whether the watch was closed: a
		// kevent blocked on a kqueue another thread closes is not
		// defined to return.
		ts := unix.NsecToTimespec(int64(200 * time.Millisecond))
		for {
			select {
			case <-w.done:
				return
			default:
			}
			n, err := unix.Kevent(kq, nil, out, &ts)
			if err == nil && n > 0 {
				close(w.gone)
				return
			}
		}
	}()
	return w
}

// kill sends the child SIGKILL unless it has exited (its pid may then be
// another's).
func (w *exitWatch) kill() {
	select {
	case <-w.gone:
	default:
		_ = unix.Kill(w.pid, unix.SIGKILL)
	}
}

func (w *exitWatch) close() { w.closeOnce.Do(func() { close(w.done) }) }

// reap never succeeds on macOS: there is no child subreaper, so a child
// whose template died went to launchd, which reaped it.
func (w *exitWatch) reap() (callruntime.ExitStatus, bool) { return callruntime.ExitStatus{}, false }
