//go:build linux || darwin

package annotations

import (
	"os"

	"golang.org/x/sys/unix"
)

// fileSystemOf is what fstatfs says of the file system f is on; false if
// it cannot say. Each system's changeTimeKept reads its own field of it.
func fileSystemOf(f *os.File) (unix.Statfs_t, bool) {
	var sfs unix.Statfs_t
	conn, err := f.SyscallConn()
	if err != nil {
		return sfs, false
	}
	var serr error
	if err := conn.Control(func(fd uintptr) { serr = unix.Fstatfs(int(fd), &sfs) }); err != nil || serr != nil {
		return sfs, false
	}
	return sfs, true
}
