package callruntime

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// windowsPlatform runs each call in a Job Object with KILL_ON_JOB_CLOSE:
// every process the call starts is in the job (Windows puts children in
// their parent's job), TerminateJobObject ends them all at once, and the
// kernel closes the job — killing the tree — when the server dies, however
// it dies. The program starts suspended and is resumed only once it is in
// the job, so nothing it starts can escape.
//
// A host may already run the server in a job of its own. Node-based hosts
// do (libuv: KILL_ON_JOB_CLOSE and SILENT_BREAKAWAY_OK, so our children are
// not in it); another host's job is nested under from Windows 8 on — unless
// it has UI restrictions, which forbid nesting. So the mechanism is probed
// at start by placing a suspended child in a job: if that is refused and the
// host's job allows breakaway, calls start with CREATE_BREAKAWAY_FROM_JOB;
// if not, calls fall back to a walk of the process table (Toolhelp, by
// parent pid and creation time) and TerminateProcess, which cannot confirm
// a tree dead ([Result.TreeDead] stays false) and does not outlive the
// server.
//
// A stop is graceful only where it can be: when the server has a console,
// every call shares it and leads a process group of its own, and gets
// CTRL_BREAK (what a console program handles as Ctrl-Break, Python as
// SIGBREAK) before TerminateJobObject after the grace. When the server has
// no console, each call starts with CREATE_NO_WINDOW — a console window per
// call otherwise — and is terminated at once.
//
// [Spec.MemoryLimit] is a notification limit on the job's committed memory,
// whose message the kernel guarantees to deliver: the tree is then killed.
//
// None of this has run on Windows here: it is written from Microsoft's
// documentation and compiled in CI; the tests that would prove it are
// compiled for windows and run there.
type windowsPlatform struct {
	disabled  map[Mechanism]bool
	console   bool   // the server has a console; its calls share it
	jobs      bool   // a Job Object per call works here (probed)
	breakaway bool   // calls must break away from the host's job first
	jobDetail string // why not, when not
	host      *HostJob

	port  windows.Handle // I/O completion port for job messages
	mu    sync.Mutex
	trees map[uintptr]*jobTree
	key   atomic.Uintptr
}

// killWait bounds how long a tree is watched after it was terminated.
const killWait = 5 * time.Second

// exitTerminated is the exit code the job's processes get when we end them
// (os.Process.Kill's and libuv's too).
const exitTerminated = 1

func newPlatform(cfg platformConfig) (platform, error) {
	p := &windowsPlatform{disabled: cfg.disabled, trees: map[uintptr]*jobTree{}}
	_, err := windows.GetConsoleCP()
	p.console = err == nil // GetConsoleCP fails when the process has no console
	p.host = hostJob()
	if cfg.disabled[JobObject] {
		p.jobDetail = "disabled"
	} else if err := p.probe(); err != nil {
		p.jobDetail = err.Error()
	} else {
		p.jobs = true
	}
	if p.jobs {
		port, err := windows.CreateIoCompletionPort(windows.InvalidHandle, 0, 0, 1)
		if err == nil {
			p.port = port
			go p.readPort()
		}
	}
	return p, nil
}

var (
	kernel32                 = windows.NewLazySystemDLL("kernel32.dll")
	procIsProcessInJob       = kernel32.NewProc("IsProcessInJob")
	procK32GetProcessMemInfo = kernel32.NewProc("K32GetProcessMemoryInfo")
)

