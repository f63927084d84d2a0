package warm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// Defaults of a [Config].
const (
	// DefaultMaxCalls is how many calls one template serves before a fresh
	// one replaces it, when cli.warm.max_calls is zero.
	DefaultMaxCalls = 1000
	// DefaultVerifyTimeout bounds each verify run when Config.VerifyTimeout
	// is zero.
	DefaultVerifyTimeout = 45 * time.Second
)

// How often the CLI's files are looked at for a change, at most; a call
// that comes sooner trusts the last look.
var checkEvery = time.Second

// answerWait bounds how long the template is given to answer: a fork
// request (the child's "P"), and a call's end (its "X", once the child is
// gone). It forks in well under a millisecond and reports an exit at once,
// so only a template that is stopped (SIGSTOP, a swap storm) or stuck takes
// this long: it is then killed and replaced. A call never waits for it past
// its own ceiling.
var answerWait = 10 * time.Second

// A template that dies this many times within deathWindow is given up on.
const (
	maxDeaths   = 3
	deathWindow = 5 * time.Minute
)

// Config is what a [Pool] needs.
type Config struct {
	Warm annotations.Warm
	// Python is the interpreter the template runs in: cli.warm.interpreter,
	// or the CLI script's own (see [Interpreter]).
	Python string
	// Script is the CLI's resolved path: argv[0] of every call, and one of
	// the files watched for an upgrade.
	Script string
	// Args come before every verify argv (the manifest's cli.args).
	Args []string
	// Env and Dir are the environment and working directory a call gets;
	// the template runs with them, and each call sends its own.
	Env []string
	Dir string
	// Runner runs every call, warm or cold, and guards the template.
	Runner *callruntime.Runner
	Logger *slog.Logger
	// VerifyTimeout bounds each verify run; runs made again after one
	// timed out get up to maxVerifyGrowth times it. If zero,
	// DefaultVerifyTimeout.
	VerifyTimeout time.Duration
	// CanaryWait bounds the fork canary at each template start; a canary
	// that did not end within it is no verdict, and its template is
	// replaced. If zero, canaryWait.
	CanaryWait time.Duration
	// VerdictDir is where the Pool keeps its [Verdict] each time it turns
	// on or off; empty keeps it nowhere.
	VerdictDir string
	// GOOS is the operating system whose policies apply (policy.go). If
	// empty, runtime.GOOS; tests set "darwin" to run macOS's on Linux.
	GOOS string
}

// State is where a Pool stands.
type State string

const (
	// Starting: no template is ready yet; calls start cold meanwhile.
	Starting State = "starting"
	// On: calls of the served tiers fork from the template.
	On State = "on"
	// Off: warm start gave up (the reason says why); every call starts
	// cold.
	Off State = "off"
)

// Status is what a Pool reports, for doctor and logs.
type Status struct {
	State  State  `json:"state"`
	Reason string `json:"reason,omitempty"`
	// TemplatePID is the template serving calls; 0 when none is.
	TemplatePID int `json:"template_pid,omitempty"`
	// ReadyMS is how long the last template took from its start to
	// serving: import, preload, warm-up and verify.
	ReadyMS int64 `json:"ready_ms,omitempty"`
	// ImportMS is the import of the entry point alone.
	ImportMS int `json:"import_ms,omitempty"`
	// Commands is how many commands the preload walked.
	Commands int `json:"commands,omitempty"`
	// RSS is the template's resident memory, in bytes (Linux).
	RSS int64 `json:"rss_bytes,omitempty"`
	// Verified is how many verify calls ran cold and warm with the same
	// stdout.
	Verified int `json:"verified"`
	// Templates counts the templates started so far; Calls the calls
	// forked from them.
	Templates int `json:"templates"`
	Calls     int `json:"calls"`
	// BornInCgroup counts the calls forked straight into their cgroup
	// (clone3 with CLONE_INTO_CGROUP) — for a spare, into the berth that
	// became the call's tree (berth.go): Run did not have to move them.
	BornInCgroup int `json:"born_in_cgroup"`
	// Spares counts the calls handed to a template's spare, a child forked
	// and made ready before the call (born in its berth, or moved into the
	// call's cgroup).
	Spares int `json:"spares"`
	// Waited counts the calls that waited for a template about to be
	// ready rather than start cold; Lost the warm calls lost to warm start
	// itself ([LostError]).
	Waited int `json:"waited"`
	Lost   int `json:"lost"`
}

// slot is one template and the calls it serves.
type slot struct {
	t        *template
	stamp    string
	calls    int
	inflight int
	retired  bool
}

