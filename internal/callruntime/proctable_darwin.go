package callruntime

import "golang.org/x/sys/unix"

// p_stat values of <sys/proc.h>.
const (
	sStop   = 4 // SSTOP
	sZombie = 5 // SZOMB
)

// processTable reads every process of the machine (sysctl kern.proc.all).
// A process's start time is p_starttime in µs since the epoch; its session
// comes from getsid, asked once per session (processes of one session
// share their e_sess) and per process where XNU leaves e_sess empty.
func processTable() ([]proc, error) {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, err
	}
	sids := map[uintptr]int{}
	out := make([]proc, 0, len(kps))
	for i := range kps {
		kp := &kps[i]
		p := proc{
			pid:     int(kp.Proc.P_pid),
			ppid:    int(kp.Eproc.Ppid),
			pgid:    int(kp.Eproc.Pgid),
			start:   uint64(kp.Proc.P_starttime.Sec)*1e6 + uint64(kp.Proc.P_starttime.Usec),
			zombie:  kp.Proc.P_stat == sZombie,
			stopped: kp.Proc.P_stat == sStop,
		}
		if !p.zombie {
			sess := kp.Eproc.Sess
			sid, ok := sids[sess]
			if !ok || sess == 0 {
				sid, _ = unix.Getsid(p.pid)
				if sess != 0 {
					sids[sess] = sid
				}
			}
			p.sid = sid
		}
		out = append(out, p)
	}
	return out, nil
}

// readTable is the process table the ledger's sweep reads; nil if it
// cannot be read.
func readTable() []proc {
	t, _ := processTable()
	return t
}

// procStart reads one process's start time; false if it is gone.
func procStart(pid int) (uint64, bool) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return 0, false
	}
	return uint64(kp.Proc.P_starttime.Sec)*1e6 + uint64(kp.Proc.P_starttime.Usec), true
}

// ProcessStart returns when process pid started, in µs since the epoch, so
// that a pid can be told from its reuse; false when there is no such
// process.
func ProcessStart(pid int) (uint64, bool) { return procStart(pid) }
