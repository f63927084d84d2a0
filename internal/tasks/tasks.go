// Package tasks serves MCP Tasks over runs: a long call answered with a task
// handle at once, its state and final result collected later by polling.
// Two generations are on the wire (docs/ARCHITECTURE.md, "A task"):
//
//   - [V1], the 2025-11-25 experimental core tasks: the client asks for a
//     task with a "task" param on tools/call; tasks/get, tasks/result
//     (blocks until the task ends, then the exact CallToolResult),
//     tasks/list and tasks/cancel; notifications/tasks/status on changes.
//   - [V2], the 2026-07-28 extension io.modelcontextprotocol/tasks
//     (SEP-2663): the client declares the extension in a request's
//     capabilities and the server decides whether to answer with a task;
//     tasks/get (the final result inlined), tasks/update (answers to the
//     task's input requests) and tasks/cancel.
//
// A task is a view of a [runs.Run] — its id is the run's id — plus what only
// tasks have: a generation, a time to live, the requester's cancellation,
// and the questions a task asks while it runs (input_required). A task that
// a V1 requester asked for but that never became a run (arguments refused,
// a person declined) is a task born finished, with that result.
//
// The package is the one home of tasks: the wire shapes, the task table,
// the table of protocol generations ([Generation]), and [Transport], the
// decorator that serves tasks/* over another transport and swaps a task's
// handle in for a call's answer. It does not frame lines (the inner
// transport does) or decide which calls become tasks: the server's call
// handler creates them.
package tasks

