package main

import (
	"bytes"

	"golang.org/x/sys/unix"
)

// xattr reads an extended attribute.
func xattr(path, name string) (string, bool) {
	buf := make([]byte, 256)
	n, err := unix.Getxattr(path, name, buf)
	if err == unix.ERANGE {
		if n, err = unix.Getxattr(path, name, nil); err == nil {
			buf = make([]byte, n)
			n, err = unix.Getxattr(path, name, buf)
		}
	}
	if err != nil || n < 0 {
		return "", false
	}
	return string(bytes.TrimRight(buf[:n], "\x00")), true
}
