package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/aeat-mcp/aeat-mcp/internal/demo"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1 // a call failed (call) or a command could not do its job
	exitUsage   = 2 // bad flags, or a manifest that does not load
	// exitInterrupted: Ctrl-C cut the command short, as shells report a
	// process ended by SIGINT; another stop signal is 128 + its number
	// (stopCode).
	exitInterrupted = 130
)

// exitError carries an exit code out of a command.
type exitError struct {
	code int
	err  error
}

// Error is "" for an exit code with nothing more to say (a call whose error
// result was already printed).
func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

func main() {
	parent := os.Getppid() // before anything else (system.parent)
	if demo.IsDemoCLI(os.Args[1:]) {
		demo.Run() // the built-in demo's fake CLI is this binary
	}
	hardening, hardenErr := harden() // before anything it runs can look (harden.go)
	sys := osSystem(parent, hardening, hardenErr)
	// The one place signals are wired: a stop (Ctrl-C, SIGTERM, a hang-up)
	// cancels the context every command runs under, and each command that
	// blocks ends on it its own way (serve stops serving and exits 0, call
	// cancels its call, the others stop what they run and exit as the
	// signal would have ended them: stopCode). Wired when the command
	// starts (system.watchStop).
	ctx, watch, stop := notifyStop(context.Background())
	sys.watchStop = watch
	code := run(ctx, sys, os.Args[1:])
	stop()
	os.Exit(code)
}

// stopSignal is why the context of [notifyStop] ended: the signal that
// told aeat-mcp to stop (context.Cause), so the exit code can say which.
type stopSignal struct{ os.Signal }

func (s stopSignal) Error() string { return s.String() + " received" }

// notifyStop is signal.NotifyContext with the signal kept as a typed
// cause (NotifyContext's own cause is an unexported string), and the
// signals wired at watch, once, not at once: serve wires them when the
// host has its answer to initialize. The first signal.Notify starts two
// goroutines and a thread locked to one of them (the runtime's signal
// mask thread); a host waits for that answer, and until then a stop
// signal ends the process as it would any program, with nothing started
// yet to stop.
func notifyStop(parent context.Context) (ctx context.Context, watch func(), stop context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	var once sync.Once
	watch = func() {
		once.Do(func() {
			signal.Notify(sigs, stopSignals()...)
			go func() {
				select {
				case s := <-sigs:
					cancel(stopSignal{s})
				case <-ctx.Done():
				}
			}()
		})
	}
	return ctx, watch, func() {
		signal.Stop(sigs)
		cancel(context.Canceled)
	}
}

// stopSignals are the signals that stop aeat-mcp: Ctrl-C, SIGTERM (what
// hosts send), and a hang-up of its terminal — unless the process started
// with hang-ups ignored (nohup), which then stay ignored.
func stopSignals() []os.Signal {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	return sigs
}

// run is the whole command line — args without the program's name — on
// sys, and its exit code: what main does, and what tests call with a
// system of their own. ctx ends when aeat-mcp is told to stop.
func run(ctx context.Context, sys *system, args []string) int {
	served, err := serveAlone(ctx, sys, args)
	if !served {
		err = runTree(ctx, sys, args)
	}
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.Error() != "" {
			fmt.Fprintln(sys.stderr, "aeat-mcp:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(sys.stderr, "aeat-mcp:", err)
	return exitUsage
}

// runTree runs args through cobra's whole command tree.
func runTree(ctx context.Context, sys *system, args []string) error {
	root := newRootCmd(sys)
	root.SetArgs(args)
	root.SetIn(sys.stdin)
	root.SetOut(sys.stdout)
	root.SetErr(sys.stderr)
	return root.ExecuteContext(ctx)
}

// stopped ends a command that a stop cut short (doctor's probe,
// generate's walk, warm record's call, a keychain wait) with the exit code
// a shell reports for a process that signal ended, and nothing more to
// say; nil while ctx runs.
func stopped(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	return &exitError{code: stopCode(ctx)}
}

// stopCode is 128 + the number of the signal that ended ctx — 130 for
// Ctrl-C, 143 for SIGTERM, 129 for a hang-up — as a shell reports a
// process that signal killed; 130 when ctx ended without one (a test's
// cancel).
func stopCode(ctx context.Context) int {
	var s stopSignal
	if errors.As(context.Cause(ctx), &s) {
		if n, ok := s.Signal.(syscall.Signal); ok {
			return 128 + int(n)
		}
	}
	return exitInterrupted
}
