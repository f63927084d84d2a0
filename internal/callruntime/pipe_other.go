//go:build !linux

package callruntime

import "os"

// newPipe is os.Pipe (see pipe_linux.go for why Linux differs).
func newPipe() (r, w *os.File, err error) { return os.Pipe() }
