package annotations

import (
	"os"
	"syscall"
)

// stampOf is fi's stamp; false if fi carries none.
func stampOf(fi os.FileInfo) (fileStamp, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}, false
	}
	return fileStamp{dev: uint64(uint32(st.Dev)), ino: st.Ino, size: uint64(st.Size),
		mtime: st.Mtimespec.Nano(), ctime: st.Ctimespec.Nano()}, true
}