// hostJob reports the job this process runs in; nil when it runs in none.
func hostJob() *HostJob {
	var in int32
	r, _, _ := procIsProcessInJob.Call(uintptr(windows.CurrentProcess()), 0, uintptr(unsafe.Pointer(&in)))
	if r == 0 || in == 0 {
		return nil
	}
	// A nil job handle queries the job of the calling process.
	var ext windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	err := windows.QueryInformationJobObject(0, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&ext)), uint32(unsafe.Sizeof(ext)), nil)
	if err != nil {
		return &HostJob{Unreadable: err.Error()}
	}
	var ui windows.JOBOBJECT_BASIC_UI_RESTRICTIONS
	_ = windows.QueryInformationJobObject(0, windows.JobObjectBasicUIRestrictions,
		uintptr(unsafe.Pointer(&ui)), uint32(unsafe.Sizeof(ui)), nil)
	return describeHostJob(ext.BasicLimitInformation.LimitFlags, ui.UIRestrictionsClass)
}

// probe places a suspended child (this binary, never resumed) in a job, the
// way every call will be placed; where the host's job refuses it and allows
// breakaway, it tries again breaking away.
func (p *windowsPlatform) probe() error {
	err := p.probeOnce(false)
	if err == nil {
		return nil
	}
	if p.host != nil && hasName(p.host.Limits, "BREAKAWAY_OK") {
		if err2 := p.probeOnce(true); err2 == nil {
			p.breakaway = true
			return nil
		}
	}
	return fmt.Errorf("a call cannot be placed in a job here (%v); the host's job must allow breakaway or have no UI restrictions", err)
}

func hasName(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

func (p *windowsPlatform) probeOnce(breakaway bool) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	job, err := newJob(0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(job)
	flags := uint32(windows.CREATE_SUSPENDED | windows.CREATE_NO_WINDOW)
	if breakaway {
		flags |= windows.CREATE_BREAKAWAY_FROM_JOB
	}
	cmd := &exec.Cmd{Path: exe, Args: []string{exe}, Env: []string{},
		SysProcAttr: &syscall.SysProcAttr{CreationFlags: flags}}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting a probe: %w", err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return windows.AssignProcessToJobObject(job, h)
}

// newJob makes a job that kills its processes when its last handle closes,
// with a notification limit on committed memory when memoryLimit > 0.
func newJob(memoryLimit int64) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("creating job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("configuring job object: %w", err)
	}
	return job, nil
}

// jobNotificationLimit is JOBOBJECT_NOTIFICATION_LIMIT_INFORMATION, which
// x/sys/windows does not define; the padding makes its size MSVC's (48).
type jobNotificationLimit struct {
	IoReadBytesLimit             uint64
	IoWriteBytesLimit            uint64
	PerJobUserTimeLimit          int64
	JobMemoryLimit               uint64
	RateControlTolerance         int32
	RateControlToleranceInterval int32
	LimitFlags                   uint32
	_                            uint32
}

// jobCompletionPort is JOBOBJECT_ASSOCIATE_COMPLETION_PORT.
type jobCompletionPort struct {
	CompletionKey  uintptr
	CompletionPort windows.Handle
}

// readPort dispatches the jobs' messages to their trees until close posts
// key 0. What a message means is the tree's to decide (jobEvents.deliver):
// a nested job's messages come under our key too.
//
// The value GetQueuedCompletionStatus puts in the OVERLAPPED pointer is,
// for a job's messages, a process id, not a pointer: it is kept in a
// uintptr, as hcsshim's pollIOCP does, for a pid in a pointer-typed
// variable is an invalid pointer to the garbage collector.
func (p *windowsPlatform) readPort() {
	defer windows.CloseHandle(p.port)
	for {
		var msg uint32
		var key, pid uintptr
		err := windows.GetQueuedCompletionStatus(p.port, &msg, &key, (**windows.Overlapped)(unsafe.Pointer(&pid)), windows.INFINITE)
		if err != nil && pid == 0 && key == 0 {
			return // the port is gone
		}
		if key == 0 {
			return
		}
		p.mu.Lock()
		t := p.trees[key]
		p.mu.Unlock()
		if t != nil {
			t.events.deliver(msg)
		}
	}
}

func (p *windowsPlatform) report() Report {
	rep := Report{Platform: "windows", Tree: p.treeName(), Host: p.host}
	jobDetail := "a Job Object per call, KILL_ON_JOB_CLOSE, started suspended; probed at start"
	if p.breakaway {
		jobDetail += "; calls break away from the host's job first"
	}
	if !p.jobs {
		jobDetail = p.jobDetail
	}
	rep.Mechanisms = append(rep.Mechanisms,
		MechanismStatus{Mechanism: JobObject, Available: p.jobs, Used: p.jobs, Detail: jobDetail},
		MechanismStatus{Mechanism: TreeWalk, Available: true, Used: !p.jobs, Detail: "Toolhelp walk by parent pid and creation time, then TerminateProcess (the fallback)"},
	)
	if p.console {
		rep.Limits = append(rep.Limits, "a stop sends CTRL_BREAK to the call's process group, then terminates the tree after --kill-grace; a descendant in a process group of its own gets no CTRL_BREAK")
	} else {
		rep.Limits = append(rep.Limits, "the server has no console: calls start without one (CREATE_NO_WINDOW), get no CTRL_BREAK, and are terminated at once when stopped")
	}
	if !p.jobs {
		rep.Limits = append(rep.Limits,
			"no Job Object: a tree is found by walking the process table, cannot be confirmed dead (tree_dead is false), and survives the server if the server is killed")
	}
	return rep
}

func (p *windowsPlatform) treeName() string {
	if p.jobs {
		return "job"
	}
	return "walk"
}

func (p *windowsPlatform) close() error {
	if p.port != 0 {
		_ = windows.PostQueuedCompletionStatus(p.port, 0, 0, nil)
	}
	return nil
}

// creationFlags are every call's: a process group of its own (CTRL_BREAK
// is sent to it), no window of its own where the server has no console.
func (p *windowsPlatform) creationFlags() uint32 {
	flags := uint32(windows.CREATE_NEW_PROCESS_GROUP)
	if !p.console {
		flags |= windows.CREATE_NO_WINDOW
	}
	return flags
}

func (p *windowsPlatform) newTree(spec *Spec) (tree, error) {
	if !p.jobs {
		return &winWalkTree{p: p}, nil
	}
	job, err := newJob(0)
	if err != nil {
		return nil, err
	}
	t := &jobTree{p: p, job: job}
	var limit int64
	if p.port != 0 {
		t.key = p.key.Add(1)
		assoc := jobCompletionPort{CompletionKey: t.key, CompletionPort: p.port}
		if _, err := windows.SetInformationJobObject(job, windows.JobObjectAssociateCompletionPortInformation,
			uintptr(unsafe.Pointer(&assoc)), uint32(unsafe.Sizeof(assoc))); err != nil {
			t.key = 0
		}
	}
	if spec.MemoryLimit > 0 && t.key != 0 {
		// A notification limit: unlike the hard JOB_MEMORY limit, whose
		// message may be lost, its message is guaranteed to arrive.
		notify := jobNotificationLimit{JobMemoryLimit: uint64(spec.MemoryLimit), LimitFlags: windows.JOB_OBJECT_LIMIT_JOB_MEMORY}
		if _, err := windows.SetInformationJobObject(job, windows.JobObjectNotificationLimitInformation,
			uintptr(unsafe.Pointer(&notify)), uint32(unsafe.Sizeof(notify))); err == nil {
			limit = spec.MemoryLimit
		}
	}
	t.events = newJobEvents(limit, t.peakCommitted)
	if t.key != 0 {
		// Registered last: the port's reader reads t.events. The job is
		// empty until start, so nothing was sent to the key before.
		p.mu.Lock()
		p.trees[t.key] = t
		p.mu.Unlock()
	}
	return t, nil
}

// jobTree is one call's Job Object.
type jobTree struct {
	p    *windowsPlatform
	job  windows.Handle
	proc windows.Handle
	pid  int
	key  uintptr
	// events is set before the tree is registered with the port, and
	// never replaced.
	events *jobEvents
}

