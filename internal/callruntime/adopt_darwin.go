package callruntime

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// Adoption on macOS (see adopt.go): the child leads a session of its own,
// and becomes the call's leader as a child started with exec does — the
// membership the walks follow, the ledger, the lifeline, kqueue. There is
// no Pdeathsig: the template is watched by the lifeline as a helper (its
// process group killed if the server dies, even by SIGKILL), and when the
// server closes its control socket it kills its children and exits.

func (t *darwinTree) adopt(pid, parent int) error {
	table, err := processTable()
	if err == nil {
		found := false
		for _, pr := range table {
			if pr.pid != pid {
				continue
			}
			found = true
			if pr.ppid != parent {
				return fmt.Errorf("process %d is not the template's child (its parent is %d, not %d)", pid, pr.ppid, parent)
			}
			if pr.zombie {
				return fmt.Errorf("process %d has already exited", pid)
			}
		}
		if !found {
			return fmt.Errorf("process %d is gone", pid)
		}
	}
	t.leader = pid
	start, _ := procStart(pid)
	t.m = newMembership(ident{pid, start}, os.Getpid())
	t.call = t.p.calls.Add(1)
	t.p.ledger.add(t.call, proc{pid: pid, start: start, pgid: pid})
	t.p.lifeline().watch(pid)
	t.watchKqueue()
	return nil
}

func (p *darwinPlatform) startHelper(cmd *exec.Cmd) (func(), error) {
	life := p.lifeline()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	pid := cmd.Process.Pid
	life.watch(pid)
	return func() {
		life.unwatch(pid)
	}, nil
}
