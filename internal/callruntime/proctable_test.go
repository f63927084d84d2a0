package callruntime

import (
	"errors"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGroupAlive holds the decision of the bare process-group mode (macOS
// when its process table cannot be walked) to each OS's kill(-pgid, 0).
func TestGroupAlive(t *testing.T) {
	zombieOnly := func() (bool, bool) { return false, true }
	liveMember := func() (bool, bool) { return true, true }
	unreadable := func() (bool, bool) { return false, false }
	for _, tc := range []struct {
		name string
		goos string
		err  error
		live func() (bool, bool)
		want bool
	}{
		{"no such group", "darwin", syscall.ESRCH, liveMember, false},
		{"a member signalled", "darwin", nil, zombieOnly, true},
		// XNU: the group holds only the leader's zombie (killpg1 finds
		// the group, skips the zombie, answers EPERM).
		{"darwin EPERM, only the zombie leader", "darwin", syscall.EPERM, zombieOnly, false},
		{"darwin EPERM, another user's live member", "darwin", syscall.EPERM, liveMember, true},
		{"darwin EPERM, no table to ask", "darwin", syscall.EPERM, unreadable, false},
		{"linux EPERM: a member we may not signal", "linux", syscall.EPERM, zombieOnly, true},
		{"wrapped ESRCH", "darwin", errors.Join(syscall.ESRCH), liveMember, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked := false
			live := func() (bool, bool) { asked = true; return tc.live() }
			assert.Equal(t, tc.want, groupAlive(tc.goos, tc.err, live))
			if tc.err == nil || errors.Is(tc.err, syscall.ESRCH) {
				assert.False(t, asked, "kill's answer is enough: no table read")
			}
		})
	}
}

// TestCanSignal: a walk reads only the processes it could stop.
func TestCanSignal(t *testing.T) {
	me := creds{ruid: 501, euid: 501, svuid: 501}
	for _, tc := range []struct {
		name string
		me   creds
		p    creds
		want bool
	}{
		{"ours", me, creds{501, 501, 501}, true},
		{"another user's", me, creds{502, 502, 502}, false},
		{"root's daemon", me, creds{0, 0, 0}, false},
		{"a setuid program we started (real uid ours)", me, creds{501, 0, 0}, true},
		{"saved uid ours", me, creds{0, 0, 501}, true},
		{"root signals anyone", creds{0, 0, 0}, creds{502, 502, 502}, true},
		{"a setuid server, real uid ours", creds{501, 0, 0}, creds{501, 501, 501}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, canSignal(tc.me, tc.p))
		})
	}
}

// TestSessionCache: one getsid per process, not per walk; a pid reused by
// a younger process is asked again; what left the table is forgotten.
func TestSessionCache(t *testing.T) {
	var c sessionCache
	asked := map[int]int{}
	lookup := func(pid int) (int, error) {
		asked[pid]++
		if pid == 99 {
			return 0, syscall.ESRCH
		}
		return pid * 10, nil
	}
	table := []proc{{pid: 10, start: 1}, {pid: 20, start: 2}}
	for walk := 0; walk < 100; walk++ {
		for _, p := range table {
			assert.Equal(t, p.pid*10, c.sid(ident{p.pid, p.start}, lookup))
		}
		c.keep(table)
	}
	assert.Equal(t, map[int]int{10: 1, 20: 1}, asked, "one getsid per process in 100 walks")

	c.sid(ident{10, 7}, lookup) // pid 10 reused by a younger process
	assert.Equal(t, 2, asked[10])

	c.keep([]proc{{pid: 20, start: 2}})
	c.sid(ident{10, 1}, lookup)
	assert.Equal(t, 3, asked[10], "a process that left the table is forgotten")

	assert.Zero(t, c.sid(ident{99, 1}, lookup))
	c.sid(ident{99, 1}, lookup)
	assert.Equal(t, 2, asked[99], "a failed lookup is not remembered")
}
