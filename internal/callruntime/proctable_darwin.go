package callruntime

import "golang.org/x/sys/unix"

// sZombie is SZOMB in <sys/proc.h>.
const sZombie = 5

func processTable() ([]darwinProc, error) {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, err
	}
	out := make([]darwinProc, 0, len(kps))
	for _, kp := range kps {
		out = append(out, darwinProc{
			pid:    int(kp.Proc.P_pid),
			ppid:   int(kp.Eproc.Ppid),
			pgid:   int(kp.Eproc.Pgid),
			zombie: kp.Proc.P_stat == sZombie,
		})
	}
	return out, nil
}

func zombie(pid int) bool {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	return err == nil && kp.Proc.P_stat == sZombie
}