// A Pool keeps one warm template for a CLI and runs calls from it (see the
// package doc). It is safe for concurrent use.
type Pool struct {
	cfg Config
	log *slog.Logger

	life context.Context
	stop context.CancelFunc

	mu        sync.Mutex
	cur       *slot
	all       map[*slot]bool
	launching bool
	state     State
	reason    string
	deaths    []time.Time
	lastCheck time.Time
	status    Status
	settled   chan struct{} // closed the first time state leaves Starting
	changed   chan struct{} // closed and replaced at every change of state or template
	closed    bool
	// verdictKey names this configuration's Verdict ("": not kept);
	// lastFiles are the CLI's files the last template loaded.
	verdictKey string
	lastFiles  []string
	// inapplicable: turning off is logged at info level, not as a
	// warning ([Inapplicable]).
	inapplicable bool
	// What a call that finds no template ready weighs (wait.go): how long
	// cold runs take, when the template being started will serve.
	est estimates
	// retry, retryMax and answerWait are verifyRetry, verifyRetryMax and
	// answerWait at Start.
	retry, retryMax, answerWait time.Duration
	// yield holds warm start's own preparation while a call runs
	// (yield.go).
	yield *yielding
}

// Start starts a Pool: the template starts in the background, and calls
// start cold until it is ready and verified.
func Start(cfg Config) *Pool {
	var key string
	if cfg.VerdictDir != "" {
		key = VerdictKey(cfg.Python, cfg.Script, cfg.Args, cfg.Warm) // as configured, before the defaults
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.VerifyTimeout <= 0 {
		cfg.VerifyTimeout = DefaultVerifyTimeout
	}
	if cfg.CanaryWait <= 0 {
		cfg.CanaryWait = canaryWait
	}
	if cfg.Warm.MaxCalls <= 0 {
		cfg.Warm.MaxCalls = DefaultMaxCalls
	}
	if cfg.GOOS == "" {
		cfg.GOOS = runtime.GOOS
	}
	p := newPool(cfg, false)
	p.verdictKey = key
	p.retry, p.retryMax, p.answerWait = verifyRetry, verifyRetryMax, answerWait
	if !Supported {
		p.off(errUnsupported.Error())
		return p
	}
	if key != "" {
		if v, current, err := LoadVerdict(cfg.VerdictDir, key); err == nil {
			p.est.remember(v)
			if v.State == Off && v.Sticky && current {
				// The CLI as installed cannot be forked safely here (a
				// crash, a failed fork canary): not tried again until it
				// changes.
				p.lastFiles = v.Files
				p.off(fmt.Sprintf("%s (found %s; the CLI has not changed since)", v.Reason, v.At.Local().Format(time.DateTime)))
				return p
			}
		}
	}
	if cfg.Runner == nil || !cfg.Runner.CanAdopt() {
		p.off("this platform cannot place a forked call in its tree")
		return p
	}
	p.launching = true
	p.est.launching(time.Now())
	go p.launch("server start")
	return p
}

// Serves reports whether calls of tier start warm (cli.warm.tiers).
func (p *Pool) Serves(tier annotations.Tier) bool {
	return slices.Contains(p.cfg.Warm.TiersOrDefault(), tier)
}

// Status reports where the Pool stands.
func (p *Pool) Status() Status {
	p.mu.Lock()
	st := p.status
	st.State, st.Reason = p.state, p.reason
	var pid int
	if p.cur != nil {
		pid = p.cur.t.pid
	}
	p.mu.Unlock()
	st.TemplatePID = pid
	if pid != 0 {
		st.RSS = rssOf(pid)
	}
	return st
}

// Settled returns a channel closed once the Pool is first On or Off.
func (p *Pool) Settled() <-chan struct{} { return p.settled }

// Changed returns a channel closed at the next change of state or template.
func (p *Pool) Changed() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.changed
}

// notify wakes Changed's waiters; under p.mu.
func (p *Pool) notify() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// off turns warm start off for the life of the Pool.
func (p *Pool) off(reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.offLocked(reason, false)
}

// offForGood is off, and the verdict it leaves is sticky: later servers
// start off too until the CLI's files change — forking this CLI is unsafe
// here (a forked child crashed, or the fork canary failed).
func (p *Pool) offForGood(reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.offLocked(reason, true)
}

func (p *Pool) offLocked(reason string, sticky bool) {
	if p.state == Off {
		return
	}
	p.state, p.reason = Off, reason
	if p.cur != nil {
		p.retireLocked(p.cur)
		p.cur = nil
	}
	level := slog.LevelWarn
	if p.inapplicable {
		level = slog.LevelInfo
	}
	p.log.Log(context.Background(), level, "warm start is off; every call starts cold", "reason", reason)
	p.settle()
	files := p.lastFiles
	if files == nil {
		files = []string{p.cfg.Script}
	}
	p.keepVerdict(Verdict{State: Off, Reason: reason, Sticky: sticky, Files: files, Stamp: fingerprint(files)})
}

