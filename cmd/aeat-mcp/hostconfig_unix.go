//go:build !windows

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockFile holds an exclusive lock on path (created if need be) until the
// returned function is called; the kernel drops it if the process dies.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// replaceRename renames from over to: atomic, and indifferent to to's mode
// or to readers holding it open.
func replaceRename(from, to string) error { return os.Rename(from, to) }
