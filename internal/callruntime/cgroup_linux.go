package callruntime

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// cgroupHome is the cgroup this Runner owns: a child of the server's own
// cgroup, holding one child cgroup per call. It never holds a process
// itself, so controllers can be enabled for its children ("no internal
// processes" rule of cgroup v2).
type cgroupHome struct {
	dir    string
	rel    string // dir relative to the cgroup2 mount, as /proc/PID/cgroup shows it
	memory bool   // memory.max can be set on call cgroups
	kill   bool   // cgroup.kill exists (Linux ≥ 5.14)
	seq    atomic.Uint64
	// idle holds call cgroups confirmed empty, kept for the next call:
	// creating and removing a cgroup costs more than the rest of the
	// supervision put together. Only cgroups that were never killed and
	// have no memory.max are pooled: the limit and OOM counters would carry
	// over, and on Linux 6.18 (seen here) a cgroup once written to
	// cgroup.kill SIGKILLs every task later cloned into it with
	// CLONE_INTO_CGROUP.
	idle chan idleCgroup
}

type idleCgroup struct {
	dir    string
	fd     int
	events eventsFile
}

// homeSeq numbers the Runners of this process.
var homeSeq atomic.Uint64

// poolSize bounds the idle cgroups a Runner keeps.
const poolSize = 16

// newCgroupHome finds the cgroup v2 hierarchy and makes our home in the
// server's cgroup. It fails on cgroup v1-only hosts and where the hierarchy
// is read-only (unprivileged containers, users without a delegated subtree).
// Kernels without cgroup.kill (< 5.14) still work: killAll signals
// cgroup.procs instead.
func newCgroupHome(wantMemory bool) (*cgroupHome, error) {
	mount, err := cgroup2Mount()
	if err != nil {
		return nil, err
	}
	rel, err := ownCgroup()
	if err != nil {
		return nil, err
	}
	parent := filepath.Join(mount, rel)
	sweepDeadHomes(parent)
	// One home per Runner: a process may hold several, and one's Close must
	// never touch another's calls.
	dir := filepath.Join(parent, fmt.Sprintf("aeat-mcp.%d.%d", os.Getpid(), homeSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("cgroup v2 at %s is not writable: %w", parent, err)
	}
	h := &cgroupHome{dir: dir, rel: filepath.Join(rel, filepath.Base(dir)), idle: make(chan idleCgroup, poolSize)}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err == nil {
		h.kill = true
	}
	if wantMemory {
		ctrl, _ := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
		if hasWord(ctrl, "memory") &&
			os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+memory"), 0) == nil {
			h.memory = true
		}
	}
	return h, nil
}

// sweepDeadHomes kills and removes the homes that Runners of processes no
// longer alive left in parent: a server SIGKILLed together with its lifeline
// (pkill -9 -f aeat-mcp does exactly that) leaves its calls running in them.
// A home whose pid is alive again (reused by another process) is left alone.
func sweepDeadHomes(parent string) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "aeat-mcp.")
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, ".")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || unix.Kill(pid, 0) != unix.ESRCH {
			continue
		}
		removeCgroupHome(filepath.Join(parent, e.Name()))
	}
}

// removeCgroupHome kills what is left in a home and removes it, for the
// lifeline, which knows the home only by its path.
func removeCgroupHome(dir string) {
	h := &cgroupHome{dir: dir}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err == nil {
		h.kill = true
	}
	_ = h.remove()
}

// cgroup2Mount returns where the cgroup v2 hierarchy is mounted: /sys/fs/cgroup
// on unified hosts, /sys/fs/cgroup/unified on hybrid ones.
func cgroup2Mount() (string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		if fs := strings.Fields(post); len(fs) > 0 && fs[0] == "cgroup2" {
			if f := strings.Fields(pre); len(f) >= 5 {
				return f[4], nil
			}
		}
	}
	return "", errors.New("no cgroup v2 hierarchy is mounted")
}

// ownCgroup returns this process's cgroup v2 path ("0::/path").
func ownCgroup() (string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "0::"); ok {
			return rest, nil
		}
	}
	return "", errors.New("this process has no cgroup v2 membership")
}

func hasWord(b []byte, w string) bool {
	for _, f := range bytes.Fields(b) {
		if string(f) == w {
			return true
		}
	}
	return false
}

// remove kills whatever is left in the home and removes it.
func (h *cgroupHome) remove() error {
	for len(h.idle) > 0 {
		c := <-h.idle
		unix.Close(c.fd)
		c.events.close()
	}
	entries, _ := os.ReadDir(h.dir)
	for _, e := range entries {
		if e.IsDir() {
			t := &cgroupTree{dir: filepath.Join(h.dir, e.Name()), home: h, fd: -1}
			t.killAll()
			waitEmpty(t, killWait)
			t.closeFD()
			_ = rmdirRetry(t.dir)
		}
	}
	return rmdirRetry(h.dir)
}

