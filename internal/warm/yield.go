package warm

import (
	"context"
	"errors"
	"sync"
	"time"
)

// The rule, in one place: while a call of the user's runs through the Pool
// (cold because no template serves yet, or warm), warm start's own
// preparation yields the CPU to it, and carries on once no call runs.
//
//   - A template still starting (from its spawn to its ready line: the
//     CLI's import, preload, warm-up, fork canary) has its process group
//     stopped (SIGSTOP) and continued (SIGCONT) after. Only a process of
//     our own is stopped, never a call's, and never a template that serves:
//     a call forked from it inherits nothing of the hold (a niced or
//     SCHED_IDLE template would hand its priority to every call it forks,
//     and an unprivileged process cannot take it back).
//   - A verify run (cold or warm) does not start while a call runs, and one
//     in progress when a call begins is cancelled: its result is no
//     verdict, and it is made again, with its whole ceiling, once no call
//     runs. Time held back never counts toward a verify run's ceiling, so a
//     verify run never times out because it yielded.
//
// On a 2-core machine, the first call of a session used to share the CPU
// with the template's import and the cold verify run, each a CPU-bound
// interpreter, and ran three times slower than alone (BENCHMARKS.md
// "Warm start yields to the first call").

// errYielded is the cause that cancels a verify run held back for a call.
var errYielded = errors.New("warm: a verify run yielded to a call")

// yielding keeps the rule for one Pool. It never takes Pool.mu while it
// holds its own lock (released is called after).
type yielding struct {
	mu     sync.Mutex
	calls  int           // calls of the user's running
	free   chan struct{} // closed while no call runs
	since  time.Time     // when the calls now running began to hold
	groups map[int]bool  // process groups of templates still starting
	runs   map[int]context.CancelCauseFunc
	next   int
	// released is told, outside mu, how long the preparation was held
	// each time the last call ends.
	released func(held time.Duration)
	off      bool // yieldOn was false at the Pool's start: nothing is held
}

func newYielding() *yielding {
	free := make(chan struct{})
	close(free)
	return &yielding{free: free, groups: map[int]bool{}, runs: map[int]context.CancelCauseFunc{}, off: !yieldOn}
}

// yieldOn: pools started from now keep the rule; a benchmark compares with
// the preparation that does not yield (BenchmarkFirstCallRealAEAT).
var yieldOn = true

// call marks a call of the user's as running until end is called (once).
func (y *yielding) call() (end func()) {
	if y.off {
		return func() {}
	}
	y.mu.Lock()
	y.calls++
	if y.calls == 1 {
		y.free = make(chan struct{})
		y.since = time.Now()
		for g := range y.groups {
			holdGroup(g, true)
		}
		for _, cancel := range y.runs {
			cancel(errYielded)
		}
	}
	y.mu.Unlock()
	var once sync.Once
	return func() { once.Do(y.callEnded) }
}

func (y *yielding) callEnded() {
	y.mu.Lock()
	y.calls--
	var held time.Duration
	if y.calls == 0 {
		for g := range y.groups {
			holdGroup(g, false)
		}
		close(y.free)
		held = time.Since(y.since)
	}
	f := y.released
	y.mu.Unlock()
	if held > 0 && f != nil {
		f(held)
	}
}

// holding reports whether a call runs, so that preparation is held.
func (y *yielding) holding() bool {
	y.mu.Lock()
	defer y.mu.Unlock()
	return y.calls > 0
}

// starting has the process group pgid — a template until its ready line —
// stopped while a call runs, from now until done is called; done continues
// it if it is stopped. Call done before the process is reaped, so that no
// signal can reach a group whose number was reused.
func (y *yielding) starting(pgid int) (done func()) {
	y.mu.Lock()
	y.groups[pgid] = true
	if y.calls > 0 {
		holdGroup(pgid, true)
	}
	y.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			y.mu.Lock()
			delete(y.groups, pgid)
			if y.calls > 0 {
				holdGroup(pgid, false)
			}
			y.mu.Unlock()
		})
	}
}

// run runs one verify run, f, when no call runs; a call that begins while
// it runs cancels its context with errYielded, and it is run again, from
// the start, once no call runs. It returns when f returned without being
// held back, or ctx ended (its cause).
func (y *yielding) run(ctx context.Context, f func(context.Context)) error {
	for {
		y.mu.Lock()
		free := y.free
		y.mu.Unlock()
		select {
		case <-free:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
		y.mu.Lock()
		if y.calls > 0 {
			y.mu.Unlock()
			continue
		}
		rctx, cancel := context.WithCancelCause(ctx)
		id := y.next
		y.next++
		y.runs[id] = cancel
		y.mu.Unlock()
		f(rctx)
		y.mu.Lock()
		delete(y.runs, id)
		y.mu.Unlock()
		yielded := errors.Is(context.Cause(rctx), errYielded)
		cancel(nil)
		if !yielded || ctx.Err() != nil {
			return context.Cause(ctx)
		}
	}
}
