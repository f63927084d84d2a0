package callruntime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// Options configure a [Runner].
type Options struct {
	// Disable turns mechanisms off even where the machine allows them, to
	// force a fallback: tests use it to exercise every path on one machine,
	// operators on hosts where a mechanism misbehaves.
	Disable []Mechanism
	// StateDir is where a Runner that walks the process table (Linux
	// without a writable cgroup v2, macOS) records its calls' members, so
	// that the next Runner to start kills what a dead server's calls left
	// (see [Ledger]). It must be private to the user: a directory others
	// can write is refused. If empty, the user's own, the same whichever
	// host started the server: ~/Library/Caches/aeat-mcp on macOS,
	// ~/.local/state/aeat-mcp elsewhere; "aeat-mcp-UID" under
	// os.TempDir() when there is no home directory to use.
	StateDir string
	// Deferred makes NewRunner return at once, leaving the probing and the
	// set-up of the mechanisms — the lifeline process, the ledger and the
	// sweep of what dead servers left, the cgroup home, the host's job —
	// to [Runner.Start], or to whatever needs them first (Run,
	// Mechanisms, Close, ...), which waits for them: a server starts them
	// once the host is past initialize, and no call starts before they are
	// in place. If false, NewRunner sets them up before it returns.
	Deferred bool
}

// platformConfig is what NewRunner passes to the platform.
type platformConfig struct {
	disabled map[Mechanism]bool
	stateDir string
}

// A Runner runs calls under the mechanisms it probed when it was made (with
// [Options.Deferred], when it was started). It is safe for concurrent use.
// A server makes one at start-up and closes it on the way out.
type Runner struct {
	cfg platformConfig
	// setUp begins the platform's set-up once; ready is closed when it is
	// done (plat set, or platErr).
	setUp   sync.Once
	ready   chan struct{}
	plat    platform
	platErr error

	mu      sync.Mutex
	running map[*call]struct{}
	closed  bool
	calls   sync.WaitGroup // Runs in flight; Add only while !closed
}

// call is one Run in flight, as Close sees it.
type call struct{ stop context.CancelCauseFunc }

// ErrRunnerClosed is returned by Run after [Runner.Close], and is the cause
// given to the calls Close stops.
var ErrRunnerClosed = errors.New("callruntime: runner closed")

// NewRunner probes the machine's supervision mechanisms and returns a Runner
// that uses the best of them (with [Options.Deferred], once they are set
// up). It fails only when the platform offers no way to run a supervised
// process at all.
func NewRunner(opts Options) (*Runner, error) {
	disabled := map[Mechanism]bool{}
	for _, m := range opts.Disable {
		disabled[m] = true
	}
	r := &Runner{cfg: platformConfig{disabled: disabled, stateDir: opts.StateDir}, ready: make(chan struct{}),
		running: map[*call]struct{}{}}
	if opts.Deferred {
		return r, nil
	}
	r.setUp.Do(r.setUpPlatform)
	if r.platErr != nil {
		return nil, r.platErr
	}
	return r, nil
}

// Start begins setting up the mechanisms of a Runner made with
// [Options.Deferred], on a goroutine of its own, and returns; it does
// nothing once they are set up or being set up.
func (r *Runner) Start() { r.setUp.Do(func() { go r.setUpPlatform() }) }

func (r *Runner) setUpPlatform() {
	defer close(r.ready)
	r.plat, r.platErr = newPlatform(r.cfg)
}

// platform is the Runner's platform, once set up (started here if nobody
// started it).
func (r *Runner) platform() (platform, error) {
	r.Start()
	<-r.ready
	return r.plat, r.platErr
}

// Mechanisms reports what the Runner probed and what it uses. The first call
// may probe further (Linux: starts one process in a new PID namespace).
func (r *Runner) Mechanisms() Report {
	p, err := r.platform()
	if err != nil {
		return Report{Platform: runtime.GOOS, Limits: []string{err.Error()}}
	}
	return p.report()
}

// Tree names how this Runner tracks a call's tree; see [Report.Tree].
func (r *Runner) Tree() string {
	p, err := r.platform()
	if err != nil {
		return ""
	}
	return p.treeName()
}

// Close stops every call still running (their trees are stopped as on
// cancellation, [Result.End] is Cancelled), waits for them, and releases
// what the Runner holds (its lifeline process, its cgroup). Run fails after
// Close.
func (r *Runner) Close() error {
	r.mu.Lock()
	r.closed = true
	for c := range r.running {
		c.stop(ErrRunnerClosed)
	}
	r.mu.Unlock()
	r.calls.Wait()
	// A Runner whose mechanisms were never set up holds nothing, and never
	// will.
	r.setUp.Do(func() {
		r.platErr = ErrRunnerClosed
		close(r.ready)
	})
	<-r.ready
	if r.plat == nil {
		return nil
	}
	return r.plat.close()
}