func (t *jobTree) name() string            { return "job" }
func (t *jobTree) confirms() bool          { return true }
func (t *jobTree) kernelMemoryLimit() bool { return t.events.limit > 0 }
func (t *jobTree) oomKilled() bool         { return t.events.exceeded() }

func (t *jobTree) exceeded() <-chan struct{} {
	if t.events.limit <= 0 {
		return nil
	}
	return t.events.over
}

// peakCommitted reads the peak committed memory of the call's own job —
// every process in it, those of nested jobs included — to confirm a memory
// message is about the limit this call set.
func (t *jobTree) peakCommitted() (int64, bool) {
	var ext windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	if err := windows.QueryInformationJobObject(t.job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&ext)), uint32(unsafe.Sizeof(ext)), nil); err != nil {
		return 0, false
	}
	return int64(ext.PeakJobMemoryUsed), true
}

func (t *jobTree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	cmd := newCmd()
	flags := t.p.creationFlags() | windows.CREATE_SUSPENDED
	if t.p.breakaway {
		flags |= windows.CREATE_BREAKAWAY_FROM_JOB
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: flags}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	pid := uint32(cmd.Process.Pid)
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|
		windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err == nil {
		err = windows.AssignProcessToJobObject(t.job, h)
	}
	if err == nil {
		t.proc, t.pid = h, int(pid)
		err = resumeThreads(pid)
	}
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if h != 0 {
			windows.CloseHandle(h)
		}
		t.proc = 0
		return nil, fmt.Errorf("placing the program in its job object: %w", err)
	}
	return cmd, nil
}

// resumeThreads resumes the suspended main thread of pid.
func resumeThreads(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	var te windows.ThreadEntry32
	te.Size = uint32(unsafe.Sizeof(te))
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return err
		}
		resumed++
	}
	if resumed == 0 {
		return errors.New("no thread to resume")
	}
	return nil
}

func (t *jobTree) waitExit(*exec.Cmd) {
	_, _ = windows.WaitForSingleObject(t.proc, windows.INFINITE)
}

// jobBasicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which
// x/sys/windows does not define.
type jobBasicAccounting struct {
	TotalUserTime, TotalKernelTime                     int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount, TotalProcesses                uint32
	ActiveProcesses, TotalTerminatedProcesses          uint32
}

func (t *jobTree) active() uint32 {
	var info jobBasicAccounting
	if err := windows.QueryInformationJobObject(t.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0
	}
	return info.ActiveProcesses
}

// stop asks the tree to end with CTRL_BREAK where the calls share our
// console, gives it the grace, then terminates the job.
func (t *jobTree) stop(grace time.Duration, leftovers bool) bool {
	if leftovers && t.active() == 0 {
		return true
	}
	// The leader's process group id is its pid, which cannot be reused
	// while we hold its handle (t.proc).
	if grace > 0 && t.p.console && windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(t.pid)) == nil {
		if t.waitEmpty(grace) {
			return true
		}
	}
	_ = windows.TerminateJobObject(t.job, exitTerminated)
	return t.waitEmpty(killWait)
}

// waitEmpty waits until no process of the job is active, or d passes
// (waitJobEmpty: woken by ACTIVE_PROCESS_ZERO, which a nested job's
// emptying sends too, so the job itself is asked every time).
func (t *jobTree) waitEmpty(d time.Duration) bool {
	return waitJobEmpty(t.active, t.events.empty, d)
}

// rss sums the working sets of the job's processes (the memory watchdog's
// reading, where the notification limit could not be set).
func (t *jobTree) rss() int64 {
	const max = 1024
	buf := make([]uintptr, 2+max) // NumberOfAssignedProcesses, NumberOfProcessIdsInList (two DWORDs in one word on 64-bit), ids
	if err := windows.QueryInformationJobObject(t.job, windows.JobObjectBasicProcessIdList,
		uintptr(unsafe.Pointer(&buf[0])), uint32(len(buf))*uint32(unsafe.Sizeof(buf[0])), nil); err != nil {
		return 0
	}
	n := *(*uint32)(unsafe.Add(unsafe.Pointer(&buf[0]), 4))
	ids := unsafe.Slice((*uintptr)(unsafe.Add(unsafe.Pointer(&buf[0]), 8)), min(int(n), max))
	var sum int64
	for _, id := range ids {
		sum += workingSet(uint32(id))
	}
	return sum
}