// rmdirRetry removes a cgroup directory. The kernel refuses while the last
// exiting member is still being torn down, which takes microseconds.
func rmdirRetry(dir string) error {
	var err error
	for i := 0; i < 100; i++ {
		err = unix.Rmdir(dir)
		if err == nil || errors.Is(err, unix.ENOENT) {
			return nil
		}
		if !errors.Is(err, unix.EBUSY) {
			return err
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// cgroupTree is one call's cgroup.
type cgroupTree struct {
	p      *linuxPlatform
	killed bool // cgroup.kill or SIGKILL was used: never pool it
	slow   bool // something besides the leader had to be stopped
	leader int
	home   *cgroupHome
	dir    string
	fd     int
	events eventsFile
	// empty: cgroup.events said so after the leader exited. Nothing can
	// join an empty cgroup but by being moved there, so it stays empty.
	empty  bool
	memMax bool  // memory.max was set
	held   *held // the program waits in its trampoline until letGo
}

// eventsFile is a call cgroup's cgroup.events, opened once and read with
// pread. os.ReadFile would cost a path lookup, and — cgroup files being
// pollable — an epoll registration and its removal, on every read.
type eventsFile struct {
	fd   int
	open bool
}

// populated reads "populated 0|1" from dir's cgroup.events, opening it on
// first use. A cgroup that cannot be read is reported empty, as before.
func (e *eventsFile) populated(dir string) bool {
	if !e.open {
		fd, err := unix.Open(filepath.Join(dir, "cgroup.events"), unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return false
		}
		e.fd, e.open = fd, true
	}
	var buf [128]byte
	n, err := unix.Pread(e.fd, buf[:], 0)
	if err != nil || n <= 0 {
		return false
	}
	b := buf[:n]
	i := bytes.Index(b, []byte("populated "))
	return i >= 0 && i+10 < len(b) && b[i+10] == '1'
}

func (e *eventsFile) close() {
	if e.open {
		unix.Close(e.fd)
		e.open = false
	}
}

func (p *linuxPlatform) newCgroupTree(spec *Spec) (tree, error) {
	h := p.home
	wantMemory := spec.MemoryLimit > 0 && h.memory
	if !wantMemory {
		select {
		case c := <-h.idle:
			return &cgroupTree{p: p, home: h, dir: c.dir, fd: c.fd, events: c.events}, nil
		default:
		}
	}
	dir := filepath.Join(h.dir, "call-"+strconv.FormatUint(h.seq.Add(1), 10))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating call cgroup: %w", err)
	}
	t := &cgroupTree{p: p, home: h, dir: dir, fd: -1}
	if wantMemory {
		limit := []byte(strconv.FormatInt(spec.MemoryLimit, 10))
		if os.WriteFile(filepath.Join(dir, "memory.max"), limit, 0) == nil {
			t.memMax = true
			// Without this the tree would swap instead of being stopped.
			_ = os.WriteFile(filepath.Join(dir, "memory.swap.max"), []byte("0"), 0)
		}
	}
	return t, nil
}

func (t *cgroupTree) name() string            { return "cgroup" }
func (t *cgroupTree) confirms() bool          { return true }
func (t *cgroupTree) kernelMemoryLimit() bool { return t.memMax }

func (t *cgroupTree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	useFD := t.p.cloneFD.Load()
	if useFD && t.fd < 0 {
		fd, err := unix.Open(t.dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			useFD = false
		} else {
			t.fd = fd
		}
	}
	t.p.startMu.RLock()
	defer t.p.startMu.RUnlock()
	var cmd *exec.Cmd
	if useFD {
		cmd = newCmd()
		cmd.SysProcAttr = t.p.sysProcAttr()
		cmd.SysProcAttr.UseCgroupFD = true
		cmd.SysProcAttr.CgroupFD = t.fd
		err := cmd.Start()
		if err != nil && !cloneRefused(err) {
			return nil, err
		}
		if err != nil {
			// clone3 is refused in some containers (seccomp) and Go
			// does not fall back by itself: hold the next starts.
			t.p.cloneFD.Store(false)
			useFD = false
		}
	}
	if !useFD {
		// Held until it is in its cgroup (held_linux.go): a program
		// moved after it started could fork first and leave a child
		// outside the tree. letGo moves it and lets it run.
		cmd = newCmd()
		cmd.SysProcAttr = t.p.sysProcAttr()
		h, err := startHeld(cmd)
		if err != nil {
			return nil, err
		}
		t.held = h
	}
	t.leader = cmd.Process.Pid
	t.p.leaders.Store(t.leader, uint64(0)) // start time: only procwalk attributes by it
	return cmd, nil
}

// letGo moves a held program into the call's cgroup and lets it run; it
// does nothing for a program forked straight into it.
func (t *cgroupTree) letGo(cmd *exec.Cmd) error {
	h := t.held
	if h == nil {
		return nil
	}
	t.held = nil
	return h.run(cmd, func(pid int) error {
		if err := os.WriteFile(filepath.Join(t.dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
			return fmt.Errorf("moving the program into its cgroup: %w", err)
		}
		return nil
	})
}

// cloneRefused tells the errors clone3 gives where it is filtered out from
// the errors of the program itself (not found, not executable).
func cloneRefused(err error) bool {
	return errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EPERM) ||
		errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.EOPNOTSUPP)
}

func (t *cgroupTree) waitExit(cmd *exec.Cmd) { waitExitNoReap(cmd.Process.Pid) }

func (t *cgroupTree) stop(grace time.Duration, leftovers bool) bool {
	if leftovers && !t.alive() {
		return true // the common case: nothing was left behind
	}
	t.slow = true
	return escalate(t, grace, false)
}

// holds reports whether a process is (or, a zombie, was) in one of our calls'
// cgroups. A zombie keeps its cgroup in /proc/PID/cgroup.
func (h *cgroupHome) holds(pi proc) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pi.pid) + "/cgroup")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if path, ok := strings.CutPrefix(line, "0::"); ok {
			return strings.HasPrefix(path, h.rel+"/")
		}
	}
	return false
}

