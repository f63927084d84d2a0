package callruntime

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// DefaultKillGrace is how long a tree is given between SIGTERM and SIGKILL
// when [Spec.KillGrace] is zero.
const DefaultKillGrace = 2 * time.Second

// A Spec describes one CLI invocation.
type Spec struct {
	// Path is the absolute path of the program. It is never looked up on
	// PATH and never given to a shell.
	Path string
	// Args are the arguments after the program name, passed as they are.
	Args []string
	// Env is the whole environment of the process, as "KEY=value" strings.
	// Nil or empty means an empty environment: nothing is inherited. On
	// Windows os/exec adds SYSTEMROOT when Env lacks it (Windows programs
	// fail without it); nothing else is ever added.
	Env []string
	// Dir is the working directory; empty means the caller's.
	Dir string
	// Stdin, if non-nil, is written to the program's stdin, which is then
	// closed (a secret the CLI reads instead of taking it in argv). Nil
	// means the null device.
	Stdin []byte

	// Timeout bounds the call from the moment Run is called. Zero means no
	// timeout of its own (the ctx may still end the call).
	Timeout time.Duration
	// KillGrace is how long the tree is given to exit after SIGTERM before
	// it is killed. If zero, [DefaultKillGrace]. A [GraceCap] in the cause
	// that stops the call bounds it.
	KillGrace time.Duration

	// MaxStdout and MaxStderr cap what is kept of each stream (half from the
	// start, half from the end). If zero, [DefaultOutputCap].
	MaxStdout, MaxStderr int

	// Spill, if set, is called once per stream for a writer that gets the
	// whole stream as the capture sees it (after the Filter and the
	// Secrets), in order — not just the capture's head and tail: for a
	// caller that keeps what the cap leaves out readable elsewhere (on
	// disk). Write is called from the stream's reader; its errors are the
	// writer's own to keep (the capture goes on regardless). A nil writer
	// spills nothing of that stream.
	Spill func(Stream) io.Writer

	// Filter, if set, is called once per stream for a [Filter] that rewrites
	// that stream before it is captured or observed.
	Filter func() Filter
	// Secrets are values the program must not show: what it was given on
	// Stdin, a key from a keychain. Each is replaced with [RedactedSecret]
	// in both streams — before the Filter, the capture and the observer see
	// them, also when split across writes — in every form [RedactSecrets]
	// knows (as it is, JSON-escaped, base64, hex, URL-escaped). Empty values
	// are ignored.
	Secrets [][]byte
	// OnLine, if set, is called with each output line while the process
	// runs, from a goroutine of its own. It can never block the readers:
	// when it falls behind, lines are dropped and counted in
	// [Line.Dropped]. A panic in it is contained and it is not called
	// again. It is never called after Run returns; Run waits for a call in
	// progress, so it should return promptly.
	OnLine func(Line)

	// MemoryLimit, if positive, is a ceiling in bytes on the memory of the
	// whole tree. Exceeding it kills the tree and ends the call with
	// [ResourceExceeded]. What is counted differs: on Linux resident
	// memory — the kernel enforces it where cgroup v2's memory controller
	// is available (memory.max), elsewhere a watchdog samples the tree's
	// RSS every 100 ms; on Windows committed memory (a notification limit
	// on the call's Job Object); macOS does not enforce it.
	MemoryLimit int64

	// Adopt, if set, has the program forked by someone else — a warm
	// template ([Adopter]) — rather than started with exec; Path still
	// names it and must exist. If the adoption fails, Run returns an
	// [*AdoptError] and nothing of the program ran.
	Adopt Adopter
	// Berth, if set, is the call's tree: a [Berth] made before the call,
	// where the program Adopt hands it may be waiting already. Run takes
	// it (it is the call's from then on, and ends with the call) unless it
	// was taken or released already, or the call needs a limit the berth
	// was not made with (a kernel memory ceiling); the call then gets a
	// tree of its own, and the berth stays the caller's to release.
	Berth *Berth
}

// memorySampleInterval is how often the memory watchdog sums the tree's RSS.
const memorySampleInterval = 100 * time.Millisecond

// End says how a call ended.
type End int

const (
	// Exited: the program exited by itself; see [Result.ExitCode].
	Exited End = iota + 1
	// Signaled: the program was killed by a signal nobody in this package
	// sent (it crashed, or something outside killed it).
	Signaled
	// TimedOut: the [Spec.Timeout] (or a ctx deadline whose cause is
	// [ErrTimeout]) expired and the tree was stopped.
	TimedOut
	// Cancelled: the caller's ctx was cancelled and the tree was stopped.
	Cancelled
	// ResourceExceeded: the tree went over [Spec.MemoryLimit] and was
	// killed.
	ResourceExceeded
)

func (o End) String() string {
	switch o {
	case Exited:
		return "exited"
	case Signaled:
		return "signaled"
	case TimedOut:
		return "timed_out"
	case Cancelled:
		return "cancelled"
	case ResourceExceeded:
		return "resource_exceeded"
	}
	return fmt.Sprintf("End(%d)", int(o))
}

// Result is what Run reports of a call that started.
type Result struct {
	// End says how the program ended.
	End End
	// ExitCode is the program's exit code when End is Exited; -1
	// otherwise.
	ExitCode int
	// Signal names the signal that ended the program ("SIGSEGV"), when it
	// was ended by one — ours included; on Windows, the NTSTATUS of the
	// crash that ended it ("STATUS_ACCESS_VIOLATION").
	Signal string
	Stdout Output
	Stderr Output
	// Duration runs from the call's start to Run's return.
	Duration time.Duration
	// TreeDead is true when the supervisor confirmed that every process the
	// call started is gone. It can only be confirmed by a mechanism that
	// sees the whole tree (cgroup, the /proc walk with the server as child
	// subreaper, Job Object); with a bare process group, macOS's walk or
	// Windows' walk it stays false.
	TreeDead bool
	// Tree names the mechanism that tracked the tree ("cgroup",
	// "procwalk", "pgroup", "job", "walk").
	Tree string
	// PeakRSS is the largest resident size of the whole tree the memory
	// watchdog saw, in bytes; zero when it did not run.
	PeakRSS int64
}

// ErrTimeout is the cause of a context that ended because a call's time was
// up. Run uses it for [Spec.Timeout]; a caller that sets its own deadline with
// context.WithTimeoutCause(ctx, d, ErrTimeout) gets [TimedOut] too.
var ErrTimeout = errors.New("callruntime: timed out")

// ErrResourceExceeded is the cause recorded when the tree outgrew its
// [Spec.MemoryLimit].
var ErrResourceExceeded = errors.New("callruntime: resource ceiling exceeded")

// ErrNotFound and ErrNotExecutable tell why a program could not be started;
// [StartError] wraps them.
var (
	ErrNotFound      = errors.New("callruntime: program not found")
	ErrNotExecutable = errors.New("callruntime: program not executable")
)

// StartError is returned by Run when the program could not be started. Use
// errors.Is with [ErrNotFound] or [ErrNotExecutable] to tell the common cases.
type StartError struct {
	Path string
	Err  error
}

func (e *StartError) Error() string { return "starting " + e.Path + ": " + e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }
