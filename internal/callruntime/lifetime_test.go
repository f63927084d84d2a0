//go:build linux

package callruntime_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// TestServerSIGKILLed runs a tree in a helper process, SIGKILLs the helper
// mid-call, and checks what survives within 1 s: nothing where a cgroup and
// the lifeline are available; on the /proc-walk path the process group dies
// (Pdeathsig + lifeline) and a setsid'd descendant is the documented limit.
func TestServerSIGKILLed(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			cmd, pids := startServeTree(t, m.disable)
			defer killPids(pids)
			require.NoError(t, cmd.Process.Kill())
			_ = cmd.Wait()
			killedAt := time.Now()

			// The server is dead, so its calls' processes are re-parented to
			// init, whose reaping pace is not ours: a zombie is dead.
			if m.tree == "cgroup" {
				requireDead(t, pids, time.Second)
				t.Logf("0 survivors %v after SIGKILL of the server", time.Since(killedAt).Round(time.Millisecond))
				return
			}
			// Without a cgroup the guarantee is the process group (Pdeathsig
			// and the lifeline); descendants that left it (setsid, daemon)
			// are the documented limit, killed here by the deferred cleanup.
			requireDead(t, map[string]int{"self": pids["self"], "plain": pids["plain"]}, time.Second)
		})
	}
}

// TestServerAndLifelineSIGKILLed: both the server and its lifeline are
// SIGKILLed (pkill -9 -f aeat-mcp), so nothing kills the calls' trees and
// their cgroups stay populated. The next Runner beside them kills them and
// removes the dead server's cgroups. The helpers run in a cgroup of the
// test's own, so that no other Runner on the machine sweeps first.
func TestServerAndLifelineSIGKILLed(t *testing.T) {
	if modes(t)[0].tree != "cgroup" {
		t.Skip("needs a writable cgroup v2: without one, what a killed server's calls leave cannot be found")
	}
	cg := privateCgroup(t)
	cmd, pids := startServeTree(t, nil, cg)
	defer killPids(pids)
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
	time.Sleep(200 * time.Millisecond)
	for role, pid := range pids {
		require.NoError(t, syscall.Kill(pid, 0), "%s died although nothing was left to kill it", role)
	}
	homes, _ := filepath.Glob(filepath.Join(cg.dir, "aeat-mcp."+strconv.Itoa(cmd.Process.Pid)+".*"))
	require.NotEmpty(t, homes, "the dead server's cgroup is still there")

	next := exec.Command(os.Args[0], "-test.run=^$")
	next.Env = append(os.Environ(), "CALLRUNTIME_TEST_HELPER=new-runner")
	next.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: cg.fd}
	next.Stderr = os.Stderr
	require.NoError(t, next.Run())
	requireDead(t, pids, 2*time.Second)
	for _, h := range homes {
		assert.NoDirExists(t, h, "the dead server's cgroup is removed")
	}
}

// testCgroup is a cgroup the test made beside its own.
type testCgroup struct {
	dir string
	fd  int
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
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	require.NoError(t, err)
	t.Cleanup(func() {
		syscall.Close(fd)
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
	return testCgroup{dir: dir, fd: fd}
}

// startServeTree starts a helper process that runs a call's tree under a
// Runner of its own (with disable forced off), and returns it once every
// process of the tree reported its pid.
func startServeTree(t *testing.T, disable []callruntime.Mechanism, in ...testCgroup) (*exec.Cmd, map[string]int) {
	t.Helper()
	var names []string
	for _, d := range disable {
		names = append(names, string(d))
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CALLRUNTIME_TEST_HELPER=serve-tree", "FAKECLI="+fakecli,
		"DISABLE="+strings.Join(names, " "))
	for _, cg := range in {
		cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: cg.fd}
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
					assert.True(t, res.TreeDead || m.tree != "cgroup", "call %d (%v): %v", i, kind, res.Outcome)
				}(i)
			}
			wg.Wait()
			defer killPids(allPids)
			require.NoError(t, r.Close())
			assert.NotEmpty(t, allPids)
			requireGone(t, allPids, 2*time.Second)
			goleak.VerifyNone(t, goroutinesBefore)
			assert.LessOrEqual(t, countFDs(t), fdsBefore, "file descriptors leaked")
			assert.Empty(t, childrenOf(os.Getpid()), "processes left behind")
		})
	}
}

// requireDead is requireGone for processes we are not the parent of: dead
// means gone or a zombie.
func requireDead(t *testing.T, pids map[string]int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for role, pid := range pids {
		for syscall.Kill(pid, 0) == nil && !isZombie(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("%s (pid %d) still running %v after the server died", role, pid, within)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

func isZombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && (f[0] == "Z" || f[0] == "X")
}

func countFDs(t *testing.T) int {
	t.Helper()
	// Give the runtime a moment to close what the last calls released.
	time.Sleep(50 * time.Millisecond)
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
