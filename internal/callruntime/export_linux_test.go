package callruntime

import (
	"os/exec"
	"runtime"
)

// DefaultStateDir is where this OS keeps the ledgers of the user whose home
// is home.
func DefaultStateDir(home string) string { return defaultStateDir(runtime.GOOS, home) }

// StartHeld holds a program before it runs, as a cold call is held where
// clone3 is refused, and lets it run once place returned nil.
func StartHeld(cmd *exec.Cmd, place func(pid int) error) error {
	h, err := startHeld(cmd)
	if err != nil {
		return err
	}
	return h.run(cmd, place)
}
