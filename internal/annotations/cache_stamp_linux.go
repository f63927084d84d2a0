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
	return fileStamp{dev: uint64(st.Dev), ino: st.Ino, size: uint64(st.Size),
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}

// changeTimeKept reports whether f is on a file system that keeps a
// change time of its own, set by the kernel at every change: the local
// ones Linux users keep a manifest on. Not FAT or exFAT (Linux keeps
// their ctime equal to the mtime, which utimes sets: `cp -p` of a file of
// the same size and time would keep the stamp), not FUSE (sshfs has no
// ctime and keeps inodes by path), nor any other this list does not name:
// they hash the manifest at every start, as before.
func changeTimeKept(f *os.File) bool {
	sfs, ok := fileSystemOf(f)
	if !ok {
		return false
	}
	switch uint32(sfs.Type) { // a magic number is 32 bits; a 32-bit system keeps it signed
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.OVERLAYFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC, 0x2fc12fc1 /* ZFS */ :
		return true
	}
	return false
}
