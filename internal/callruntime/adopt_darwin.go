package callruntime

import (
	"fmt"
	"os/exec"
	"syscall"
)

// Adoption on macOS (see adopt.go): the tree is the child's process group
// (it leads a session of its own) plus the walk of the process table, as
// for a child started with exec. There is no Pdeathsig and no lifeline: the
// template watches its control socket and, when the server is gone, kills
// its children and exits; a SIGKILLed server leaves warm calls running as
// it leaves cold ones.

func (t *groupTree) adopt(pid, parent int) error {
	procs, err := processTable()
	if err == nil {
		found := false
		for _, pr := range procs {
			if pr.pid == pid {
				found = true
				if pr.ppid != parent {
					return fmt.Errorf("process %d is not the template's child (its parent is %d, not %d)", pid, pr.ppid, parent)
				}
				if pr.zombie {
					return fmt.Errorf("process %d has already exited", pid)
				}
			}
		}
		if !found {
			return fmt.Errorf("process %d is gone", pid)
		}
	}
	t.leader = pid
	return nil
}

func (p *darwinPlatform) startHelper(cmd *exec.Cmd) (func(), error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return func() {}, nil
}
