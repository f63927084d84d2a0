package warm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
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
	// VerifyTimeout bounds each verify run. If zero, DefaultVerifyTimeout.
	VerifyTimeout time.Duration
	// VerdictDir is where the Pool keeps its [Verdict] each time it turns
	// on or off; empty keeps it nowhere.
	VerdictDir string
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
	// (clone3 with CLONE_INTO_CGROUP): Run did not have to move them.
	BornInCgroup int `json:"born_in_cgroup"`
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
	if cfg.Warm.MaxCalls <= 0 {
		cfg.Warm.MaxCalls = DefaultMaxCalls
	}
	p := &Pool{cfg: cfg, log: cfg.Logger.With("warm", cfg.Warm.Entry), all: map[*slot]bool{}, state: Starting,
		settled: make(chan struct{}), changed: make(chan struct{})}
	p.life, p.stop = context.WithCancel(context.Background())
	p.verdictKey = key
	if !Supported {
		p.off(errUnsupported.Error())
		return p
	}
	if cfg.Runner == nil || !cfg.Runner.CanAdopt() {
		p.off("this platform cannot place a forked call in its tree")
		return p
	}
	p.launching = true
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
	p.offLocked(reason)
}

func (p *Pool) offLocked(reason string) {
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
	p.keepVerdict(Verdict{State: Off, Reason: reason, Files: files, Stamp: fingerprint(files)})
}

