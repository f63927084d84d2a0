package main

import "golang.org/x/sys/unix"

// discardInput drops what was typed on terminal fd and not read yet.
func discardInput(fd int) { _ = unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) }