// processMemoryCounters is PROCESS_MEMORY_COUNTERS.
type processMemoryCounters struct {
	Cb                         uint32
	PageFaultCount             uint32
	PeakWorkingSetSize         uintptr
	WorkingSetSize             uintptr
	QuotaPeakPagedPoolUsage    uintptr
	QuotaPagedPoolUsage        uintptr
	QuotaPeakNonPagedPoolUsage uintptr
	QuotaNonPagedPoolUsage     uintptr
	PagefileUsage              uintptr
	PeakPagefileUsage          uintptr
}

func workingSet(pid uint32) int64 {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return 0
	}
	defer windows.CloseHandle(h)
	var c processMemoryCounters
	c.Cb = uint32(unsafe.Sizeof(c))
	if r, _, _ := procK32GetProcessMemInfo.Call(uintptr(h), uintptr(unsafe.Pointer(&c)), uintptr(c.Cb)); r == 0 {
		return 0
	}
	return int64(c.WorkingSetSize)
}

func (t *jobTree) release() {
	if t.key != 0 {
		t.p.mu.Lock()
		delete(t.p.trees, t.key)
		t.p.mu.Unlock()
	}
	if t.proc != 0 {
		windows.CloseHandle(t.proc)
	}
	windows.CloseHandle(t.job) // KILL_ON_JOB_CLOSE: nothing survives this
}

// settle: the kernel's accounting of the tree is already final here.
func (t *jobTree) settle() bool { return true }

// winWalkTree is the fallback where no job can hold a call: the tree is
// found by walking a Toolhelp snapshot by the rules of [membership] (by
// parent pid, creation times guarding against reused pids — Windows never
// re-parents, but reuses pids quickly) and killed with TerminateProcess. It
// cannot confirm the tree dead, and nothing kills it if the server dies.
type winWalkTree struct {
	p      *windowsPlatform
	leader int
	proc   windows.Handle
	mu     sync.Mutex
	m      *membership
}

func (t *winWalkTree) name() string              { return "walk" }
func (t *winWalkTree) confirms() bool            { return false }
func (t *winWalkTree) kernelMemoryLimit() bool   { return false }
func (t *winWalkTree) oomKilled() bool           { return false }
func (t *winWalkTree) exceeded() <-chan struct{} { return nil }
func (t *winWalkTree) settle() bool              { return true }

func (t *winWalkTree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	cmd := newCmd()
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: t.p.creationFlags()}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t.leader = cmd.Process.Pid
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(t.leader))
	if err == nil {
		t.proc = h
	}
	start, _ := ProcessStart(t.leader)
	t.m = newMembership(ident{t.leader, start}, os.Getpid())
	return cmd, nil
}

func (t *winWalkTree) waitExit(cmd *exec.Cmd) {
	if t.proc != 0 {
		_, _ = windows.WaitForSingleObject(t.proc, windows.INFINITE)
		return
	}
	_, _ = cmd.Process.Wait()
}

func (t *winWalkTree) follow(ctx context.Context) { followWalks(ctx, func() { t.members() }, nil) }

