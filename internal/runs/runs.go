// Package runs keeps the work of long calls: a run outlives the request that
// started it, so a host that hangs up after a minute can collect the result
// later, and a retried mutation joins the run already under way instead of
// starting it twice.
//
// A [Run] has an unguessable id, the tool, a key (the tool and its canonical
// arguments), its phase, its times, the latest progress, and — once done —
// its final result. The request that started it is only one of its
// observers. A [Registry] starts runs, finds them by id, joins an identical
// run in progress, lists them, and forgets finished ones after a while.
//
// # Who may stop a run
//
// A run is stopped by [Run.Cancel] (a client asked, by its id), or when it
// is abandoned: the last request waiting for it went away ([Run.Abandon]) —
// never while another request, a join or a task still waits for it, and
// never once its id was handed out ([Run.Hold]: a client was told it goes
// on, and may collect it later). Joining and abandoning are atomic: a join
// either waits for a run that goes on, or starts a run of its own.
//
// The package knows nothing of MCP or of processes: the work is a function
// and the result a value of the caller's type. It keeps runs in memory only.
package runs

import (
	"context"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/nonce"
)

// Phase is where a run is in its lifecycle: Working, then one terminal
// phase for good. It is the run's own account, for every observer alike;
// the MCP task status a requester is shown is a different thing, made from
// the phase by package tasks (its taskStatus holds the one mapping: a task
// adds input_required, and a Failed run may be a "completed" task).
type Phase string

// The phases, spelled as the MCP task statuses they resemble.
const (
	Working   Phase = "working"
	Completed Phase = "completed"
	Failed    Phase = "failed"
	Cancelled Phase = "cancelled"
)

// Terminal reports whether s is an end phase.
func (s Phase) Terminal() bool { return s == Completed || s == Failed || s == Cancelled }

// ErrCancelled is the cause of a run's context when [Run.Cancel] stopped it.
var ErrCancelled = errors.New("runs: cancelled")

// Run is one call's work.
type Run[R any] struct {
	ID      string
	Tool    string
	Key     string // the tool and its canonical arguments; "" never joins
	Tier    string
	Started time.Time

	cancel context.CancelCauseFunc
	done   chan struct{}

	mu        sync.Mutex
	ceiling   time.Duration
	observers map[any]struct{}
	held      bool // its id was handed out: only Cancel stops it
	stopping  bool // cancelled: nothing joins it any more
	phase     Phase
	finished  time.Time
	result    R
	line      string // the latest progress line
	waiting   bool   // waiting for a concurrency slot
	watchers  map[chan struct{}]struct{}
}

// Ceiling is how long the run may take, from its start.
func (r *Run[R]) Ceiling() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ceiling
}

// Extend adds d to the run's ceiling (the work enforces it).
func (r *Run[R]) Extend(d time.Duration) {
	r.mu.Lock()
	r.ceiling += d
	r.mu.Unlock()
	r.wake()
}

// Attach records v (a pointer: observers are told apart by identity) as an
// observer of the run — a request waiting for it, a task following it —
// until the returned function or [Run.Detach] is called. The work may look
// for one that can do something for it (ask a person a question), and a
// run with an observer is never abandoned.
func (r *Run[R]) Attach(v any) (detach func()) {
	r.mu.Lock()
	r.attach(v)
	r.mu.Unlock()
	return func() { r.Detach(v) }
}

// attach adds an observer; r.mu is held.
func (r *Run[R]) attach(v any) {
	if r.observers == nil {
		r.observers = map[any]struct{}{}
	}
	r.observers[v] = struct{}{}
}

// Detach removes the observer v; it does nothing when v is not attached.
func (r *Run[R]) Detach(v any) {
	r.mu.Lock()
	delete(r.observers, v)
	r.mu.Unlock()
}

// Observers returns the values attached now.
func (r *Run[R]) Observers() []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]any, 0, len(r.observers))
	for v := range r.observers {
		out = append(out, v)
	}
	return out
}

// Hold records that the run's id was handed out — a client was told the run
// goes on and may collect it (or cancel it) by its id — so that it is never
// abandoned: from now on only [Run.Cancel] or its own end stops it.
func (r *Run[R]) Hold() {
	r.mu.Lock()
	r.held = true
	r.mu.Unlock()
}

