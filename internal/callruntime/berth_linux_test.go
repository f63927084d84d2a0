package callruntime_test

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitInBerth starts a process that waits, forked straight into b (as a
// warm template forks its spare into one), and returns it with a channel
// closed once it is reaped.
func waitInBerth(t *testing.T, b *callruntime.Berth) (*exec.Cmd, <-chan struct{}) {
	t.Helper()
	dir := b.Dir()
	require.NotNil(t, dir, "the berth's directory")
	defer dir.Close()
	cmd := exec.Command(fakecli, "hang")
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: int(dir.Fd())}
	require.NoError(t, cmd.Start())
	ended := make(chan struct{})
	go func() { _ = cmd.Wait(); close(ended) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-ended })
	cg, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/cgroup")
	require.NoError(t, err)
	require.Contains(t, string(cg), "/call-", "born in the berth, a call cgroup")
	return cmd, ended
}

// forksIntoCgroups reports whether r forks into a call's cgroup (clone3
// with CLONE_INTO_CGROUP): where clone3 is refused (CI's container step,
// CALLRUNTIME_CLONE3_REFUSED) there is no berth to make.
func forksIntoCgroups(r *callruntime.Runner) bool {
	for _, m := range r.Mechanisms().Mechanisms {
		if m.Mechanism == callruntime.CloneIntoCgroup {
			return m.Used
		}
	}
	return false
}

func reaped(t *testing.T, ended <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ended:
	case <-time.After(proctest.HangAfter): // only a hang: the kill is what is awaited
		t.Fatalf("%s still runs", what)
	}
}

// TestBerth_IsTheCallsTree: a call run with a berth has it as its tree —
// what waited in it when the call came is the call's, and is stopped with
// it as anything the program left would be — and the berth is the call's
// from then on.
func TestBerth_IsTheCallsTree(t *testing.T) {
	r := newRunner(t)
	if r.Tree() != "cgroup" {
		t.Skip("berths are cgroups; this runner has none")
	}
	b := r.Berth()
	if !forksIntoCgroups(r) {
		assert.Nil(t, b, "no berth where nothing can be forked into a cgroup")
		return
	}
	require.NotNil(t, b)
	waiter, ended := waitInBerth(t, b)

	s := spec("exit 0")
	s.Berth = b
	res := run(t, r, s)
	assert.Equal(t, callruntime.Exited, res.End)
	assert.True(t, res.TreeDead)
	assert.True(t, b.Taken(), "the call took it")
	assert.Nil(t, b.Dir(), "nothing more is forked into a berth a call took")
	reaped(t, ended, "the process that waited in the call's tree")
	assert.True(t, waiter.ProcessState.Sys().(syscall.WaitStatus).Signaled(), "stopped as a leftover: %s", waiter.ProcessState)

	// A berth is taken once: a second call gets a tree of its own.
	res = run(t, r, s)
	assert.Equal(t, callruntime.Exited, res.End)
	assert.True(t, res.TreeDead)
}

// TestBerth_ReleaseKillsWhatWaits: a berth no call took is ended by its
// Release, with whatever waits in it; and where calls' trees are not
// cgroups there is none to make.
func TestBerth_ReleaseKillsWhatWaits(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			r := newRunner(t, m.disable...)
			b := r.Berth()
			if m.tree != "cgroup" || !forksIntoCgroups(r) {
				assert.Nil(t, b, "no berth on the %s path (clone into a cgroup: %v)", m.tree, forksIntoCgroups(r))
				b.Release() // a nil berth is released as a no-op
				return
			}
			require.NotNil(t, b)
			waiter, ended := waitInBerth(t, b)
			assert.False(t, b.Taken())
			b.Release()
			reaped(t, ended, "the process that waited in the released berth")
			assert.Equal(t, syscall.SIGKILL, waiter.ProcessState.Sys().(syscall.WaitStatus).Signal())
			assert.True(t, b.Taken(), "released: no call takes it")
			assert.Nil(t, b.Dir())
		})
	}
}
