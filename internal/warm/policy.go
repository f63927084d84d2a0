package warm

import (
	"strings"
	"time"
)

// What differs per operating system, as pure functions of its name (Go's
// GOOS) so that every branch runs in Linux's tests.

// DefaultOn reports whether warm start is on unless the person says
// otherwise, on goos. On macOS it is off until it has been run there:
// Apple's runtimes crash a child forked without exec once its parent used
// Objective-C, CoreFoundation or libdispatch (CPython bpo-33725, gh-105912:
// why multiprocessing spawns there), and the guards below have never met a
// real Mac. --warm=true (AEAT_MCP_WARM=true) turns it on.
func DefaultOn(goos string) bool { return goos != "darwin" }

// DefaultOffReason says why warm start is off on goos when nobody turned it
// on; "" where it is on by default.
func DefaultOffReason(goos string) string {
	if DefaultOn(goos) {
		return ""
	}
	return "warm start is off by default on macOS until it has been run there (forking a process that used Apple's frameworks can crash the child); --warm=true or AEAT_MCP_WARM=true turns it on"
}

// canarySteps are what the fork canary's child touches on goos (template.py,
// _canary): what a call may touch and a forked child may not survive. On
// macOS, the system proxy settings (urllib.request.getproxies reads them
// through SystemConfiguration) and the keychain backend (Security.framework)
// — the frameworks behind the crashes. Elsewhere only the proxies, which
// read the environment: the keychain backend there talks D-Bus, which may
// start daemons.
func canarySteps(goos string) []string {
	if goos == "darwin" {
		return []string{"proxies", "keyring"}
	}
	return []string{"proxies"}
}

// canaryWait bounds the fork canary (Config.CanaryWait): it touches two
// settings, so only a child deadlocked on a lock the fork copied, or one
// that waits for a core on a loaded machine, takes this long.
const canaryWait = 30 * time.Second

// crashTurnsOff reports whether a warm call that a signal ended (sig, not
// ours: its timeout and cancellation are not "signaled") means forking this
// CLI is unsafe on goos. On macOS it does — the runtime kills a forked
// child that touches what it may not — and the call may have been cut
// anywhere. An unhandled KeyboardInterrupt ends a program by SIGINT, warm
// or cold: that is the CLI's own ending. Elsewhere a crash is the CLI's, as
// a cold call's would be.
func crashTurnsOff(goos, sig string) bool {
	return goos == "darwin" && sig != "" && sig != "SIGINT"
}

// hugePagesTunable has glibc's malloc (2.35 and later) advise transparent
// huge pages on the memory it maps (madvise MADV_HUGEPAGE; the kernel's
// default "madvise" mode then backs it with 2 MiB pages). A warm child
// inherits it from its template: a warm call writing 64 fresh MiB faults
// 1,445 times instead of 17,282 (TestWarmHugePages), and the real aeat's
// store unlock (Argon2id, a 19 MiB buffer) 779 instead of 4,868 in a fresh
// interpreter (BENCHMARKS.md "Warm start on the real aeat: faults"). Older
// glibc, musl and a kernel without THP ignore it.
//
// The mmap threshold is fixed at glibc's own starting value (128 KiB):
// left to itself, malloc raises it to the size of each mapped buffer freed,
// and a template whose set-up freed one (the real aeat's does) would hand
// its children buffers of that size carved from heap pages it wrote — a
// copy-on-write fault per 4 KiB page, which huge pages do not spare
// (TestWarmHugePagesAfterASetUpThatFreedABuffer: 5,003 faults for 16 MiB
// without it; the real aeat's ledger list 12,324 a call → 7,828).
const hugePagesTunable = "GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=131072"

// templateEnv is the environment the template's interpreter starts with on
// goos: env, and on Linux the allocator setting above — unless env sets
// GLIBC_TUNABLES itself (a person's own tuning wins). added names what was
// added: the template removes it from os.environ before the CLI is
// imported, so neither the CLI nor a call, nor what they start, sees it.
func templateEnv(goos string, env []string) (out, added []string) {
	out = append([]string{}, env...)
	if goos != "linux" {
		return out, nil
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, "GLIBC_TUNABLES=") {
			return out, nil
		}
	}
	name, _, _ := strings.Cut(hugePagesTunable, "=")
	return append(out, hugePagesTunable), []string{name}
}

// spareFor is the spare a template keeps on goos (template.py, _Spares):
// on Linux, where a child can be made to die with its template
// (PR_SET_PDEATHSIG) and a range of pages copied ahead in one call
// (MADV_POPULATE_WRITE, 5.14; older kernels refuse it and the spare copies
// nothing); elsewhere none — on macOS a child forked long before its call
// is one more process the fork canary never vouched for. Up to 64 MiB of
// pages are copied ahead (each spare holds that much of its own); of the
// first 8 calls, then one in 16, those that faulted 1,024 pages or more
// report what they wrote (the report reads the child's page map: ~17 ms
// for the real aeat on a VM, what 1,000 faults cost there).
func spareFor(goos string) *spareConfig {
	if goos != "linux" {
		return nil
	}
	return &spareConfig{LearnFirst: 8, LearnEvery: 16, MaxPages: 64 << 20 / 4096, ReportOver: 1024}
}

// sparesOn: templates keep a spare where spareFor has one; tests compare
// with none.
var sparesOn = true

// berthsOn: templates' spares are born in berths (berth.go) where the
// runner can make them; a benchmark compares with spares moved at their
// calls (BenchmarkWarmSpare).
var berthsOn = true