import (
	"context"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/nonce"
	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Run is a call's work, as the server's run registry holds it.
type Run = runs.Run[*mcp.CallToolResult]

// taskStatus is a task's status on the wire, as the protocol names it —
// not the run's phase ([runs.Phase]), from which it is made in one place,
// [Task.snap]:
//
//	the task was cancelled (tasks/cancel)      → cancelled
//	run Cancelled                              → cancelled
//	run Completed or Failed, result isError    → the generation's errorStatus
//	                                             (2025-11-25 failed, 2026-07-28 completed)
//	run Completed or Failed, no isError        → completed
//	run Working, a question open               → input_required
//	run Working                                → working
//
// A task born finished (no run started) keeps the status it was born with.
type taskStatus string

// The statuses of both generations.
const (
	statusWorking       taskStatus = "working"
	statusInputRequired taskStatus = "input_required"
	statusCompleted     taskStatus = "completed"
	statusFailed        taskStatus = "failed"
	statusCancelled     taskStatus = "cancelled"
)

// Terminal reports whether s is an end status.
func (s taskStatus) terminal() bool {
	return s == statusCompleted || s == statusFailed || s == statusCancelled
}

// Defaults of a [Table].
const (
	defaultPollInterval = time.Second
	defaultKeep         = runs.DefaultKeep
	// defaultMax bounds the tasks kept; the oldest finished go first.
	defaultMax = 1000
	// defaultMaxResultBytes bounds the results finished tasks keep.
	defaultMaxResultBytes = 32 << 20
	// maxExpired bounds the ids remembered as expired, to say "expired"
	// rather than "not found".
	maxExpired = 1000
)

// Options configure a [Table].
type Options struct {
	// PollInterval is suggested to requesters. If zero, defaultPollInterval.
	PollInterval time.Duration
	// Keep is how long a task is kept past the end of its run's ceiling
	// when the requester asks for no time to live (and always for V2). If
	// zero, defaultKeep.
	Keep time.Duration
	// Grace is added to a run's ceiling before a task may expire: the kill
	// takes up to the kill grace after the ceiling.
	Grace time.Duration
	// Describe is the status message of a run in progress (its latest
	// progress); nil leaves it out.
	Describe func(*Run) string
	// Max bounds the tasks kept. If zero, defaultMax.
	Max int
	// MaxResultBytes bounds the finished results the tasks keep, by
	// ResultSize: the oldest finished tasks expire while their results
	// weigh more, but the newest finished task is always kept. If zero,
	// defaultMaxResultBytes.
	MaxResultBytes int64
}

// Table holds the tasks of every session of a server: a task's id is its
// run's, and a run is the server's, whichever session started it. What is
// a session's — where a task's status notifications go — is kept with the
// task, learnt from the request it was assigned to ([Request.Assign]).
type Table struct {
	opts Options

	mu      sync.Mutex
	tasks   map[string]*Task
	order   []string // creation order, for tasks/list and eviction
	expired map[string]struct{}
	gone    []string // expired ids, oldest first
}

// NewTable returns an empty table.
func NewTable(opts Options) *Table {
	if opts.PollInterval <= 0 {
		opts.PollInterval = defaultPollInterval
	}
	if opts.Keep <= 0 {
		opts.Keep = defaultKeep
	}
	if opts.Max <= 0 {
		opts.Max = defaultMax
	}
	if opts.MaxResultBytes <= 0 {
		opts.MaxResultBytes = defaultMaxResultBytes
	}
	return &Table{opts: opts, tasks: map[string]*Task{}, expired: map[string]struct{}{}}
}

// Task is one task.
type Task struct {
	ID      string
	Gen     Generation
	Created time.Time

	tb   *Table
	run  *Run                // nil for a task born finished
	born *mcp.CallToolResult // the result of a task born finished
	ttl  time.Duration       // requested; 0: none requested
	sent chan struct{}       // closed once the handle is on the wire

	mu             sync.Mutex
	updated        time.Time
	last           taskStatus // the status last observed, to date changes
	cancelled      bool       // a V1 requester cancelled it: it stays cancelled
	weight         int64      // ResultSize of the final result, once measured
	throughSession int        // questions open through the session
	pending        map[string]*pendingInput
	changed        chan struct{} // signalled when asking or pending change
	sentOnce       sync.Once
	// notify writes a notification to the session of the first request
	// answered with the task (nil: none heard yet, or a request that came
	// through no Transport). A second session that joins the task's run
	// gets its handle and polls: 2025-11-25's status notifications are a
	// MAY.
	notify func(method string, params any)
}

// pendingInput is a V2 input request waiting for its answer in
// tasks/update.
type pendingInput struct {
	request  map[string]any // {"method": "elicitation/create", "params": …}
	response chan *mcp.ElicitResult
}

// Create makes the task of run for a requester of generation gen, with the
// time to live it asked for (0: none). A run that already has a task — a
// call joined a run in progress — keeps it: the same id, whoever asks.
func (tb *Table) Create(gen Generation, run *Run, ttl time.Duration) *Task {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if t, ok := tb.tasks[run.ID]; ok {
		return t
	}
	t := tb.add(run.ID, gen, ttl)
	t.run = run
	go t.watch()
	return t
}

// Finished makes a task born finished with res: a V1 requester asked for a
// task, and the call ended before any run started (refused, declined,
// invalid arguments). The requester gets the result the ordinary call would
// have given, through the task it asked for.
func (tb *Table) Finished(gen Generation, res *mcp.CallToolResult, ttl time.Duration) *Task {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	t := tb.add(newID(), gen, ttl)
	t.born = res
	t.last = t.terminalStatus(res)
	return t
}

// add registers a new task; tb.mu is held.
func (tb *Table) add(id string, gen Generation, ttl time.Duration) *Task {
	now := time.Now()
	tb.evict(now)
	t := &Task{ID: id, Gen: gen, Created: now, tb: tb, ttl: ttl, sent: make(chan struct{}),
		updated: now, last: statusWorking, changed: make(chan struct{}, 1)}
	tb.tasks[id] = t
	tb.order = append(tb.order, id)
	return t
}

// lookup finds a live task of generation gen by id; expired reports an id
// that was a task and has expired. Expiry happens here: a finished task
// whose time to live has passed is dropped.
func (tb *Table) lookup(id string, gen Generation) (t *Task, expired bool) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	now := time.Now()
	tb.evict(now)
	if _, gone := tb.expired[id]; gone {
		return nil, true
	}
	t = tb.tasks[id]
	if t == nil || t.Gen != gen {
		return nil, false
	}
	return t, false
}

// list returns the live tasks of generation gen, oldest first.
func (tb *Table) list(gen Generation) []*Task {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.evict(time.Now())
	var out []*Task
	for _, id := range tb.order {
		if t := tb.tasks[id]; t != nil && t.Gen == gen {
			out = append(out, t)
		}
	}
	return out
}