// keepVerdict writes v where Config.VerdictDir says; under p.mu, so that
// verdicts are written in the order they were reached.
func (p *Pool) keepVerdict(v Verdict) {
	if p.verdictKey == "" || p.closed {
		return
	}
	v.At = time.Now().UTC().Truncate(time.Second)
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

// Run runs spec warm when a template is ready, otherwise cold. A warm start
// that fails before the program ran is logged and the call starts cold: a
// call never fails because warm start did.
func (p *Pool) Run(ctx context.Context, spec callruntime.Spec) (callruntime.Result, error) {
	s := p.acquire()
	if s == nil {
		return p.cfg.Runner.Run(ctx, spec)
	}
	defer p.release(s)
	warm := spec
	f := &forker{t: s.t, argv: spec.Args, dir: spec.Dir, env: spec.Env}
	warm.Adopt = f
	res, err := p.cfg.Runner.Run(ctx, warm)
	if f.bornInCgroup {
		p.mu.Lock()
		p.status.BornInCgroup++
		p.mu.Unlock()
	}
	var ae *callruntime.AdoptError
	if !errors.As(err, &ae) {
		return res, err
	}
	p.log.Warn("warm start failed; this call starts cold", "error", err)
	if errors.Is(err, errThreads) {
		p.off(err.Error())
	}
	return p.cfg.Runner.Run(ctx, spec)
}

// forker is the Adopter of one call: its template and its request.
type forker struct {
	t    *template
	argv []string
	dir  string
	env  []string
	// bornInCgroup: the child was forked straight into its cgroup.
	bornInCgroup bool
}

func (f *forker) Fork(stdin, stdout, stderr, cgroup *os.File) (callruntime.Adoptee, error) {
	a, born, err := f.t.fork(f.argv, f.dir, f.env, stdin, stdout, stderr, cgroup)
	f.bornInCgroup = born
	return a, err
}

// acquire is the template a call may fork from, or nil (start cold). It
// replaces a template whose CLI changed on disk, and starts a replacement
// for one that has served its calls.
func (p *Pool) acquire() *slot {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.cur
	if s == nil || p.state != On || p.closed || !s.t.alive() {
		return nil
	}
	if now := time.Now(); now.Sub(p.lastCheck) >= checkEvery {
		p.lastCheck = now
		if stamp := fingerprint(s.t.ready.Files); stamp != s.stamp {
			p.log.Info("the CLI's files changed: replacing the warm template; calls start cold until it is ready")
			p.retireLocked(s)
			p.cur = nil
			p.launchLocked("the CLI's files changed")
			return nil
		}
	}
	if s.calls >= p.cfg.Warm.MaxCalls {
		// The template goes on serving until its replacement is ready.
		p.launchLocked("it served " + strconv.Itoa(s.calls) + " calls")
	}
	s.calls++
	s.inflight++
	p.status.Calls++
	return s
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
	go p.launch(why)
}

// launch starts a template, verifies it and puts it in service.
func (p *Pool) launch(why string) {
	began := time.Now()
	p.log.Info("starting a warm template", "why", why)
	cold := make(chan []verifyRun, 1)
	go func() { cold <- p.verifyRuns(p.life, nil) }()
	t, err := startTemplate(p.life, p.cfg.Runner, &p.cfg, p.log)
	if err != nil {
		<-cold
		p.endLaunch()
		p.died(nil, fmt.Sprintf("the template did not start: %v", err))
		return
	}
	s := &slot{t: t, stamp: fingerprint(t.ready.Files)}
	p.mu.Lock()
	p.all[s] = true
	p.status.Templates++
	p.lastFiles = t.ready.Files
	p.mu.Unlock()
	if t.ready.Threads > 1 {
		<-cold
		p.endLaunch()
		p.off(fmt.Sprintf("the template has %d threads after importing %s: forking it would be unsafe", t.ready.Threads, p.cfg.Warm.Entry))
		p.closeSlot(s)
		return
	}
	t.onThreads = func(n int) {
		p.off(fmt.Sprintf("the template had %d threads when it forked: forking it would be unsafe", n))
	}
	coldRuns := <-cold
	warmRuns := p.verifyRuns(p.life, t)
	if why := compareRuns(coldRuns, warmRuns); why != "" {
		p.endLaunch()
		p.off(why)
		p.closeSlot(s)
		return
	}
	p.mu.Lock()
	p.launching = false
	if p.closed || p.state == Off {
		p.mu.Unlock()
		p.closeSlot(s)
		return
	}
	if old := p.cur; old != nil {
		p.retireLocked(old)
	}
	p.cur = s
	p.state, p.reason = On, ""
	p.status.ReadyMS = time.Since(began).Milliseconds()
	p.status.ImportMS = t.ready.ImportMS
	p.status.Commands = t.ready.Commands
	p.status.Verified = len(warmRuns)
	p.settle()
	p.keepVerdict(Verdict{State: On, Verified: len(warmRuns), Files: t.ready.Files, Stamp: s.stamp})
	p.mu.Unlock()
	p.log.Info("warm template ready", "pid", t.pid, "ready_ms", time.Since(began).Milliseconds(), "import_ms", t.ready.ImportMS,
		"commands", t.ready.Commands, "runs", t.ready.Runs, "verified", len(warmRuns), "rss_mib", rssOf(t.pid)>>20)
	go func() {
		<-t.dead
		p.mu.Lock()
		retired := s.retired
		p.mu.Unlock()
		if !retired {
			p.died(s, "the template exited: "+exitText(t.cmd, t.dead))
		}
	}()
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
		p.offLocked(fmt.Sprintf("the template failed %d times in %v; the last time: %s", recent, deathWindow, why))
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

// verifyRun is one verify call's result.
type verifyRun struct {
	argv []string
	res  callruntime.Result
	err  error
}

// verifyRuns runs the verify calls, from t (warm) or cold when t is nil.
func (p *Pool) verifyRuns(ctx context.Context, t *template) []verifyRun {
	var out []verifyRun
	for _, argv := range p.cfg.Warm.Verify {
		args := append(append([]string{}, p.cfg.Args...), argv...)
		spec := callruntime.Spec{Path: p.cfg.Script, Args: args, Env: p.cfg.Env, Dir: p.cfg.Dir,
			Timeout: p.cfg.VerifyTimeout, MaxStdout: 1 << 20, MaxStderr: 64 << 10}
		if t != nil {
			spec.Adopt = &forker{t: t, argv: args, dir: p.cfg.Dir, env: p.cfg.Env}
		}
		res, err := p.cfg.Runner.Run(ctx, spec)
		out = append(out, verifyRun{argv: argv, res: res, err: err})
	}
	return out
}

// compareRuns says why warm and cold verify runs differ, or "".
func compareRuns(cold, warm []verifyRun) string {
	for i := range cold {
		c, w := cold[i], warm[i]
		name := "verify " + strings.Join(c.argv, " ")
		switch {
		case c.err != nil:
			return fmt.Sprintf("%s: the cold run did not start: %v", name, c.err)
		case w.err != nil:
			return fmt.Sprintf("%s: the warm run did not start: %v", name, w.err)
		case c.res.Outcome != callruntime.Exited || w.res.Outcome != callruntime.Exited:
			return fmt.Sprintf("%s: cold %s, warm %s", name, c.res.Outcome, w.res.Outcome)
		case c.res.ExitCode != w.res.ExitCode:
			return fmt.Sprintf("%s: exit %d cold, %d warm", name, c.res.ExitCode, w.res.ExitCode)
		case c.res.Stdout.Omitted() > 0 || w.res.Stdout.Omitted() > 0:
			return fmt.Sprintf("%s: stdout over 1 MiB cannot be compared", name)
		}
		cb, wb := c.res.Stdout.Head, w.res.Stdout.Head
		if !bytes.Equal(cb, wb) {
			at := 0
			for at < len(cb) && at < len(wb) && cb[at] == wb[at] {
				at++
			}
			return fmt.Sprintf("%s: stdout differs between cold and warm (%d and %d bytes, first difference at byte %d)", name, len(cb), len(wb), at)
		}
	}
	return ""
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
var errUnsupported = errors.New("warm start needs fork, which this platform does not have")

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
	p := &Pool{cfg: cfg, log: cfg.Logger.With("warm", cfg.Warm.Entry), all: map[*slot]bool{}, state: Starting,
		settled: make(chan struct{}), changed: make(chan struct{}), inapplicable: inapplicable}
	p.life, p.stop = context.WithCancel(context.Background())
	p.off(reason)
	return p
}
