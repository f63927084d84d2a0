package warm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// Run runs spec warm when a template is ready, otherwise cold — after
// waiting for a template that is about to be ready, when it will be ready
// sooner than a cold run would end (wait.go). A warm start that fails
// before the program ran is logged and the call starts cold: a call never
// fails because warm start did.
//
// A warm call lost to warm start itself — its template died under it, or
// on macOS a forked child crashed ([crashTurnsOff]) — returns its Result
// in a [*LostError]: how it ended says nothing of the CLI.
func (p *Pool) Run(ctx context.Context, spec callruntime.Spec) (callruntime.Result, error) {
	began := time.Now()
	s, look := p.acquire(ctx)
	// From here the call runs: warm start's own preparation yields to it.
	defer p.yield.call()()
	if s == nil {
		return p.runCold(ctx, spec)
	}
	defer p.release(s)
	res, f, err := p.runWarm(ctx, s, look, spec, "")
	var ae *callruntime.AdoptError
	if errors.As(err, &ae) && errors.Is(err, errCLIChanged) {
		// Logged where it was seen (cliChanged).
		return p.runCold(ctx, leftOf(spec, time.Since(began)))
	}
	if errors.As(err, &ae) {
		p.log.Warn("warm start failed; this call starts cold", "error", err)
		if errors.Is(err, errThreads) {
			p.off(err.Error())
		}
		return p.runCold(ctx, leftOf(spec, time.Since(began)))
	}
	if err != nil {
		return res, err
	}
	p.used(f)
	if why := p.lost(f, res); why != "" {
		return res, &LostError{Why: why, Result: res}
	}
	return res, nil
}

// Yield marks a call of the user's that runs outside the Pool (a tier it
// does not serve, a lost call run again cold) as running until end is
// called: warm start's own preparation yields to it as to the Pool's own
// calls (yield.go).
func (p *Pool) Yield() (end func()) { return p.yield.call() }

// runWarm runs spec forked from s's template; record, if set, is where the
// child writes what it loaded (Record). look, when not nil, says whether
// the CLI's files changed (serving): the child is let go only if not.
func (p *Pool) runWarm(ctx context.Context, s *slot, look <-chan bool, spec callruntime.Spec, record string) (callruntime.Result, *forker, error) {
	fctx := ctx
	if spec.Timeout > 0 {
		var cancel context.CancelFunc
		fctx, cancel = context.WithTimeoutCause(ctx, spec.Timeout, callruntime.ErrTimeout)
		defer cancel()
	}
	f := &forker{ctx: fctx, t: s.t, req: forkRequest{Argv: spec.Args, Cwd: spec.Dir, Env: spec.Env, Record: record}}
	if look != nil {
		f.look, f.changed = look, func() { p.cliChanged(s) }
	}
	f.berths.took = s.t.takeBerth()
	warm := spec
	warm.Adopt = f
	warm.Berth = f.berths.took
	res, err := p.cfg.Runner.Run(ctx, warm)
	s.t.settleBerths(&f.berths)
	if f.a != nil && (f.a.inCgroup || f.a.spare) {
		// A spare says it was born in its berth; the berth was this call's
		// tree if the call took the template's.
		born := f.a.inCgroup && (!f.a.spare || f.berths.took != nil && f.berths.took.Taken())
		p.mu.Lock()
		if born {
			p.status.BornInCgroup++
		}
		if f.a.spare {
			p.status.Spares++
		}
		p.mu.Unlock()
	}
	return res, f, err
}

// leftOf is spec with what is left of its ceiling once spent has passed:
// a call that waited for a template that never forked starts cold within
// its own ceiling, not with a fresh one (a ceiling binds whatever the
// template does). With nothing left the cold run is stopped at once, and
// ends timed out as the call would have.
func leftOf(spec callruntime.Spec, spent time.Duration) callruntime.Spec {
	if spec.Timeout <= 0 {
		return spec
	}
	spec.Timeout = max(spec.Timeout-spent, time.Millisecond)
	return spec
}

// runCold runs spec the ordinary way, and learns from how long it took.
func (p *Pool) runCold(ctx context.Context, spec callruntime.Spec) (callruntime.Result, error) {
	res, err := p.cfg.Runner.Run(ctx, spec)
	if err == nil && res.End == callruntime.Exited {
		p.mu.Lock()
		p.est.cold(res.Duration)
		p.mu.Unlock()
	}
	return res, err
}

