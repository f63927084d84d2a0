package callruntime

import (
	"os"

	"golang.org/x/sys/unix"
)

// newPipe is os.Pipe without the write end in the netpoller: only the
// child writes it (our copy is closed right after the start), so
// registering it would cost an epoll add and delete per call for nothing.
// The read end is non-blocking and polled, as os.Pipe's.
func newPipe() (r, w *os.File, err error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	if err := unix.SetNonblock(p[0], true); err != nil {
		unix.Close(p[0])
		unix.Close(p[1])
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}
