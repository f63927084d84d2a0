package warm

import (
	"os"
	"syscall"
	"unsafe"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"golang.org/x/sys/unix"
)

// exitWatch follows one warm child by a pidfd, without its template: a
// template that died or stopped answering must keep no call from learning
// that its child ended, nor from killing it. Pid reuse cannot fool it: the
// pidfd names the process, not its number.
type exitWatch struct {
	f  *os.File
	rc syscall.RawConn
	// gone is closed once the child has exited (a zombie counts).
	gone chan struct{}
}

// watchExit starts following pid; nil where pidfds do not exist (Linux
// before 5.3), and the template's word is all there is.
func watchExit(pid int) *exitWatch {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return nil
	}
	// Non-blocking, so that os.File hands it to the runtime's poller:
	// waiting for the exit then holds no thread.
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil
	}
	w := &exitWatch{f: f, rc: rc, gone: make(chan struct{})}
	go func() {
		// A pidfd polls readable once its process has exited; Read waits
		// for that without reading (close ends it with an error).
		if err := rc.Read(func(fd uintptr) bool { return exited(int(fd)) }); err == nil {
			close(w.gone)
		}
	}()
	return w
}

func exited(pidfd int) bool {
	p := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}
	n, err := unix.Poll(p, 0)
	return err == nil && n > 0 && p[0].Revents&(unix.POLLIN|unix.POLLHUP) != 0
}

// kill sends the child SIGKILL, whoever its parent is now.
func (w *exitWatch) kill() {
	_ = w.rc.Control(func(fd uintptr) { _ = unix.PidfdSendSignal(int(fd), unix.SIGKILL, nil, 0) })
}

func (w *exitWatch) close() { w.f.Close() }

// reap reads and reaps the child's exit status where the server is its
// parent now (the template died, and the server is the child subreaper);
// ok is false where it is not, or it has not exited.
func (w *exitWatch) reap() (st callruntime.ExitStatus, ok bool) {
	_ = w.rc.Control(func(fd uintptr) {
		var info unix.Siginfo
		if unix.Waitid(unix.P_PIDFD, int(fd), &info, unix.WEXITED|unix.WNOHANG, nil) != nil || info.Signo == 0 {
			return
		}
		st, ok = siginfoStatus(&info), true
	})
	return st, ok
}

// siginfoStatus reads si_status from a SIGCHLD siginfo, which x/sys/unix
// leaves in its padding: it follows si_pid and si_uid, which follow three
// ints aligned to the word size.
func siginfoStatus(info *unix.Siginfo) callruntime.ExitStatus {
	off := uintptr(12)
	if unsafe.Sizeof(uintptr(0)) == 8 {
		off = 16
	}
	status := int(*(*int32)(unsafe.Add(unsafe.Pointer(info), off+8)))
	const cldExited = 1 // si_code of a child that exited (<signal.h>)
	if info.Code == cldExited {
		return callruntime.ExitStatus{Code: status}
	}
	return callruntime.ExitStatus{Code: -1, Signal: unix.SignalName(syscall.Signal(status))}
}
