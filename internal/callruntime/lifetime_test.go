//go:build linux

package callruntime_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// TestServerSIGKILLed runs a tree in a helper process, SIGKILLs the helper
// mid-call, and checks that nothing survives within 2 s: the lifeline
// kills the cgroup subtree (cgroup mode), or the leaders' process groups
// and every member the walks recorded in the ledger (/proc walk) — a
// setsid'd browser and a double-forked daemon included. The kill waits
// until the ledger holds every reported process: a process that appeared
// and was orphaned between two walks is the documented limit. (How soon
// they die is the lifeline's and the kernel's pace: on a loaded machine,
// seconds; only a survivor fails.)
//
// With a Runner made with Options.Deferred (deferred), the call is the
// Runner's first act: nothing was set up before it, and the call gets every
// guarantee all the same.
func TestServerSIGKILLed(t *testing.T) {
	for _, m := range modes(t) {
		for _, deferred := range []bool{false, true} {
			name := m.name
			if deferred {
				name += "/deferred"
			}
			t.Run(name, func(t *testing.T) {
				state := privateStateDir(t)
				cmd, pids := startServeTree(t, serveOpts{disable: m.disable, state: state, deferred: deferred})
				defer proctest.KillAfterFailure(t, pids)
				if m.tree == "procwalk" {
					proctest.WaitLedger(t, state, cmd.Process.Pid, pids)
				}
				require.NoError(t, cmd.Process.Kill())
				_ = cmd.Wait()
				killedAt := time.Now()
				// The server is dead, so its calls' processes are re-parented to
				// init, whose reaping pace is not ours: a zombie is dead.
				proctest.RequireGone(t, pids, proctest.HangAfter)
				t.Logf("0 survivors %v after SIGKILL of the server", time.Since(killedAt).Round(time.Millisecond))
			})
		}
	}
}

// TestServerAndLifelineSIGKILLed: both the server and its lifeline are
// SIGKILLed (pkill -9 -f aeat-mcp), so nothing kills the calls' trees. The
// next Runner to start beside them kills them: cgroup mode removes the dead
// server's cgroups, the /proc walk sweeps its ledger — what the walks
// recorded, and the leader's process group. Several rounds, real trees, 0
// survivors. The helpers run in a cgroup and a state directory of the
// test's own, so that no other Runner on the machine sweeps first.
func TestServerAndLifelineSIGKILLed(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			state := privateStateDir(t)
			opts := serveOpts{disable: m.disable, state: state}
			var cg testCgroup
			if m.tree == "cgroup" {
				cg = privateCgroup(t)
				opts.cgroup = &cg
			}
			const rounds = 3
			for round := 0; round < rounds; round++ {
				cmd, pids := startServeTree(t, opts)
				defer proctest.KillAfterFailure(t, pids)
				if m.tree == "procwalk" {
					proctest.WaitLedger(t, state, cmd.Process.Pid, pids)
				}
				killWithLifeline(t, cmd)
				time.Sleep(200 * time.Millisecond)
				alive := 0
				for role, pid := range pids {
					if role == "self" && m.tree == "procwalk" {
						continue // Pdeathsig: the leader dies with the server
					}
					require.NoError(t, syscall.Kill(pid, 0), "round %d: %s died although nothing was left to kill it", round, role)
					alive++
				}
				var homes []string
				if m.tree == "cgroup" {
					homes, _ = filepath.Glob(filepath.Join(cg.dir, "aeat-mcp."+strconv.Itoa(cmd.Process.Pid)+".*"))
					require.NotEmpty(t, homes, "the dead server's cgroup is still there")
				}

				next := exec.Command(os.Args[0], "-test.run=^$")
				next.Env = append(os.Environ(), "CALLRUNTIME_TEST_HELPER=new-runner", "STATE_DIR="+state)
				if m.tree == "cgroup" {
					next.Env = append(next.Env, "JOIN_CGROUP="+cg.dir)
				}
				next.Stderr = os.Stderr
				require.NoError(t, next.Run())
				proctest.RequireGone(t, pids, proctest.HangAfter)
				for _, h := range homes {
					assert.NoDirExists(t, h, "the dead server's cgroup is removed")
				}
				t.Logf("round %d: %d processes left by a dead server and its lifeline, 0 survive the next start", round, alive)
			}
			ledgers, _ := filepath.Glob(filepath.Join(state, "*.members"))
			assert.Empty(t, ledgers, "swept ledgers are removed")
		})
	}
}

// killWithLifeline SIGKILLs a helper server and its lifeline, as pkill -9
// -f aeat-mcp does: nothing is left to kill its calls' trees.
func killWithLifeline(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	lifeline := 0
	for _, pid := range childrenOf(cmd.Process.Pid) {
		if b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); strings.HasPrefix(string(b), "aeat-mcp-lifeline\x00") {
			lifeline = pid
		}
	}
	require.NotZero(t, lifeline, "the helper's lifeline, found by its name")
	require.NoError(t, syscall.Kill(lifeline, syscall.SIGKILL))
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
}