// Run starts spec's program and supervises it until it and every process it
// started are gone. It returns an error only when the program could not be
// started (a [*StartError]) or the Runner is closed; every other ending —
// non-zero exit, crash, timeout, cancellation, memory ceiling — is a
// [Result].
//
// When ctx ends or the timeout expires, the whole tree gets SIGTERM, then
// SIGKILL after the grace period. When the program exits by itself, whatever
// it left behind (a daemon, a browser) is stopped the same way before Run
// returns.
func (r *Runner) Run(ctx context.Context, spec Spec) (Result, error) {
	begin := time.Now()
	if err := checkProgram(runtime.GOOS, spec.Path); err != nil {
		return Result{}, err
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	if spec.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, spec.Timeout, ErrTimeout)
		defer cancel()
	}
	c := &call{stop: stop}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return Result{}, ErrRunnerClosed
	}
	r.running[c] = struct{}{}
	r.calls.Add(1)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.running, c)
		r.mu.Unlock()
		r.calls.Done()
	}()

	if ctx.Err() != nil {
		// Never start what is already over.
		return Result{End: endOf(context.Cause(ctx)), ExitCode: -1, TreeDead: true, Duration: time.Since(begin)}, nil
	}
	p, err := r.platform()
	if err != nil {
		return Result{}, err
	}
	s := &supervision{spec: spec, begin: begin, secrets: RedactSecrets(spec.Secrets)}
	return s.run(ctx, p)
}

// checkProgram turns the usual reasons a program cannot start into typed
// errors before anything is spawned — on every start, not only when the
// CLI was resolved: a .cmd put where an .exe was would otherwise run
// through cmd.exe ([CheckRunnable]).
func checkProgram(goos, path string) error {
	if !filepath.IsAbs(path) {
		return &StartError{Path: path, Err: fmt.Errorf("%w: path is not absolute", ErrNotFound)}
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &StartError{Path: path, Err: ErrNotFound}
	case err != nil:
		return &StartError{Path: path, Err: err}
	case fi.IsDir():
		return &StartError{Path: path, Err: fmt.Errorf("%w: is a directory", ErrNotExecutable)}
	case !isExecutable(fi):
		return &StartError{Path: path, Err: ErrNotExecutable}
	}
	if err := CheckRunnable(goos, path); err != nil {
		return &StartError{Path: path, Err: fmt.Errorf("%w: %w", ErrNotExecutable, err)}
	}
	return nil
}

// A GraceCap, given as the cause that ends a call's ctx
// (context.CancelCauseFunc), bounds the kill grace of the calls it stops:
// a server that stops on a signal must be done before the host's own
// SIGKILL follows (hosts send SIGTERM, then SIGKILL 2 s later). errors.Is
// sees Cause through it.
type GraceCap struct {
	Cause error
	// Max is the longest grace a call it stops is given. Zero kills at
	// once.
	Max time.Duration
}

func (g *GraceCap) Error() string { return g.Cause.Error() }
func (g *GraceCap) Unwrap() error { return g.Cause }

// capGrace is grace, bounded by a GraceCap in cause's chain.
func capGrace(grace time.Duration, cause error) time.Duration {
	var gc *GraceCap
	if errors.As(cause, &gc) && gc.Max < grace {
		return max(gc.Max, 0)
	}
	return grace
}

func endOf(cause error) End {
	switch {
	case errors.Is(cause, ErrTimeout), errors.Is(cause, context.DeadlineExceeded):
		return TimedOut
	case errors.Is(cause, ErrResourceExceeded):
		return ResourceExceeded
	default:
		return Cancelled
	}
}

var (
	devNullOnce sync.Once
	devNull     *os.File
)

// nullDevice is the null device, opened once for every call's stdin
// (exec.Cmd opens and closes it per start when Stdin is nil). Nil, which
// makes exec open it, if it cannot be opened.
func nullDevice() io.Reader {
	devNullOnce.Do(func() {
		if f, err := os.Open(os.DevNull); err == nil {
			devNull = f
		}
	})
	if devNull == nil {
		return nil
	}
	return devNull
}

// supervision is the state of one Run. [supervision.run] is its four steps,
// as x/tools' gocommand runs `go`: start the program in its tree, watch
// until it ends or must be ended, stop what is left of the tree, collect
// the result. The fields below the first three are set by start.
type supervision struct {
	spec    Spec
	begin   time.Time
	secrets *SecretRedactor // of spec.Secrets; nil when none

	t          tree
	outR, errR *os.File // our ends of the call's stdout and stderr
	// exited is closed when the leader has exited (not yet reaped: its
	// pid, and group, stay the call's while the tree is stopped); closing
	// reap lets it be reaped, and reaped then gives how it ended.
	exited, reap chan struct{}
	reaped       chan ExitStatus
	// stopFollow ends the walks that follow the call (a no-op where the
	// tree is not found by walking).
	stopFollow     func()
	readers        sync.WaitGroup // the two pipe readers
	stdout, stderr *headTail
	disp           *dispatcher // of spec.OnLine; nil when none
}

// readersBackstop bounds how long Run waits for the pipes to close once the
// tree is gone. Only a process outside the tree holding a pipe (it was handed
// the descriptor some other way) can make it matter.
const readersBackstop = 2 * time.Second

func (s *supervision) run(ctx context.Context, p platform) (Result, error) {
	outW, errW, err := s.open(p)
	if err != nil {
		return Result{}, err
	}
	defer s.t.release()
	if err := s.start(outW, errW); err != nil {
		return Result{}, err
	}
	peak, cause := s.watch(ctx)
	dead, state, cause := s.stop(cause)
	return s.collect(cause, dead, state, peak), nil
}

// open makes the call's tree and its two pipes; it returns the pipes'
// write ends, for the program. On failure nothing is left open.
func (s *supervision) open(p platform) (outW, errW *os.File, err error) {
	outR, outW, err := newPipe()
	if err != nil {
		return nil, nil, fmt.Errorf("creating stdout pipe: %w", err)
	}
	errR, errW, err := newPipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, nil, fmt.Errorf("creating stderr pipe: %w", err)
	}
	t := s.spec.Berth.take(&s.spec)
	if t == nil {
		t, err = p.newTree(&s.spec)
	}
	if err != nil {
		for _, f := range []*os.File{outR, outW, errR, errW} {
			f.Close()
		}
		return nil, nil, err
	}
	s.t, s.outR, s.errR = t, outR, errR
	return outW, errW, nil
}

// start starts the program in the tree, writing to outW and errW (closed
// here: the program holds its own copies), then what follows it while it
// runs: the walks, the leader's waiter and the pipe readers. When the
// program cannot start, the read ends are closed too and the error is
// typed (*AdoptError or *StartError).
func (s *supervision) start(outW, errW *os.File) error {
	lead, err := s.launch(outW, errW)
	outW.Close()
	errW.Close()
	if err != nil {
		s.outR.Close()
		s.errR.Close()
		var ae *AdoptError
		if errors.As(err, &ae) {
			return err
		}
		return &StartError{Path: s.spec.Path, Err: err}
	}
	s.stopFollow = func() {}
	if f, ok := s.t.(follower); ok {
		// Walks follow the call while it runs where the tree is found by
		// walking (see followWalks); they end before the tree is stopped.
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); f.follow(ctx) }()
		s.stopFollow = func() { cancel(); <-done }
	}
	s.exited, s.reap, s.reaped = make(chan struct{}), make(chan struct{}), make(chan ExitStatus, 1)
	go func() {
		lead.waitExit(s.t)
		close(s.exited)
		<-s.reap
		s.reaped <- lead.reap()
	}()
	if s.spec.OnLine != nil {
		s.disp = newDispatcher(s.spec.OnLine)
	}
	s.stdout, s.stderr = newHeadTail(s.spec.MaxStdout), newHeadTail(s.spec.MaxStderr)
	s.readers.Add(2)
	go s.read(&s.readers, s.outR, Stdout, s.stdout, s.disp)
	go s.read(&s.readers, s.errR, Stderr, s.stderr, s.disp)
	return nil
}

// launch forks the program on the spawner thread (spawn_linux.go: its
// Pdeathsig must not fire when a goroutine's thread exits), or has
// spec.Adopt start it (adopt.go). The leader goroutine then owns the child
// until it is reaped.
func (s *supervision) launch(outW, errW *os.File) (leader, error) {
	var lead leader
	var err error
	if s.spec.Adopt != nil {
		lead.adoptee, err = adopt(s.t, &s.spec, outW, errW)
		return lead, err
	}
	lead.cmd, err = spawn(func() (*exec.Cmd, error) {
		return s.t.start(func() *exec.Cmd { return s.command(outW, errW) })
	})
	if h, ok := s.t.(holder); ok && err == nil {
		err = h.letGo(lead.cmd)
	}
	return lead, err
}

