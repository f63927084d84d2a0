package callruntime

import (
	"os"

	"golang.org/x/sys/unix"
)

// p_stat values of <sys/proc.h>.
const (
	sStop   = 4 // SSTOP
	sZombie = 5 // SZOMB
)

// self is this process's credentials, read once: a walk skips the
// processes it may not signal.
var selfCreds = func() creds {
	ruid, euid := uint32(os.Getuid()), uint32(os.Geteuid())
	return creds{ruid: ruid, euid: euid, svuid: euid}
}()

// sessions caches every walk's getsid answers (see sessionCache).
var sessions sessionCache

// processTable reads the processes of the machine that this process may
// signal (sysctl kern.proc.all; see canSignal). A process's start time is
// p_starttime in µs since the epoch; its session comes from getsid, asked
// once per process (sessionCache): XNU leaves e_sess empty.
func processTable() ([]proc, error) {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, err
	}
	out := make([]proc, 0, len(kps))
	for i := range kps {
		kp := &kps[i]
		if !canSignal(selfCreds, kinfoCreds(kp)) {
			continue
		}
		p := proc{
			pid:     int(kp.Proc.P_pid),
			ppid:    int(kp.Eproc.Ppid),
			pgid:    int(kp.Eproc.Pgid),
			start:   kinfoStart(kp),
			zombie:  kp.Proc.P_stat == sZombie,
			stopped: kp.Proc.P_stat == sStop,
		}
		if !p.zombie {
			p.sid = sessions.sid(ident{p.pid, p.start}, unix.Getsid)
		}
		out = append(out, p)
	}
	sessions.keep(out)
	return out, nil
}

// kinfoCreds reads the credentials XNU reports of a process (its "fake
// historical" pcred and ucred, kern_sysctl.c).
func kinfoCreds(kp *unix.KinfoProc) creds {
	return creds{ruid: kp.Eproc.Pcred.P_ruid, euid: kp.Eproc.Ucred.Uid, svuid: kp.Eproc.Pcred.P_svuid}
}

func kinfoStart(kp *unix.KinfoProc) uint64 {
	return uint64(kp.Proc.P_starttime.Sec)*1e6 + uint64(kp.Proc.P_starttime.Usec)
}

// groupHasLive reads process group pgid's processes (sysctl
// kern.proc.pgrp) and reports whether one is not a zombie; ok is false
// when the table could not be read.
func groupHasLive(pgid int) (alive, ok bool) {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.pgrp", pgid)
	if err != nil {
		return false, false
	}
	for i := range kps {
		if kps[i].Proc.P_stat != sZombie {
			return true, true
		}
	}
	return false, true
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
	return kinfoStart(kp), true
}

// ProcessStart returns when process pid started, in µs since the epoch, so
// that a pid can be told from its reuse; false when there is no such
// process.
func ProcessStart(pid int) (uint64, bool) { return procStart(pid) }