// TestLedger_OneDirPerUser: servers of one user started by different hosts
// — Claude Desktop's with TMPDIR=/tmp, a terminal's with /var/folders/… on
// macOS — keep their ledgers in one directory found from the home
// directory, so the next server to start sweeps what a dead one left
// whatever its temporary directory. The /proc walk keeps a ledger.
func TestLedger_OneDirPerUser(t *testing.T) {
	home := t.TempDir()
	dir := callruntime.DefaultStateDir(home)
	require.NotEmpty(t, dir)
	cmd, pids := startServeTree(t, serveOpts{disable: []callruntime.Mechanism{callruntime.CgroupV2},
		env: []string{"HOME=" + home, "TMPDIR=" + t.TempDir()}})
	defer proctest.KillAfterFailure(t, pids)
	proctest.WaitLedger(t, dir, cmd.Process.Pid, pids)
	killWithLifeline(t, cmd)

	next := exec.Command(os.Args[0], "-test.run=^$")
	next.Env = append(os.Environ(), "CALLRUNTIME_TEST_HELPER=new-runner", "HOME="+home, "TMPDIR="+t.TempDir())
	next.Stderr = os.Stderr
	require.NoError(t, next.Run())
	proctest.RequireGone(t, except(pids, "self"), proctest.HangAfter) // the leader died with the server (Pdeathsig)
	ledgers, _ := filepath.Glob(filepath.Join(dir, "*.members"))
	assert.Empty(t, ledgers, "the dead server's ledger is swept and removed")
}

// testCgroup is a cgroup the test made beside its own. A helper joins it
// itself (JOIN_CGROUP) before it makes a Runner: starting it there with
// clone3 would fail where clone3 is refused, which CI runs on purpose.
type testCgroup struct {
	dir string
}

