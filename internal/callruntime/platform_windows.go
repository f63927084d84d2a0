package callruntime

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
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
// Windows has no SIGTERM for windowless programs: stopping is immediate and
// the kill grace does not apply.
type windowsPlatform struct{}

func newPlatform(map[Mechanism]bool) (platform, error) { return windowsPlatform{}, nil }

func (windowsPlatform) report() Report {
	return Report{
		Platform: "windows",
		Tree:     "job",
		Mechanisms: []MechanismStatus{
			{Mechanism: JobObject, Available: true, Used: true, Detail: "a Job Object per call, KILL_ON_JOB_CLOSE, started suspended"},
		},
		Limits: []string{"no graceful stop: the tree is terminated at once (no SIGTERM on Windows)"},
	}
}

func (windowsPlatform) close() error { return nil }

func (windowsPlatform) newTree(spec *Spec) (tree, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("creating job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return nil, fmt.Errorf("configuring job object: %w", err)
	}
	return &jobTree{job: job}, nil
}

type jobTree struct {
	job  windows.Handle
	proc windows.Handle
}

func (t *jobTree) name() string            { return "job" }
func (t *jobTree) confirms() bool          { return true }
func (t *jobTree) kernelMemoryLimit() bool { return false }
func (t *jobTree) oomKilled() bool         { return false }

func (t *jobTree) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	cmd := newCmd()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP,
	}
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
		t.proc = h
		err = resumeThreads(pid)
	}
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if h != 0 {
			windows.CloseHandle(h)
		}
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

func (t *jobTree) stop(grace time.Duration, leftovers bool) bool {
	if leftovers && t.active() == 0 {
		return true
	}
	_ = windows.TerminateJobObject(t.job, 1)
	deadline := time.Now().Add(5 * time.Second)
	for t.active() > 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

// rss reports the job's peak committed memory: Windows accounts memory per
// job, not per tree walk.
func (t *jobTree) rss() int64 {
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	if err := windows.QueryInformationJobObject(t.job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0
	}
	return int64(info.PeakJobMemoryUsed)
}

func (t *jobTree) release() {
	if t.proc != 0 {
		windows.CloseHandle(t.proc)
	}
	windows.CloseHandle(t.job) // KILL_ON_JOB_CLOSE: nothing survives this
}

func isExecutable(fs.FileInfo) bool { return true }

func signalName(*os.ProcessState) string { return "" }

func (windowsPlatform) treeName() string { return "job" }

// settle: the kernel's accounting of the tree is already final here.
func (t *jobTree) settle() bool { return true }