// evict drops the finished tasks whose time to live has passed, then the
// oldest finished while more than Max are kept or their results weigh more
// than MaxResultBytes (the newest finished stays). A task whose run is
// still going is never dropped. tb.mu is held.
func (tb *Table) evict(now time.Time) {
	kept := tb.order[:0]
	over := len(tb.order) - tb.opts.Max
	var weight int64
	newest := ""
	for _, id := range tb.order {
		if t := tb.tasks[id]; t.finished() {
			weight += t.size()
			newest = id
		}
	}
	for _, id := range tb.order {
		t := tb.tasks[id]
		if t.finished() && (now.Sub(t.Created) > t.lifetime() || over > 0 || weight > tb.opts.MaxResultBytes && id != newest) {
			over--
			weight -= t.size()
			delete(tb.tasks, id)
			tb.expired[id] = struct{}{}
			tb.gone = append(tb.gone, id)
			continue
		}
		kept = append(kept, id)
	}
	tb.order = kept
	for len(tb.gone) > maxExpired {
		delete(tb.expired, tb.gone[0])
		tb.gone = tb.gone[1:]
	}
}

// Sent records that the task's handle reached the requester: progress and
// status notifications about it may follow now, not before.
func (t *Task) Sent() { t.sentOnce.Do(func() { close(t.sent) }) }

// Delivered is closed once the handle is on the wire.
func (t *Task) Delivered() <-chan struct{} { return t.sent }

// finished reports whether the task's work is over.
func (t *Task) finished() bool {
	if t.run == nil {
		return true
	}
	select {
	case <-t.run.Done():
		return true
	default:
		return false
	}
}

// lifetime is the task's time to live from its creation. A requester's ttl is
// honoured but never shorter than the run may take (its ceiling, extended
// perhaps, and the kill's grace): a requester that takes the ttl as the
// time after which to give up must not give up on a run that is still
// allowed to finish. Without a request, the task is kept for Keep past
// that.
func (t *Task) lifetime() time.Duration {
	var floor time.Duration
	if t.run != nil {
		// From the task's creation, a little after the run's start.
		floor = t.run.Ceiling() + t.tb.opts.Grace
	}
	if t.ttl > 0 {
		return max(t.ttl, floor)
	}
	return floor + t.tb.opts.Keep
}

// size is the weight of the task's final result (ResultSize), measured
// once; 0 while it has none.
func (t *Task) size() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.weight == 0 {
		if res, ok := t.Result(); ok && res != nil {
			t.weight = ResultSize(res)
		}
	}
	return t.weight
}

// Result is the task's final result, once it has one.
func (t *Task) Result() (*mcp.CallToolResult, bool) {
	if t.run == nil {
		return t.born, true
	}
	return t.run.Result()
}

// Done is closed when the task's work is over.
func (t *Task) Done() <-chan struct{} {
	if t.run == nil {
		return over
	}
	return t.run.Done()
}

// over is the Done of every task born finished.
var over = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// terminalStatus maps a final result to a status. The generations differ
// on a tool error: 2025-11-25 calls a result with isError "failed";
// 2026-07-28 keeps "failed" for JSON-RPC errors and calls it "completed",
// the error being in the result.
func (t *Task) terminalStatus(res *mcp.CallToolResult) taskStatus {
	if res != nil && res.IsError {
		return t.Gen.spec().errorStatus
	}
	return statusCompleted
}

// snapshot is a task's state at one moment.
type snapshot struct {
	status  taskStatus
	message string
	updated time.Time
	ttl     time.Duration
	result  *mcp.CallToolResult // when terminal (nil for V2 cancelled)
	inputs  map[string]any      // V2 input_required: the open questions
}

// snap computes the task's state now, and dates a change of status.
func (t *Task) snap() snapshot {
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	var s snapshot
	switch {
	case t.run == nil:
		s.status, s.result = t.last, t.born
	default:
		res, done := t.run.Result()
		switch {
		case t.cancelled:
			s.status = statusCancelled
			if done {
				s.result = res
			}
		case done && t.run.Phase() == runs.Cancelled:
			s.status, s.result = statusCancelled, res
		case done:
			s.status, s.result = t.terminalStatus(res), res
		case len(t.pending) > 0 || t.throughSession > 0:
			s.status = statusInputRequired
		default:
			s.status = statusWorking
		}
	}
	if s.status != t.last {
		t.last, t.updated = s.status, now
	}
	s.updated = t.updated
	s.ttl = t.lifetime()
	if s.status == statusInputRequired && len(t.pending) > 0 {
		s.inputs = make(map[string]any, len(t.pending))
		for k, q := range t.pending {
			s.inputs[k] = q.request
		}
	}
	switch {
	case !s.status.terminal() && t.tb.opts.Describe != nil:
		s.message = t.tb.opts.Describe(t.run)
	case s.result != nil:
		s.message = summary(s.result)
	}
	return s
}