// privateCgroup makes a child of the test's own cgroup, removed at the end.
func privateCgroup(t *testing.T) testCgroup {
	t.Helper()
	b, err := os.ReadFile("/proc/self/cgroup")
	require.NoError(t, err)
	rel := ""
	for _, line := range strings.Split(string(b), "\n") {
		if r, ok := strings.CutPrefix(line, "0::"); ok {
			rel = r
		}
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	require.NoError(t, err)
	mount := ""
	for _, line := range strings.Split(string(mounts), "\n") {
		if pre, post, ok := strings.Cut(line, " - "); ok && strings.HasPrefix(post, "cgroup2 ") {
			mount = strings.Fields(pre)[4]
		}
	}
	require.NotEmpty(t, mount)
	dir := filepath.Join(mount, rel, "callruntime-test."+strconv.Itoa(os.Getpid())+"."+strconv.FormatInt(time.Now().UnixNano(), 36))
	require.NoError(t, os.Mkdir(dir, 0o755))
	t.Cleanup(func() {
		_ = os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
		for i := 0; i < 200 && syscall.Rmdir(dir) != nil; i++ {
			subs, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
			for j := len(subs) - 1; j >= 0; j-- {
				_ = syscall.Rmdir(subs[j])
			}
			subs, _ = filepath.Glob(filepath.Join(dir, "*"))
			for _, sub := range subs {
				_ = syscall.Rmdir(sub)
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
	return testCgroup{dir: dir}
}

// serveOpts are how startServeTree runs its helper.
type serveOpts struct {
	disable []callruntime.Mechanism
	state   string      // its Runner's StateDir, where it keeps its ledger; "" the user's
	env     []string    // added to its environment
	cgroup  *testCgroup // a cgroup to start it in; nil inherits
	// deferred: its Runner is made with Options.Deferred, and the call
	// sets it up.
	deferred bool
}

// startServeTree starts a helper process that runs a call's tree under a
// Runner of its own, and returns it once every process of the tree reported
// its pid.
func startServeTree(t *testing.T, o serveOpts) (*exec.Cmd, map[string]int) {
	t.Helper()
	var names []string
	for _, d := range o.disable {
		names = append(names, string(d))
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CALLRUNTIME_TEST_HELPER=serve-tree", "FAKECLI="+fakecli,
		"DISABLE="+strings.Join(names, " "))
	cmd.Env = append(cmd.Env, o.env...)
	if o.state != "" {
		cmd.Env = append(cmd.Env, "STATE_DIR="+o.state)
	}
	if o.deferred {
		cmd.Env = append(cmd.Env, "DEFERRED=1")
	}
	if o.cgroup != nil {
		cmd.Env = append(cmd.Env, "JOIN_CGROUP="+o.cgroup.dir)
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	pids := map[string]int{}
	sc := bufio.NewScanner(out)
	for len(pids) < 4 && sc.Scan() {
		for role, pid := range reportedPids(sc.Text()) {
			pids[role] = pid
		}
	}
	require.Len(t, pids, 4, "the helper's tree did not report")
	return cmd, pids
}

// TestRun_Concurrent64 runs 64 calls of mixed kinds at once and checks that
// nothing leaks: goroutines, file descriptors, processes.
func TestRun_Concurrent64(t *testing.T) {
	// What lives as long as the process, by design — the spawner thread
	// and the null device every call's stdin is — exists before counting.
	warm, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(t, err)
	_, err = warm.Run(context.Background(), spec("ok"))
	require.NoError(t, err)
	require.NoError(t, warm.Close())
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			goroutinesBefore := goleak.IgnoreCurrent()
			fdsBefore := countFDs(t)
			r, err := callruntime.NewRunner(callruntime.Options{Disable: m.disable})
			require.NoError(t, err)
			kinds := [][]string{
				{"ok"},
				{"exit 3"},
				{"pid", "tree plain,setsid", "hang"}, // timed out
				{"pid", "tree daemon", "exit 0"},
				{"lines 20 5ms"},
				{"flood both 300000"},
				{"pid", "ignore-term", "hang"}, // cancelled, needs the grace
				{"crash KILL"},
			}
			var mu sync.Mutex
			allPids := map[string]int{}
			var wg sync.WaitGroup
			for i := 0; i < 64; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					kind := kinds[i%len(kinds)]
					s := spec(kind...)
					s.KillGrace = 200 * time.Millisecond
					s.OnLine = func(callruntime.Line) {}
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					switch i % len(kinds) {
					case 2:
						s.Timeout = 300 * time.Millisecond
					case 6:
						time.AfterFunc(300*time.Millisecond, cancel)
					}
					res, err := r.Run(ctx, s)
					if !assert.NoError(t, err) {
						return
					}
					mu.Lock()
					for role, pid := range reportedPids(res.Stdout.Text(nil)) {
						allPids[fmt.Sprint(i, role)] = pid
					}
					mu.Unlock()
					assert.True(t, res.TreeDead || m.tree != "cgroup", "call %d (%v): %v", i, kind, res.End)
				}(i)
			}
			wg.Wait()
			defer proctest.KillAfterFailure(t, allPids)
			require.NoError(t, r.Close())
			assert.NotEmpty(t, allPids)
			proctest.RequireGone(t, allPids, 0)
			// Goroutines and descriptors a call let go of are released a
			// little after it returns (on a loaded machine, seconds): a
			// leak is one still there after the hang bound.
			for deadline := time.Now().Add(proctest.HangAfter); goleak.Find(goroutinesBefore) != nil && time.Now().Before(deadline); {
			}
			goleak.VerifyNone(t, goroutinesBefore)
			fds := countFDs(t)
			for deadline := time.Now().Add(proctest.HangAfter); fds > fdsBefore && time.Now().Before(deadline); fds = countFDs(t) {
				time.Sleep(10 * time.Millisecond)
			}
			assert.LessOrEqual(t, fds, fdsBefore, "file descriptors leaked")
			assert.Empty(t, childrenOf(os.Getpid()), "processes left behind")
		})
	}
}

func countFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	return len(ents)
}

// childrenOf lists the live or zombie children of pid.
func childrenOf(pid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, n)
		}
	}
	return out
}

// TestRun_FailedStartLeavesNothingOpen: a program that cannot start once
// its tree and pipes exist (its working directory is missing: exec fails
// in the child) is a *StartError, and the call leaves no descriptor and no
// goroutine behind: start closes both ends of both pipes on that path.
func TestRun_FailedStartLeavesNothingOpen(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone")
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			r := newRunner(t, m.disable...)
			s := spec("ok")
			s.Dir = missing
			_, err := r.Run(context.Background(), s) // the Runner's own set-up happens here, before counting
			var se *callruntime.StartError
			require.ErrorAs(t, err, &se)
			// With the collector off, a pipe left open stays open: an
			// *os.File's finalizer would close it, and hide the leak.
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			goroutinesBefore := goleak.IgnoreCurrent()
			fdsBefore := countFDs(t)
			for range 20 {
				_, err := r.Run(context.Background(), s)
				require.ErrorAs(t, err, &se)
				assert.Contains(t, err.Error(), fakecli)
			}
			// The Runner's own descriptors (a walk reading /proc) come and
			// go meanwhile: a leak is what stays.
			fds := countFDs(t)
			for deadline := time.Now().Add(proctest.HangAfter); fds > fdsBefore && time.Now().Before(deadline); fds = countFDs(t) {
				time.Sleep(10 * time.Millisecond)
			}
			assert.LessOrEqual(t, fds, fdsBefore, "file descriptors leaked")
			goleak.VerifyNone(t, goroutinesBefore)
		})
	}
}