func (t *cgroupTree) pids() []int {
	b, err := os.ReadFile(filepath.Join(t.dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range bytes.Fields(b) {
		if pid, err := strconv.Atoi(string(f)); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

func (t *cgroupTree) signalAll(sig syscall.Signal) int {
	n := 0
	for _, pid := range t.pids() {
		if unix.Kill(pid, sig) == nil {
			n++
		}
	}
	return n
}

func (t *cgroupTree) term() int {
	n := t.signalAll(syscall.SIGTERM)
	if n > 0 {
		t.signalAll(syscall.SIGCONT)
	}
	return n
}

func (t *cgroupTree) exceeded() <-chan struct{} { return nil }

func (t *cgroupTree) killAll() {
	t.killed = true
	if t.home.kill && os.WriteFile(filepath.Join(t.dir, "cgroup.kill"), []byte("1"), 0) == nil {
		return
	}
	// Before cgroup.kill: signal until a read of cgroup.procs comes back
	// empty, which also catches children forked while we were at it.
	for i := 0; i < 100 && t.signalAll(syscall.SIGKILL) > 0; i++ {
	}
}

// alive reads cgroup.events: "populated 0" once every member has exited
// (zombies do not count).
func (t *cgroupTree) alive() bool {
	if t.empty {
		return false
	}
	if t.events.populated(t.dir) {
		return true
	}
	t.empty = true
	return false
}

func (t *cgroupTree) rss() int64 {
	var sum int64
	for _, pid := range t.pids() {
		sum += statmRSS(pid)
	}
	return sum
}

func (t *cgroupTree) oomKilled() bool {
	if !t.memMax {
		return false
	}
	b, _ := os.ReadFile(filepath.Join(t.dir, "memory.events"))
	for _, line := range strings.Split(string(b), "\n") {
		if n, ok := strings.CutPrefix(line, "oom_kill "); ok {
			return n != "0"
		}
	}
	return false
}

// release runs after the leader was reaped, so the zombie peek in
// reapOrphans finds only what the tree left re-parented to us.
func (t *cgroupTree) release() {
	if t.leader != 0 {
		t.p.leaders.Delete(t.leader)
		t.p.reapOrphans(t.home.holds, t.slow)
	}
	if t.alive() {
		// Only reached when Run could not confirm the tree dead; leave
		// the cgroup for the lifeline or Close to sweep.
		t.closeFD()
		return
	}
	if !t.memMax && !t.killed {
		select {
		case t.home.idle <- idleCgroup{dir: t.dir, fd: t.fd, events: t.events}:
			return
		default:
		}
	}
	t.closeFD()
	_ = rmdirRetry(t.dir)
}

func (t *cgroupTree) closeFD() {
	if t.fd >= 0 {
		unix.Close(t.fd)
		t.fd = -1
	}
	t.events.close()
}

var pageSize = int64(os.Getpagesize())

// statmRSS returns a process's resident set size in bytes, 0 if it is gone.
func statmRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseInt(string(f[1]), 10, 64)
	return n * pageSize
}

// settle: the kernel's accounting of the tree is already final here.
func (t *cgroupTree) settle() bool { return true }

// newBerth is a call cgroup made before its call (see [Berth]), where
// calls' trees are cgroups: one from the idle pool, else a fresh one,
// without a memory ceiling.
func (p *linuxPlatform) newBerth() (berthTree, error) {
	if p.home == nil {
		return nil, errNoAdoption
	}
	if !p.cloneFD.Load() {
		// Where clone3 is refused (a container's seccomp), nothing can be
		// forked into a cgroup: a spare is moved at its call, as before.
		return nil, errNoAdoption
	}
	p.lifeline() // nothing waits in a berth before the lifeline guards it
	t, err := p.newCgroupTree(&Spec{})
	if err != nil {
		return nil, err
	}
	return t.(*cgroupTree), nil
}

// forCall: a berth has no memory.max, so a call the kernel would hold to
// one does not run in it.
func (t *cgroupTree) forCall(spec *Spec) bool {
	return spec.MemoryLimit <= 0 || !t.home.memory
}