// used logs what a warm call's child used, where its template could tell
// (Linux): the page faults and CPU of the call itself, which a person
// tuning warm start (BENCHMARKS.md) compares with a cold call's.
func (p *Pool) used(f *forker) {
	if f.a == nil {
		return
	}
	u := f.a.used()
	if !u.Reported {
		return
	}
	if childUsed != nil {
		childUsed(u)
	}
	p.log.Debug("warm call used", "pid", f.a.Pid(), "minflt", u.MinFlt, "majflt", u.MajFlt,
		"user_ms", u.User.Milliseconds(), "sys_ms", u.Sys.Milliseconds())
}

// childUsed, when set (by tests, before any Pool starts), is told what each
// warm call's child used, where it was reported.
var childUsed func(childUsage)

// lost says why a warm call that ended as res was lost to warm start, not
// the CLI; "" if it was not. On macOS a forked child that a signal ended
// also turns warm start off for good ([crashTurnsOff]).
func (p *Pool) lost(f *forker, res callruntime.Result) string {
	var why string
	if f.a != nil {
		why = f.a.lost(res)
	}
	if res.End == callruntime.Signaled && crashTurnsOff(p.cfg.GOOS, res.Signal) {
		reason := fmt.Sprintf("a warm call was killed by %s: on macOS that is how a child forked from a process that used Apple's frameworks dies, so forking this CLI is unsafe here", res.Signal)
		p.offForGood(reason)
		if why == "" {
			why = reason
		}
	}
	if why != "" {
		p.mu.Lock()
		p.status.Lost++
		p.mu.Unlock()
		p.log.Warn("a warm call was lost to warm start, not to the CLI", "why", why)
	}
	return why
}

// LostError is [Pool.Run]'s error for a warm call lost to warm start itself
// — its template died under it, or on macOS a forked child crashed — not to
// the CLI: the server's fault, and the call may be made again (a call that
// only reads, at once: warm start may be off by then, or its template
// replaced). Result is how the call was seen to end.
type LostError struct {
	Why    string
	Result callruntime.Result
}

func (e *LostError) Error() string { return "warm: the call was lost: " + e.Why }

// Lost returns how the lost call was seen to end.
func (e *LostError) Lost() callruntime.Result { return e.Result }

// forkAsked, when set (by tests, before any Pool starts), is told each time
// a template with this pid was sent a fork request: an event a test's
// ceiling can follow, where a clock would race a loaded machine.
var forkAsked func(templatePID int)

// forker is the Adopter of one call: its template, its request, and the
// call's context (every wait for the template ends with it).
type forker struct {
	ctx context.Context
	t   *template
	req forkRequest
	a   *adoptee // once forked
	// berths are the template's berths the call took and replaced
	// (berth_unix.go).
	berths berths
	// look, when not nil, says whether the CLI's files changed since the
	// template imported them (serving); changed retires the template.
	look    <-chan bool
	changed func()
}

func (f *forker) Fork(stdin, stdout, stderr, cgroup *os.File) (callruntime.Adoptee, error) {
	a, err := f.t.fork(f.ctx, f.req, stdin, stdout, stderr, cgroup, &f.berths)
	if err != nil {
		return nil, err
	}
	f.a = a
	if f.look != nil {
		return lookedAt{a, f}, nil
	}
	return a, nil
}

// errCLIChanged is why a forked child was not let go: the CLI's files
// changed on disk since its template imported them.
var errCLIChanged = errors.New("warm: the CLI's files changed since its template started")

// lookedAt is a forked child let go only once the look at the CLI's files
// that its call began (serving) found them as the template loaded them:
// the look runs while the template forks, instead of before the call
// asks for the fork (3–6 ms for the real aeat's, traced).
type lookedAt struct {
	*adoptee
	f *forker
}

func (l lookedAt) Start() error {
	select {
	case changed := <-l.f.look:
		if changed {
			l.f.changed()
			return errCLIChanged
		}
	case <-l.f.ctx.Done():
		return context.Cause(l.f.ctx)
	}
	return l.adoptee.Start()
}

