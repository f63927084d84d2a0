package annotations

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// stampOf is the stamp of f, whose information is fi; false if fi carries
// none, or f's file system is not one whose change time no program can
// set (changeTimeKept).
func stampOf(f *os.File, fi os.FileInfo) (fileStamp, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !changeTimeKept(f) {
		return fileStamp{}, false
	}
	return fileStamp{dev: uint64(uint32(st.Dev)), ino: st.Ino, size: uint64(st.Size),
		mtime: st.Mtimespec.Nano(), ctime: st.Ctimespec.Nano()}, true
}

// changeTimeKept reports whether f is on APFS or HFS+, whose change time
// the kernel sets at every change; not FAT, exFAT, a FUSE mount (macFUSE
// file systems may have no ctime) or a network share: those hash the
// manifest at every start, as before.
func changeTimeKept(f *os.File) bool {
	sfs, ok := fileSystemOf(f)
	if !ok {
		return false
	}
	switch unix.ByteSliceToString(sfs.Fstypename[:]) {
	case "apfs", "hfs":
		return true
	}
	return false
}