// keepVerdict writes v where Config.VerdictDir says; under p.mu, so that
// verdicts are written in the order they were reached.
func (p *Pool) keepVerdict(v Verdict) {
	if p.verdictKey == "" || p.closed {
		return
	}
	v.At = time.Now().UTC().Truncate(time.Second)
	v.ReadyMS, v.ColdMS = p.est.saved()
	if err := saveVerdict(p.cfg.VerdictDir, p.verdictKey, v); err != nil {
		p.log.Debug("warm start: keeping the verdict", "error", err)
	}
}

// settle closes settled once; under p.mu.
func (p *Pool) settle() {
	select {
	case <-p.settled:
	default:
		close(p.settled)
	}
	p.notify()
}

func (p *Pool) release(s *slot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s.inflight--
	if s.retired && s.inflight == 0 {
		go p.closeSlot(s)
	}
}

// retireLocked takes s out of service; it closes once its calls are done.
func (p *Pool) retireLocked(s *slot) {
	if s.retired {
		return
	}
	s.retired = true
	if s.inflight == 0 {
		go p.closeSlot(s)
	}
}

func (p *Pool) closeSlot(s *slot) {
	s.t.close()
	p.mu.Lock()
	delete(p.all, s)
	p.notify()
	p.mu.Unlock()
}

// launchLocked starts a replacement template unless one is starting.
func (p *Pool) launchLocked(why string) {
	if p.launching || p.closed || p.state == Off {
		return
	}
	p.launching = true
	p.est.launching(time.Now())
	go p.launch(why)
}

// died handles a template that died or failed to start: another is started,
// unless that keeps happening.
func (p *Pool) died(s *slot, why string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s != nil {
		delete(p.all, s)
		if p.cur == s {
			p.cur = nil
		}
	}
	if p.closed {
		return
	}
	p.log.Warn("warm template gone; calls start cold until another is ready", "why", why)
	now := time.Now()
	p.deaths = append(p.deaths, now)
	recent := 0
	for _, d := range p.deaths {
		if now.Sub(d) < deathWindow {
			recent++
		}
	}
	if recent >= maxDeaths {
		p.offLocked(fmt.Sprintf("the template failed %d times in %v; the last time: %s", recent, deathWindow, why), false)
		return
	}
	p.notify()
	p.launchLocked(why)
}

// endLaunch marks the launch in progress as over.
func (p *Pool) endLaunch() {
	p.mu.Lock()
	p.launching = false
	p.mu.Unlock()
}

// Close stops the Pool: no call forks any more, and every template is
// ended once its calls are done (bounded by the calls' own ceilings).
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	p.stop()
	if p.cur != nil {
		p.retireLocked(p.cur)
		p.cur = nil
	}
	for s := range p.all {
		p.retireLocked(s)
	}
	p.mu.Unlock()
	for {
		p.mu.Lock()
		n := len(p.all)
		ch := p.changed
		p.mu.Unlock()
		if n == 0 {
			return
		}
		<-ch
	}
}

// fingerprint is the size and modification time of every watched file
// (a missing file counts too): an upgrade changes it.
func fingerprint(files []string) string {
	var b strings.Builder
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			b.WriteString("-;")
			continue
		}
		fmt.Fprintf(&b, "%d:%d;", fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String()
}

// errUnsupported is why warm start is off where there is no fork.
var errUnsupported = errors.New("warm: needs fork, which this platform does not have")

// Disabled is a Pool that is Off from the start, for reason (logged as a
// warning): every call starts cold, and Status says why.
func Disabled(cfg Config, reason string) *Pool { return disabled(cfg, reason, false) }

// Inapplicable is Disabled for a CLI warm start does not apply to (not
// Python: [ErrNotPython]); it is logged at info level, as nothing is wrong
// with the server or the CLI.
func Inapplicable(cfg Config, reason string) *Pool { return disabled(cfg, reason, true) }

func disabled(cfg Config, reason string, inapplicable bool) *Pool {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	p := newPool(cfg, inapplicable)
	p.off(reason)
	return p
}

// newPool is a Pool of cfg (its defaults set), Starting.
func newPool(cfg Config, inapplicable bool) *Pool {
	p := &Pool{cfg: cfg, log: cfg.Logger.With("warm", cfg.Warm.Entry), all: map[*slot]bool{}, state: Starting,
		settled: make(chan struct{}), changed: make(chan struct{}), inapplicable: inapplicable, yield: newYielding()}
	p.life, p.stop = context.WithCancel(context.Background())
	p.yield.released = p.resumed
	return p
}

// resumed is told that warm start's preparation was held for held, now
// over: the template being started serves that much later than foreseen.
func (p *Pool) resumed(held time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.est.readyAt.IsZero() {
		p.est.readyAt = p.est.readyAt.Add(held)
	}
	p.log.Debug("warm start's preparation resumes: it yielded to the calls", "held_ms", held.Milliseconds())
	p.notify()
}
