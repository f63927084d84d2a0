package callruntime

import (
	"fmt"
	"strings"
)

// A Mechanism is one way the operating system lets us keep a process tree
// under control.
type Mechanism string

const (
	// ProcessGroup: the program leads a process group of its own, so one
	// signal reaches every descendant that did not leave it (Unix).
	ProcessGroup Mechanism = "process_group"
	// Pdeathsig: the kernel kills the program if the server dies (Linux).
	Pdeathsig Mechanism = "pdeathsig"
	// Pidfd: processes are signalled and waited for through pidfds, immune
	// to pid reuse (Linux ≥ 5.3; os.Process uses them when available).
	Pidfd Mechanism = "pidfd"
	// Subreaper: orphaned descendants are re-parented to the server rather
	// than to init, so the /proc walk can still find them (Linux).
	Subreaper Mechanism = "subreaper"
	// CgroupV2: each call runs in a cgroup of its own; cgroup.kill ends
	// every member at once, including a browser in a new session (Linux,
	// where the cgroup v2 hierarchy is writable).
	CgroupV2 Mechanism = "cgroup_v2"
	// CloneIntoCgroup: a call's leader is forked straight into its cgroup
	// (clone3 with CLONE_INTO_CGROUP, Linux ≥ 5.7), a warm call's too
	// ([Adopter]). Where clone3 is refused (a container's seccomp profile,
	// an older kernel) a cold call's program is held instead — this binary
	// re-executed, waiting — until it has been moved there by pid, and only
	// then executed; a warm call's child waits for its move the same way.
	// Either way not a line of the program runs outside the tree.
	CloneIntoCgroup Mechanism = "clone_into_cgroup"
	// CgroupMemory: the kernel enforces Spec.MemoryLimit through
	// memory.max (needs the memory controller delegated to us).
	CgroupMemory Mechanism = "cgroup_memory"
	// PIDNamespace: unshare(CLONE_NEWPID) is allowed. Probed and reported,
	// not used for calls: the CLI would be PID 1 of the namespace, which
	// ignores SIGTERM it has no handler for and must reap orphans, and an
	// init shim in front of it costs a re-exec (≈3 ms) per call.
	PIDNamespace Mechanism = "pid_namespace"
	// Lifeline: a helper process, started once per Runner, that notices the
	// server's death (its pipe closes) and kills every call's tree then —
	// also when the server was SIGKILLed (Linux, macOS).
	Lifeline Mechanism = "lifeline"
	// Ledger: the members the walks saw are recorded in a private file, so
	// that what a dead server's calls left is killed by its lifeline or by
	// the next server to start (Linux's /proc walk, macOS).
	Ledger Mechanism = "ledger"
	// TreeWalk: the process table is walked to find descendants that left
	// the process group (macOS: sysctl kern.proc; Linux: /proc).
	TreeWalk Mechanism = "tree_walk"
	// JobObject: each call runs in a Windows Job Object with
	// KILL_ON_JOB_CLOSE, which also covers a killed server. Probed at start:
	// a host's job with UI restrictions can forbid it.
	JobObject Mechanism = "job_object"
)

// MechanismStatus is one line of a [Report].
type MechanismStatus struct {
	Mechanism Mechanism `json:"mechanism"`
	Available bool      `json:"available"`
	Used      bool      `json:"used"`
	Detail    string    `json:"detail,omitempty"`
}

// State is "used", "available" (and not used) or "unavailable".
func (s MechanismStatus) State() string {
	switch {
	case s.Used:
		return "used"
	case s.Available:
		return "available"
	}
	return "unavailable"
}

// Report is what a Runner found at start-up and what it uses, for a doctor
// command and for logs.
type Report struct {
	Platform string `json:"platform"`
	// Tree names how a call's tree is tracked: "cgroup", "procwalk",
	// "pgroup" (Unix without a better way), "job" (Windows), or "walk"
	// (Windows where no job can hold a call).
	Tree       string            `json:"tree"`
	Mechanisms []MechanismStatus `json:"mechanisms"`
	// Limits says, in words, what this machine cannot guarantee.
	Limits []string `json:"limits,omitempty"`
	// Host is the Job Object the server runs in (Windows), nil when it
	// runs in none or elsewhere: a host's job decides whether calls can
	// have jobs of their own.
	Host *HostJob `json:"host_job,omitempty"`
}

// Uses reports whether the Runner uses m.
func (r Report) Uses(m Mechanism) bool {
	for _, s := range r.Mechanisms {
		if s.Mechanism == m {
			return s.Used
		}
	}
	return false
}

func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "platform %s, tree tracked by %s\n", r.Platform, r.Tree)
	for _, s := range r.Mechanisms {
		fmt.Fprintf(&b, "  %-17s %-11s %s\n", s.Mechanism, s.State(), s.Detail)
	}
	if r.Host != nil {
		fmt.Fprintf(&b, "  host job: %s\n", r.Host)
	}
	for _, l := range r.Limits {
		fmt.Fprintf(&b, "  limit: %s\n", l)
	}
	return b.String()
}
