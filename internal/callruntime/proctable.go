package callruntime

import (
	"errors"
	"sync"
	"syscall"
)

// What the walks of a process table need that is pure — which processes a
// walk reads at all, what it remembers of them between walks, and what a
// process group's answer to a signal means — lives here, with the OS as a
// parameter where the answer differs, so that macOS's rules run in Linux
// CI (proctable_test.go).

// creds are the user ids of a process that decide whether another may
// signal it.
type creds struct {
	ruid, euid, svuid uint32
}

// canSignal reports whether a process with credentials me may send a
// signal to one with credentials p: root may signal anyone; anyone else
// only a process whose real or saved uid is its real or effective uid
// (POSIX kill(2); XNU's cansignal). A walk skips the processes it cannot
// signal: it could not stop them, and on macOS each one read costs a
// getsid.
func canSignal(me, p creds) bool {
	if me.euid == 0 {
		return true
	}
	return me.ruid == p.ruid || me.ruid == p.svuid || me.euid == p.ruid || me.euid == p.svuid
}

// sessionCache remembers each process's session, by identity (pid and
// start time), so that a walk asks the kernel only about processes it has
// not seen before: XNU leaves kinfo_proc's e_sess empty, and a getsid per
// process per walk is 600 to 900 system calls a walk on a desktop.
//
// A process that calls setsid after it was first seen keeps its old
// session here. That does not change what a walk finds: it was already a
// member (membership is sticky) or its old session was no call's, and its
// new session's id is its own pid, which is also its process group's, read
// fresh from every table.
type sessionCache struct {
	mu   sync.Mutex
	sids map[ident]int
}

// sid returns id's session, asking lookup only when id is not known.
func (c *sessionCache) sid(id ident, lookup func(pid int) (int, error)) int {
	c.mu.Lock()
	sid, ok := c.sids[id]
	c.mu.Unlock()
	if ok {
		return sid
	}
	sid, err := lookup(id.pid)
	if err != nil {
		return 0 // gone since the table was read; not remembered
	}
	c.mu.Lock()
	if c.sids == nil {
		c.sids = map[ident]int{}
	}
	c.sids[id] = sid
	c.mu.Unlock()
	return sid
}

// keep forgets every process not in table: it is gone, and its pid may
// name another process next time.
func (c *sessionCache) keep(table []proc) {
	seen := make(map[ident]bool, len(table))
	for _, p := range table {
		seen[ident{p.pid, p.start}] = true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range c.sids {
		if !seen[id] {
			delete(c.sids, id)
		}
	}
}

// groupAlive decides whether a call's process group still has a live
// member from what kill(-pgid, 0) answered on goos, asking live (a read
// of the group's processes in the process table: whether one is not a
// zombie, and whether the table could be read) only where the answer
// alone does not tell.
//
// ESRCH: no such group. Success: some member can be signalled — on macOS
// a live one, since XNU skips zombies (killpg1_pgrpfilt). EPERM differs:
// on Linux a member exists that we may not signal; on macOS it is also the
// answer for a group that holds only its leader's zombie — killpg1 finds
// the group, skips the zombie, and "nfound == 0" is EPERM under the POSIX
// semantics libc's kill asks for (kern_sig.c). Taken for a live member,
// every call of that mode would wait out the grace and the kill wait after
// its leader exited; so there EPERM means gone unless the table lists a
// live member.
func groupAlive(goos string, killErr error, live func() (alive, ok bool)) bool {
	switch {
	case killErr == nil:
		return true
	case errors.Is(killErr, syscall.ESRCH):
		return false
	case errors.Is(killErr, syscall.EPERM) && goos == "darwin":
		alive, ok := live()
		return ok && alive
	}
	return true
}
