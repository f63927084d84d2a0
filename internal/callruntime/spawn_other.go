//go:build !linux

package callruntime

import "os/exec"

// spawn starts the program. Only Linux ties a child's death signal to the
// thread that forked it (see spawn_linux.go); elsewhere any thread will do.
func spawn(start func() (*exec.Cmd, error)) (*exec.Cmd, error) { return start() }