// command is the program as exec starts it: never through a shell, with
// exactly spec.Env, stdin from spec.Stdin or the null device.
func (s *supervision) command(outW, errW *os.File) *exec.Cmd {
	spec := &s.spec
	env := spec.Env
	if env == nil {
		env = []string{} // nil would inherit the server's environment
	}
	cmd := &exec.Cmd{
		Path:   spec.Path,
		Args:   append([]string{spec.Path}, spec.Args...),
		Env:    env,
		Dir:    spec.Dir,
		Stdin:  nullDevice(), // our stdin is the JSON-RPC pipe
		Stdout: outW,
		Stderr: errW,
	}
	if spec.Stdin != nil {
		// exec writes it from a goroutine of its own and closes the
		// pipe; Wait waits for that goroutine, which a CLI that never
		// reads could hold up once the pipe is full: the tree is dead
		// by then, but a descriptor passed outside it is bounded too.
		cmd.Stdin = bytes.NewReader(spec.Stdin)
		cmd.WaitDelay = readersBackstop
	}
	return cmd
}

// watch waits until the leader exits (cause nil), ctx ends (its cause) or
// the tree goes over its memory limit (ErrResourceExceeded), watching the
// tree's memory where the kernel does not; peak is the most it saw. The
// walks that follow the call have ended when it returns.
func (s *supervision) watch(ctx context.Context) (peak int64, cause error) {
	memCtx, stopMem := context.WithCancel(context.Background())
	var memDone chan struct{}
	overLimit := make(chan struct{})
	if s.spec.MemoryLimit > 0 && !s.t.kernelMemoryLimit() {
		memDone = make(chan struct{})
		go func() {
			defer close(memDone)
			peak = watchMemory(memCtx, s.t, s.spec.MemoryLimit, overLimit)
		}()
	}
	select {
	case <-s.exited:
	case <-ctx.Done():
		cause = context.Cause(ctx)
	case <-overLimit:
		cause = ErrResourceExceeded
	case <-s.t.exceeded():
		cause = ErrResourceExceeded
	}
	s.stopFollow()
	stopMem()
	if memDone != nil {
		<-memDone
	}
	return peak, cause
}

// stop ends the tree for cause — nil when the program exited by itself,
// and anything it left running is stopped as politely as on a timeout —
// then reaps the leader. dead is whether every member was seen gone; the
// cause returned is cause, or ErrResourceExceeded when the program exited
// because the kernel killed part of the tree for its memory.
func (s *supervision) stop(cause error) (dead bool, state ExitStatus, _ error) {
	grace := s.spec.KillGrace
	if grace <= 0 {
		grace = DefaultKillGrace
	}
	switch {
	case cause == nil:
		dead = s.t.stop(grace, true)
	case errors.Is(cause, ErrResourceExceeded):
		dead = s.t.stop(0, false)
	default:
		dead = s.t.stop(capGrace(grace, cause), false)
	}
	<-s.exited
	if cause == nil && s.t.oomKilled() {
		cause = ErrResourceExceeded
	}
	close(s.reap)
	state = <-s.reaped
	if dead {
		dead = s.t.settle()
	}
	return dead, state, cause
}

// collect waits for the pipe readers (see readersBackstop) and makes the
// call's Result. A tree seen dead whose pipes someone outside it still
// held is not confirmed dead.
func (s *supervision) collect(cause error, dead bool, state ExitStatus, peak int64) Result {
	if !s.drain() {
		dead = false
	}
	res := Result{
		ExitCode: -1,
		Stdout:   s.stdout.output(),
		Stderr:   s.stderr.output(),
		TreeDead: dead && s.t.confirms(),
		Tree:     s.t.name(),
		PeakRSS:  peak,
		Signal:   state.Signal,
	}
	switch {
	case cause != nil:
		res.End = endOf(cause)
	case res.Signal != "":
		res.End = Signaled
	default:
		res.End = Exited
		res.ExitCode = state.Code
	}
	res.Duration = time.Since(s.begin)
	return res
}

// drain waits for both readers to reach the end of their pipes, up to
// readersBackstop; then it closes our ends, which stops readers still held
// up, and waits for them. It reports whether the pipes closed by themselves.
func (s *supervision) drain() bool {
	done := make(chan struct{})
	go func() { s.readers.Wait(); close(done) }()
	backstop := time.NewTimer(readersBackstop)
	defer backstop.Stop()
	closed := true
	select {
	case <-done:
	case <-backstop.C:
		// Something outside the tree still holds a pipe: closing our ends
		// stops the readers.
		closed = false
	}
	s.outR.Close()
	s.errR.Close()
	<-done
	if s.disp != nil {
		s.disp.close()
	}
	return closed
}

