package warm

import "time"

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