// watch sends the requester notifications/tasks/status when the task's
// status changes, from the moment its handle is on the wire until it ends.
func (t *Task) watch() {
	status := t.Gen.spec().status
	if status == nil {
		return
	}
	select {
	case <-t.sent:
	case <-t.run.Done():
		select {
		case <-t.sent: // both: the handle went out first (writeHandle)
		default:
			return // the handle, read after the end, says how it ended
		}
	}
	wake, unwatch := t.run.Watch()
	defer unwatch()
	last := statusWorking
	for {
		s := t.snap()
		if s.status != last {
			last = s.status
			if notify := t.notifier(); notify != nil {
				notify(MethodStatusV1, status(t, s))
			}
		}
		if s.status.terminal() {
			return
		}
		select {
		case <-wake:
		case <-t.changed:
		case <-t.run.Done():
		}
	}
}

// heardBy gives the task the notifier of the session it answers, unless
// one answered already.
func (t *Task) heardBy(notify func(method string, params any)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.notify == nil {
		t.notify = notify
	}
}

func (t *Task) notifier() func(method string, params any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.notify
}

func (t *Task) signal() {
	select {
	case t.changed <- struct{}{}:
	default:
	}
}

// Ask puts a question to the task's requester and returns the answer, or
// ctx's error when ctx ends first (the run ended, or no answer in time) —
// the way its generation asks ([Generation.AsksInResult]): a 2026-07-28
// task turns input_required, tasks/get shows the question under a key of
// its own, and the answer comes in tasks/update; a 2025-11-25 task is
// input_required while the question goes through the session (elicit,
// elicitation/create), tied to the task by the related-task key.
func (t *Task) Ask(ctx context.Context, elicit func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error), params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if t.Gen.AsksInResult() {
		return t.askInTask(ctx, params)
	}
	params.Meta = mcp.Meta{RelatedTaskKey: map[string]string{"taskId": t.ID}}
	defer t.asking()()
	return elicit(ctx, params)
}

// asking marks the task input_required while a question goes through the
// session; the returned function ends it.
func (t *Task) asking() (done func()) {
	t.mu.Lock()
	t.throughSession++
	t.mu.Unlock()
	t.signal()
	return func() {
		t.mu.Lock()
		t.throughSession--
		t.mu.Unlock()
		t.signal()
	}
}

// askInTask shows the question as the task's input request and waits for
// its answer in tasks/update.
func (t *Task) askInTask(ctx context.Context, params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	key := nonce.New("q-", 8)
	q := &pendingInput{
		request:  map[string]any{"method": "elicitation/create", "params": params},
		response: make(chan *mcp.ElicitResult, 1),
	}
	t.mu.Lock()
	if t.pending == nil {
		t.pending = map[string]*pendingInput{}
	}
	t.pending[key] = q
	t.mu.Unlock()
	t.signal()
	defer func() {
		t.mu.Lock()
		delete(t.pending, key)
		t.mu.Unlock()
		t.signal()
	}()
	select {
	case a := <-q.response:
		return a, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// respond delivers an input response (tasks/update) to the open question key; false when no such
// question is open (never asked, answered already, or withdrawn).
func (t *Task) respond(key string, a *mcp.ElicitResult) bool {
	t.mu.Lock()
	q, ok := t.pending[key]
	if ok {
		delete(t.pending, key) // a key answers once
	}
	t.mu.Unlock()
	if ok {
		q.response <- a
	}
	return ok
}

// cancel stops the task's run. A V1 task is cancelled from now on,
// whatever its run ends with (2025-11-25: it MUST stay cancelled).
func (t *Task) cancel() {
	if t.Gen.spec().staysCancelled {
		t.mu.Lock()
		t.cancelled = true
		t.mu.Unlock()
	}
	if t.run != nil {
		t.run.Cancel()
	}
}

// newID is the id of a task born finished: "t-" and 16 random hex digits,
// unguessable like a run's.
func newID() string { return nonce.New("t-", 8) }
