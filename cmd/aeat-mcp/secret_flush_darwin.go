package main

import "golang.org/x/sys/unix"

// discardInput drops what was typed on terminal fd and not read yet
// (tcflush(TCIFLUSH): TIOCFLUSH with FREAD).
func discardInput(fd int) { _ = unix.IoctlSetPointerInt(fd, unix.TIOCFLUSH, unix.TCIFLUSH) }