// Abandon detaches the observer v, whose request went away (the client
// cancelled it), and cancels the run when that leaves nobody waiting for
// it: no other observer (request, join, task) and its id never handed out
// ([Run.Hold]). It reports whether it cancelled the run. A run being
// cancelled is joined no more: an identical call starts a run of its own.
func (r *Run[R]) Abandon(v any) bool {
	r.mu.Lock()
	delete(r.observers, v)
	abandoned := len(r.observers) == 0 && !r.held && !r.phase.Terminal()
	if abandoned {
		r.stopping = true
	}
	r.mu.Unlock()
	if abandoned {
		r.cancel(ErrCancelled)
	}
	return abandoned
}

// Done is closed when the run has its result.
func (r *Run[R]) Done() <-chan struct{} { return r.done }

// Result returns the final result and true once the run is done.
func (r *Run[R]) Result() (R, bool) {
	select {
	case <-r.done:
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.result, true
	default:
		var zero R
		return zero, false
	}
}

// Phase returns the run's phase.
func (r *Run[R]) Phase() Phase {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.phase
}

// Cancel stops the run: its context ends with [ErrCancelled]; the work
// decides what its result is then. It does not wait.
func (r *Run[R]) Cancel() {
	r.mu.Lock()
	r.stopping = true
	r.mu.Unlock()
	r.cancel(ErrCancelled)
}

// join attaches v (if not nil) and reports true, unless the run is being
// stopped; r.mu is not held.
func (r *Run[R]) join(v any) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopping {
		return false
	}
	if v != nil {
		r.attach(v)
	}
	return true
}

// Status is what observers show of a run in progress.
func (r *Run[R]) Status() (line string, waiting bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.line, r.waiting
}

// SetLine records the latest progress line and wakes the watchers.
func (r *Run[R]) SetLine(line string) {
	r.mu.Lock()
	r.line = line
	r.mu.Unlock()
	r.wake()
}

// SetWaiting records whether the run waits for a slot and wakes the
// watchers.
func (r *Run[R]) SetWaiting(w bool) {
	r.mu.Lock()
	r.waiting = w
	r.mu.Unlock()
	r.wake()
}

// Watch returns a channel that gets a value (coalesced) when the status
// changes, and a function to stop watching.
func (r *Run[R]) Watch() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	r.mu.Lock()
	if r.watchers == nil {
		r.watchers = map[chan struct{}]struct{}{}
	}
	r.watchers[ch] = struct{}{}
	r.mu.Unlock()
	return ch, func() {
		r.mu.Lock()
		delete(r.watchers, ch)
		r.mu.Unlock()
	}
}

func (r *Run[R]) wake() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for ch := range r.watchers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Snapshot is a run as a list shows it.
type Snapshot struct {
	ID      string
	Tool    string
	Tier    string
	Phase   Phase
	Started time.Time
	Elapsed time.Duration
	Ceiling time.Duration
}

func (r *Run[R]) snapshot(now time.Time) Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	end := now
	if r.phase.Terminal() {
		end = r.finished
	}
	return Snapshot{ID: r.ID, Tool: r.Tool, Tier: r.Tier, Phase: r.phase, Started: r.Started,
		Elapsed: end.Sub(r.Started), Ceiling: r.ceiling}
}

// Defaults of a [Registry].
const (
	DefaultKeep = 15 * time.Minute
	DefaultMax  = 100
)

// Registry holds the runs of one server.
type Registry[R any] struct {
	// Keep is how long a finished run's result is kept. If zero,
	// DefaultKeep.
	Keep time.Duration
	// Max bounds the runs kept; the oldest finished go first, and a run in
	// progress is never dropped. If zero, DefaultMax.
	Max int
	// MaxBytes, with Size, bounds the finished results kept, by their
	// Size: the oldest finished go first while the results kept weigh
	// more, but the newest finished result is always kept. If zero, or
	// Size is nil, results are bounded by Max alone.
	MaxBytes int64
	Size     func(R) int64

	mu    sync.Mutex
	runs  map[string]*Run[R]
	byKey map[string]*Run[R] // runs in progress that may be joined
	ended []ended            // finished runs kept, in the order they finished
	bytes int64              // the Size of the finished results kept
}

// ended is a finished run in the eviction queue.
type ended struct {
	id   string
	at   time.Time
	size int64
}

