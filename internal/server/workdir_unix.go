//go:build unix

package server

import (
	"os"
	"syscall"
)

// readDirAttrs reads what scratchOurs decides on, without following a link.
func readDirAttrs(path string) (dirAttrs, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return dirAttrs{}, err
	}
	a := dirAttrs{dir: fi.IsDir(), uid: -1, perm: fi.Mode().Perm()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		a.uid = int(st.Uid)
	}
	return a, nil
}
