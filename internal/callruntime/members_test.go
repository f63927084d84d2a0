package callruntime

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The sticky-membership rules over fake process tables: what every platform
// (the Linux /proc walk, macOS's sysctl walk, the Windows Toolhelp fallback)
// decides with them, run here on any OS.

const server = 100 // the supervising process

// table builds a process table from rows.
func table(rows ...proc) []proc { return rows }

func pids(ps []proc) []int {
	out := make([]int, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.pid)
	}
	sort.Ints(out)
	return out
}

func TestMembership(t *testing.T) {
	// The leader 200 (started at t=10) leads group 200 in the server's
	// session 1.
	leader := proc{pid: 200, ppid: server, pgid: 200, sid: 1, start: 10}
	plain := proc{pid: 201, ppid: 200, pgid: 200, sid: 1, start: 11}
	setsid := proc{pid: 202, ppid: 200, pgid: 202, sid: 202, start: 12}
	browser := proc{pid: 203, ppid: 202, pgid: 202, sid: 202, start: 13}
	stranger := proc{pid: 300, ppid: 1, pgid: 300, sid: 300, start: 5}
	self := proc{pid: server, ppid: 1, pgid: 1, sid: 1, start: 1}

	newM := func() *membership { return newMembership(ident{leader.pid, leader.start}, server) }

	t.Run("group, session and descendants", func(t *testing.T) {
		m := newM()
		got, added := m.walk(table(self, leader, plain, setsid, browser, stranger), nil)
		assert.Equal(t, []int{200, 201, 202, 203}, pids(got))
		assert.Equal(t, []int{201, 202, 203}, pids(added), "the leader is known from the start")
	})

	t.Run("a child re-parented to init once its parent exited stays a member", func(t *testing.T) {
		// macOS re-parents at the parent's exit: after the setsid child's
		// parent (the leader) exits, a walk by parent pid finds nothing.
		m := newM()
		m.walk(table(self, leader, setsid), nil)
		zombieLeader := leader
		zombieLeader.zombie = true
		orphan := setsid
		orphan.ppid = 1
		got, added := m.walk(table(self, zombieLeader, orphan), nil)
		assert.Equal(t, []int{200, 202}, pids(got))
		assert.Empty(t, added)
	})

	t.Run("a member that calls setsid later stays a member", func(t *testing.T) {
		m := newM()
		m.walk(table(self, leader, plain), nil)
		moved := plain
		moved.pgid, moved.sid, moved.ppid = 201, 201, 1
		got, _ := m.walk(table(self, moved), nil)
		assert.Equal(t, []int{201}, pids(got))
	})

	t.Run("a pid reused by another process is not a member, and is forgotten", func(t *testing.T) {
		m := newM()
		m.walk(table(self, leader, setsid), nil)
		reused := proc{pid: 202, ppid: 1, pgid: 202, sid: 202, start: 99}
		got, _ := m.walk(table(self, leader, reused), nil)
		assert.Equal(t, []int{200}, pids(got))
		assert.NotContains(t, m.known, 202)
		// ...even if the old start time came back (it cannot, but the
		// record must be gone, not shadowed).
		got, _ = m.walk(table(self, leader, setsid), nil)
		assert.Equal(t, []int{200, 202}, pids(got), "found again as the leader's child, not as remembered")
	})

	t.Run("the group outlives its leader while a member holds it", func(t *testing.T) {
		m := newM()
		m.walk(table(self, leader, plain), nil)
		// The leader is gone (reaped); plain forked a child and exited
		// too... no: plain is still there, and an unseen process of the
		// group appeared, re-parented to init.
		late := proc{pid: 205, ppid: 1, pgid: 200, sid: 1, start: 20}
		orphanPlain := plain
		orphanPlain.ppid = 1
		got, _ := m.walk(table(self, orphanPlain, late), nil)
		assert.Equal(t, []int{201, 205}, pids(got))
	})

	t.Run("a group id taken by a reused pid is not the call's", func(t *testing.T) {
		m := newM()
		m.walk(table(self, leader, setsid), nil)
		// Everything of the call is gone; pid 202 now leads an unrelated
		// group with a child.
		p := proc{pid: 202, ppid: 1, pgid: 202, sid: 202, start: 50}
		pc := proc{pid: 206, ppid: 1, pgid: 202, sid: 202, start: 51}
		got, _ := m.walk(table(self, p, pc), nil)
		assert.Empty(t, got)
	})

	t.Run("a reused parent pid claims no older process", func(t *testing.T) {
		m := newM()
		// 207's parent pid is the leader's, but it started before the
		// leader: its real parent was an earlier process with that pid.
		old := proc{pid: 207, ppid: 200, pgid: 207, sid: 207, start: 3}
		got, _ := m.walk(table(self, leader, old), nil)
		assert.Equal(t, []int{200}, pids(got))
	})

	t.Run("adopted orphans join, the server never does", func(t *testing.T) {
		m := newM()
		daemon := proc{pid: 208, ppid: server, pgid: 208, sid: 208, start: 14}
		got, _ := m.walk(table(self, leader, daemon), func(pi proc) bool { return pi.ppid == server && pi.pid != leader.pid })
		assert.Equal(t, []int{200, 208}, pids(got))
		got, _ = m.walk(table(self, leader), func(pi proc) bool { return true })
		assert.Equal(t, []int{200}, pids(got), "the server itself is never a member")
	})

	t.Run("a process whose start time is unknown is found but never remembered", func(t *testing.T) {
		m := newM()
		hidden := proc{pid: 209, ppid: 200, unattached: true}
		got, added := m.walk(table(self, leader, hidden), nil)
		assert.Equal(t, []int{200, 209}, pids(got))
		assert.Empty(t, added)
		hidden.ppid = 1
		got, _ = m.walk(table(self, leader, hidden), nil)
		assert.Equal(t, []int{200}, pids(got), "an unknown start time proves no identity")
	})

}