// Spec describes a run to start.
type Spec struct {
	Tool    string
	Key     string // "" or Join false: never joined
	Join    bool   // join a run in progress with the same Key
	Tier    string
	Ceiling time.Duration
	// Observer, if not nil, is attached (see [Run.Attach]) to the run Start
	// returns — new or joined — before any other call can abandon it.
	Observer any
}

// Work is a run's work. It gets the run (to report progress) and a context
// that ends when the run is cancelled or parent ends, and returns the result
// and the phase it ends in.
type Work[R any] func(ctx context.Context, run *Run[R]) (R, Phase)

// Start starts spec's work as a new run under parent, or — when spec asks to
// join and a run with the same key is in progress — returns that run and
// joined true.
func (g *Registry[R]) Start(parent context.Context, spec Spec, work Work[R]) (run *Run[R], joined bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.runs == nil {
		g.runs, g.byKey = map[string]*Run[R]{}, map[string]*Run[R]{}
	}
	g.evict(time.Now())
	if spec.Join && spec.Key != "" {
		if r := g.byKey[spec.Key]; r != nil && r.join(spec.Observer) {
			return r, true
		}
	}
	ctx, cancel := context.WithCancelCause(parent)
	r := &Run[R]{ID: newID(), Tool: spec.Tool, Key: spec.Key, Tier: spec.Tier, ceiling: spec.Ceiling,
		Started: time.Now(), cancel: cancel, done: make(chan struct{}), phase: Working}
	if spec.Observer != nil {
		r.attach(spec.Observer)
	}
	g.runs[r.ID] = r
	if spec.Join && spec.Key != "" {
		g.byKey[spec.Key] = r
	}
	go func() {
		defer cancel(nil)
		res, phase := work(ctx, r)
		now := time.Now()
		r.mu.Lock()
		r.result, r.phase, r.finished = res, phase, now
		r.mu.Unlock()
		var size int64
		if g.Size != nil {
			size = g.Size(res)
		}
		g.mu.Lock()
		if g.byKey[r.Key] == r {
			delete(g.byKey, r.Key)
		}
		g.ended = append(g.ended, ended{id: r.ID, at: now, size: size})
		g.bytes += size
		g.evict(now)
		g.mu.Unlock()
		close(r.done)
		r.wake()
	}()
	return r, false
}

// Join finds the run in progress with this key that a Start asking to join
// would join, and attaches v (if not nil) to it, atomically: a run being
// stopped is not joined.
func (g *Registry[R]) Join(key string, v any) (*Run[R], bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	r, ok := g.byKey[key]
	if !ok || key == "" || !r.join(v) {
		return nil, false
	}
	return r, true
}

// Get finds a run by id; a run forgotten (or never started) is not found.
func (g *Registry[R]) Get(id string) (*Run[R], bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.evict(time.Now())
	r, ok := g.runs[id]
	return r, ok
}

// List returns every run kept, oldest first.
func (g *Registry[R]) List() []Snapshot {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	g.evict(now)
	out := make([]Snapshot, 0, len(g.runs))
	for _, r := range g.runs {
		out = append(out, r.snapshot(now))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out
}

// evict forgets finished runs kept longer than Keep, then the oldest
// finished while more than Max are kept or their results weigh more than
// MaxBytes (the newest always stays). Called with g.mu held, on every
// Start and every end: it looks only at the runs it drops (the queue is in finishing
// order), never at the runs it keeps.
func (g *Registry[R]) evict(now time.Time) {
	keep, max := g.Keep, g.Max
	if keep <= 0 {
		keep = DefaultKeep
	}
	if max <= 0 {
		max = DefaultMax
	}
	n := 0
	heavy := func() bool { return g.MaxBytes > 0 && g.bytes > g.MaxBytes && n < len(g.ended)-1 }
	for n < len(g.ended) && (now.Sub(g.ended[n].at) > keep || len(g.runs) > max || heavy()) {
		delete(g.runs, g.ended[n].id)
		g.bytes -= g.ended[n].size
		n++
	}
	if n > 0 {
		g.ended = append(g.ended[:0], g.ended[n:]...)
	}
}

// newID is "r-" and 16 random hex digits: unguessable, so one client cannot
// collect or cancel another's run by guessing.
func newID() string { return nonce.New("r-", 8) }