// members walks a Toolhelp snapshot. Creation times are read only for the
// processes that can matter — the remembered ones and their descendants —
// since each costs an OpenProcess.
func (t *winWalkTree) members() []proc {
	rows := toolhelpProcesses()
	t.mu.Lock()
	defer t.mu.Unlock()
	children := map[int][]int{}
	for _, r := range rows {
		children[r.ppid] = append(children[r.ppid], r.pid)
	}
	need := map[int]bool{}
	var queue []int
	for pid := range t.m.known {
		need[pid] = true
		queue = append(queue, pid)
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			if !need[c] {
				need[c] = true
				queue = append(queue, c)
			}
		}
	}
	table := make([]proc, 0, len(need))
	for _, r := range rows {
		if !need[r.pid] {
			continue
		}
		if start, exited, ok := processTimes(r.pid); ok {
			r.start, r.zombie = start, exited
		} else {
			r.unattached = true
		}
		table = append(table, r)
	}
	members, _ := t.m.walk(table, nil)
	return members
}

// toolhelpProcesses lists every process by pid and parent pid.
func toolhelpProcesses() []proc {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil
	}
	defer windows.CloseHandle(snap)
	var pe windows.ProcessEntry32
	pe.Size = uint32(unsafe.Sizeof(pe))
	var out []proc
	for err = windows.Process32First(snap, &pe); err == nil; err = windows.Process32Next(snap, &pe) {
		out = append(out, proc{pid: int(pe.ProcessID), ppid: int(pe.ParentProcessID)})
	}
	return out
}

func (t *winWalkTree) alive() bool {
	for _, pi := range t.members() {
		if !pi.zombie {
			return true
		}
	}
	return false
}

// killAll terminates every member, walking again until a walk finds none:
// Windows cannot stop a process first, but it never re-parents one either,
// so a child whose parent died is still found — it was remembered.
func (t *winWalkTree) killAll() {
	for round := 0; round < 20; round++ {
		n := 0
		for _, pi := range t.members() {
			if pi.zombie {
				continue
			}
			h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pi.pid))
			if err != nil {
				continue
			}
			if windows.TerminateProcess(h, exitTerminated) == nil {
				n++
			}
			windows.CloseHandle(h)
		}
		if n == 0 {
			return
		}
	}
}

func (t *winWalkTree) stop(grace time.Duration, leftovers bool) bool {
	if leftovers && !t.alive() {
		return true
	}
	if grace > 0 && t.p.console && windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(t.leader)) == nil {
		if t.waitGone(grace) {
			return true
		}
	}
	t.killAll()
	return t.waitGone(killWait)
}

func (t *winWalkTree) waitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for t.alive() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
	return true
}

func (t *winWalkTree) rss() int64 {
	var sum int64
	for _, pi := range t.members() {
		sum += workingSet(uint32(pi.pid))
	}
	return sum
}

func (t *winWalkTree) release() {
	if t.proc != 0 {
		windows.CloseHandle(t.proc)
	}
}

// ProcessStart returns when process pid was created, in 100 ns units since
// 1601 (a FILETIME), so that a pid can be told from its reuse; false when
// there is no such process or it cannot be opened.
func ProcessStart(pid int) (uint64, bool) {
	start, _, ok := processTimes(pid)
	return start, ok
}

// processTimes reads when pid was created and whether it has exited: a
// process someone still holds a handle to outlives its exit as an object,
// and may still be listed.
func processTimes(pid int) (start uint64, exited, ok bool) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return 0, false, false
	}
	defer windows.CloseHandle(h)
	var created, exit, kernel, user windows.Filetime
	if windows.GetProcessTimes(h, &created, &exit, &kernel, &user) != nil {
		return 0, false, false
	}
	var code uint32
	exited = windows.GetExitCodeProcess(h, &code) == nil && code != 259 // STILL_ACTIVE
	return uint64(created.HighDateTime)<<32 | uint64(created.LowDateTime), exited, true
}

func isExecutable(fs.FileInfo) bool { return true }

// signalName names the crash an exit code stands for (an NTSTATUS such as
// STATUS_ACCESS_VIOLATION): Windows has no signals, and a crash is an exit
// with the exception's code.
func signalName(state *os.ProcessState) string {
	if state == nil {
		return ""
	}
	return crashName(uint32(state.ExitCode()))
}