// acquire is the template a call may fork from, or nil (start cold), and
// the look at the CLI's files the call waits for before its child runs
// (serving). It starts a replacement for a template that has served its
// calls. While a template is being started it waits for it, when it will
// be ready sooner than a cold run would end (worthWaiting), until it
// serves, the start fails, or ctx ends.
func (p *Pool) acquire(ctx context.Context) (*slot, <-chan bool) {
	waited := false
	p.mu.Lock()
	for {
		if s, look, ok := p.serving(); ok {
			if s != nil && waited {
				p.status.Waited++
			}
			p.mu.Unlock()
			return s, look
		}
		until, ok := p.worthWaiting(time.Now())
		if !ok {
			p.mu.Unlock()
			return nil, nil
		}
		ch := p.changed
		p.mu.Unlock()
		if !waited {
			p.log.Debug("a call waits for the warm template being started", "until", until.Format(time.TimeOnly))
		}
		waited = true
		timer := time.NewTimer(time.Until(until))
		select {
		case <-ch:
		case <-timer.C:
		case <-ctx.Done():
		}
		timer.Stop()
		if ctx.Err() != nil {
			return nil, nil
		}
		p.mu.Lock()
	}
}

// serving is the slot a call forks from now (ok), or nil and ok when it
// must start cold now; !ok when no template serves yet. Under p.mu.
//
// At most once every checkEvery it also starts a look at the CLI's files:
// look then says whether they changed, and the call lets its child run
// only if they did not (lookedAt) — the look runs while the template forks.
// A call that comes sooner trusts the last look.
func (p *Pool) serving() (s *slot, look <-chan bool, ok bool) {
	if p.closed || p.state == Off {
		return nil, nil, true
	}
	s = p.cur
	if s == nil || p.state != On || !s.t.alive() {
		return nil, nil, false
	}
	if now := time.Now(); now.Sub(p.lastCheck) >= checkEvery {
		p.lastCheck = now
		ch := make(chan bool, 1)
		go func(files []string, stamp string) {
			if looking != nil {
				looking()
			}
			ch <- fingerprint(files) != stamp
		}(s.t.ready.Files, s.stamp)
		look = ch
	}
	if s.calls >= p.cfg.Warm.MaxCalls {
		// The template goes on serving until its replacement is ready.
		p.launchLocked("it served " + strconv.Itoa(s.calls) + " calls")
	}
	s.calls++
	s.inflight++
	p.status.Calls++
	return s, look, true
}

// looking, when set (by tests), is called as each look at the CLI's files
// begins, in the goroutine that makes it.
var looking func()

// cliChanged retires s, whose CLI's files changed on disk, and starts its
// replacement.
func (p *Pool) cliChanged(s *slot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur != s {
		return // another call saw it first
	}
	p.log.Info("the CLI's files changed: replacing the warm template; calls start cold until it is ready")
	p.retireLocked(s)
	p.cur = nil
	p.launchLocked("the CLI's files changed")
}

// Recording is what one warm call loaded that its template had not
// (aeat-mcp warm record): the modules, in the order they were imported,
// and how long the call ran in the child.
type Recording struct {
	Modules []string `json:"modules"`
	MS      float64  `json:"ms"`
}

// ErrNotWarm is Record's error when no template serves: the call would have
// started cold, and there is nothing to record.
var ErrNotWarm = errors.New("warm: no warm template serves calls")

// Record runs spec warm, as Run does, and returns what the call loaded that
// the template had not: what cli.warm.preload could load for its verb.
// It waits until the Pool has settled.
func (p *Pool) Record(ctx context.Context, spec callruntime.Spec) (Recording, callruntime.Result, error) {
	select {
	case <-p.Settled():
	case <-ctx.Done():
		return Recording{}, callruntime.Result{}, context.Cause(ctx)
	}
	p.mu.Lock()
	s, look, _ := p.serving()
	p.mu.Unlock()
	if s == nil {
		return Recording{}, callruntime.Result{}, fmt.Errorf("%w: %s", ErrNotWarm, p.Status().Reason)
	}
	defer p.release(s)
	dir, err := os.MkdirTemp("", "aeat-mcp-record.")
	if err != nil {
		return Recording{}, callruntime.Result{}, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "record.json")
	res, _, err := p.runWarm(ctx, s, look, spec, path)
	if err != nil {
		return Recording{}, res, err
	}
	var rec Recording
	b, err := os.ReadFile(path)
	if err != nil {
		return rec, res, fmt.Errorf("the call left no record (%s, exit %d): %w", res.End, res.ExitCode, err)
	}
	return rec, res, json.Unmarshal(b, &rec)
}
