package callruntime

import (
	"fmt"
	"strings"
)

// Windows facts that are pure data, kept out of the windows-only files so
// that they are tested on every OS.

// ntstatusNames are the exit codes a Windows program dies with when it
// crashes: the NTSTATUS of the unhandled exception (ntstatus.h), and the
// two language runtimes' exception codes seen as exit codes.
var ntstatusNames = map[uint32]string{
	0xC0000005: "STATUS_ACCESS_VIOLATION",
	0xC0000008: "STATUS_INVALID_HANDLE",
	0xC0000017: "STATUS_NO_MEMORY",
	0xC000001D: "STATUS_ILLEGAL_INSTRUCTION",
	0xC0000025: "STATUS_NONCONTINUABLE_EXCEPTION",
	0xC000008C: "STATUS_ARRAY_BOUNDS_EXCEEDED",
	0xC000008E: "STATUS_FLOAT_DIVIDE_BY_ZERO",
	0xC0000094: "STATUS_INTEGER_DIVIDE_BY_ZERO",
	0xC0000095: "STATUS_INTEGER_OVERFLOW",
	0xC0000096: "STATUS_PRIVILEGED_INSTRUCTION",
	0xC00000FD: "STATUS_STACK_OVERFLOW",
	0xC000013A: "STATUS_CONTROL_C_EXIT",
	0xC0000135: "STATUS_DLL_NOT_FOUND",
	0xC0000138: "STATUS_ORDINAL_NOT_FOUND",
	0xC0000139: "STATUS_ENTRYPOINT_NOT_FOUND",
	0xC0000142: "STATUS_DLL_INIT_FAILED",
	0xC0000374: "STATUS_HEAP_CORRUPTION",
	0xC0000409: "STATUS_STACK_BUFFER_OVERRUN",
	0xC0000417: "STATUS_INVALID_CRUNTIME_PARAMETER",
	0xC0000420: "STATUS_ASSERTION_FAILURE",
	0xC0000602: "STATUS_FAIL_FAST_EXCEPTION",
	0xE06D7363: "MSVC_CPP_EXCEPTION",
	0xE0434352: "CLR_EXCEPTION",
}

// crashName names the crash a Windows exit code stands for, "" when it is
// an ordinary exit code. Besides the known names, any NTSTATUS of error
// severity (the top two bits set) that is not a customer code (bit 29
// clear) is a crash: it is what the kernel reports for an unhandled
// exception. exit(-1) — 0xFFFFFFFF, customer bit set — stays an exit code.
func crashName(code uint32) string {
	if name, ok := ntstatusNames[code]; ok {
		return name
	}
	if code&0xC0000000 == 0xC0000000 && code&0x20000000 == 0 {
		return fmt.Sprintf("NTSTATUS_0x%08X", code)
	}
	return ""
}

// Job Object limit flags (winnt.h), for saying what a host's job imposes.
var jobLimitNames = []struct {
	flag uint32
	name string
}{
	{0x00000001, "WORKINGSET"},
	{0x00000002, "PROCESS_TIME"},
	{0x00000004, "JOB_TIME"},
	{0x00000008, "ACTIVE_PROCESS"},
	{0x00000010, "AFFINITY"},
	{0x00000020, "PRIORITY_CLASS"},
	{0x00000040, "PRESERVE_JOB_TIME"},
	{0x00000080, "SCHEDULING_CLASS"},
	{0x00000100, "PROCESS_MEMORY"},
	{0x00000200, "JOB_MEMORY"},
	{0x00000400, "DIE_ON_UNHANDLED_EXCEPTION"},
	{0x00000800, "BREAKAWAY_OK"},
	{0x00001000, "SILENT_BREAKAWAY_OK"},
	{0x00002000, "KILL_ON_JOB_CLOSE"},
	{0x00004000, "SUBSET_AFFINITY"},
}

// Job Object UI restrictions (winnt.h): a job with any of them cannot be
// part of a nested job hierarchy, so our per-call job cannot be nested
// under it (AssignProcessToJobObject's documentation).
var jobUINames = []struct {
	flag uint32
	name string
}{
	{0x00000001, "HANDLES"},
	{0x00000002, "READCLIPBOARD"},
	{0x00000004, "WRITECLIPBOARD"},
	{0x00000008, "SYSTEMPARAMETERS"},
	{0x00000010, "DISPLAYSETTINGS"},
	{0x00000020, "GLOBALATOMS"},
	{0x00000040, "DESKTOP"},
	{0x00000080, "EXITWINDOWS"},
}

// HostJob is the Job Object the server itself runs in, when it does: a
// host's, the Task Scheduler's, libuv's (Node-based hosts put every child in
// one with KILL_ON_JOB_CLOSE and SILENT_BREAKAWAY_OK). Windows only.
type HostJob struct {
	// Limits are the job's limit flags (JOBOBJECT_BASIC_LIMIT_INFORMATION),
	// by name: "KILL_ON_JOB_CLOSE", "BREAKAWAY_OK", ...
	Limits []string `json:"limits,omitempty"`
	// UI are its UI restrictions by name; any makes nesting our per-call
	// jobs under it impossible.
	UI []string `json:"ui_restrictions,omitempty"`
	// Unreadable says why the limits could not be read, if they could not.
	Unreadable string `json:"unreadable,omitempty"`
}

// describeHostJob puts a host job's flags into a HostJob.
func describeHostJob(limitFlags, uiFlags uint32) *HostJob {
	h := &HostJob{}
	for _, f := range jobLimitNames {
		if limitFlags&f.flag != 0 {
			h.Limits = append(h.Limits, f.name)
		}
	}
	for _, f := range jobUINames {
		if uiFlags&f.flag != 0 {
			h.UI = append(h.UI, f.name)
		}
	}
	return h
}

// String is one line for doctor.
func (h *HostJob) String() string {
	if h.Unreadable != "" {
		return "the server runs inside a job whose limits cannot be read: " + h.Unreadable
	}
	s := "the server runs inside a job"
	if len(h.Limits) > 0 {
		s += " with limits " + strings.Join(h.Limits, ", ")
	} else {
		s += " without limits"
	}
	if len(h.UI) > 0 {
		s += "; UI restrictions " + strings.Join(h.UI, ", ") + " (a job under it cannot be nested)"
	}
	return s
}
