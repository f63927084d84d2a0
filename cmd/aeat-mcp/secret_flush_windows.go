package main

import "golang.org/x/sys/windows"

// discardInput drops what was typed on console fd and not read yet.
func discardInput(fd int) { _ = windows.FlushConsoleInputBuffer(windows.Handle(fd)) }