// read drains one pipe through the stream's filter into its capture and its
// line splitter. It is the only reader of that pipe, so a full stderr can
// never stall stdout or the other way round.
func (s *supervision) read(wg *sync.WaitGroup, r io.Reader, stream Stream, capture *headTail, disp *dispatcher) {
	defer wg.Done()
	var chain []Filter
	if s.secrets != nil {
		chain = append(chain, s.secrets.Filter())
	}
	if s.spec.Filter != nil {
		chain = append(chain, s.spec.Filter())
	}
	f := chainFilters(chain)
	var lines *lineSplitter
	if disp != nil {
		lines = &lineSplitter{stream: stream, d: disp}
	}
	var spill io.Writer
	if s.spec.Spill != nil {
		spill = s.spec.Spill(stream)
	}
	emit := func(p []byte) {
		if len(p) == 0 {
			return
		}
		capture.Write(p)
		if spill != nil {
			_, _ = spill.Write(p) // the spill's errors are its own (Spec.Spill)
		}
		if lines != nil {
			lines.Write(p)
		}
	}
	bp := readBufs.Get().(*[]byte)
	defer readBufs.Put(bp)
	buf := *bp
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if f != nil {
				emit(f.Write(buf[:n]))
			} else {
				emit(buf[:n])
			}
		}
		if err != nil {
			break
		}
	}
	if f != nil {
		emit(f.Flush())
	}
	if lines != nil {
		lines.Flush()
	}
}

// readBufs recycles the pipe readers' buffers: two per call would otherwise
// be garbage for every call.
var readBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// watchMemory samples the tree's RSS until ctx ends, closing over when it
// goes past limit. It returns the peak it saw.
func watchMemory(ctx context.Context, t tree, limit int64, over chan<- struct{}) int64 {
	tick := time.NewTicker(memorySampleInterval)
	defer tick.Stop()
	var peak int64
	for {
		rss := t.rss()
		peak = max(peak, rss)
		if rss > limit {
			close(over)
			return peak
		}
		select {
		case <-ctx.Done():
			return peak
		case <-tick.C:
		}
	}
}

// platform is what each operating system provides: trees for calls, and a
// report of its mechanisms.
type platform interface {
	newTree(spec *Spec) (tree, error)
	report() Report
	treeName() string
	close() error
}

// A follower is a tree that must be walked while the program runs
// (see followWalks); follow returns when ctx ends.
type follower interface {
	follow(ctx context.Context)
}

// A holder is a tree whose start may leave the program held before it
// runs (Linux where clone3 is refused: held_linux.go); letGo, called once
// the start returned and off the spawner thread, places it in the tree and
// lets it run, or reaps it and says why it could not.
type holder interface {
	letGo(cmd *exec.Cmd) error
}

// tree tracks every process one call started.
type tree interface {
	// start starts the command built by newCmd inside the tree. It may
	// build a second command if the first way of starting was refused.
	start(newCmd func() *exec.Cmd) (*exec.Cmd, error)
	// waitExit blocks until the leader has exited, without reaping it
	// where the platform allows, so its pid (and process group) cannot be
	// reused while the rest of the tree is stopped.
	waitExit(cmd *exec.Cmd)
	// stop ends every process of the tree: a polite request, up to grace
	// for them to go, then a kill. With leftovers set, the leader has
	// already exited and only what it left behind remains. It reports
	// whether the tree was seen empty.
	stop(grace time.Duration, leftovers bool) bool
	// rss is the resident memory of the whole tree, in bytes.
	rss() int64
	// kernelMemoryLimit reports whether the kernel enforces
	// Spec.MemoryLimit for this tree (no watchdog needed).
	kernelMemoryLimit() bool
	// oomKilled reports whether the kernel killed part of the tree for
	// going over its memory limit.
	oomKilled() bool
	// exceeded is closed when the kernel reports the tree over its memory
	// limit while it runs (Windows: a Job Object notification); nil where
	// the kernel kills instead, or nothing watches.
	exceeded() <-chan struct{}
	// confirms reports whether this kind of tree can see every member, so
	// that an empty tree means a dead one.
	confirms() bool
	// settle runs once the tree was stopped and the leader reaped, and
	// reports whether every member is gone: reaped, not merely a zombie.
	settle() bool
	name() string
	release()
}
