//go:build unix

package warm

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"golang.org/x/sys/unix"
)

// Supported reports whether warm start can run on this platform.
const Supported = true

// template is one running template process: an [callruntime.Adopter].
type template struct {
	cmd    *exec.Cmd
	forget func()
	ctrl   *net.UnixConn
	sendMu sync.Mutex // one fork request at a time on ctrl
	pid    int
	ready  readyMsg
	dead   chan struct{} // closed when the process has exited
	log    *slog.Logger

	// onThreads is called when the template refused a fork because it had
	// more than one thread.
	onThreads func(n int)

	killMu sync.Mutex
	killed string // why the server killed it; "" if it did not

	// answerWait is the Pool's, when the template started.
	answerWait time.Duration

	// runner makes the berths its spares are forked into (berth_unix.go),
	// where spare says it keeps one.
	runner *callruntime.Runner
	spare  bool
	berths bool               // berthsOn when it started
	berth  *callruntime.Berth // the one sent last; under sendMu
}

// startTemplate starts the template under r's guard and waits until it has
// imported the CLI (or failed to, or ctx ended). answerWait bounds its
// answers from then on.
//
// Until it is ready it is warm start's own preparation, held while a call
// runs (y.starting).
func startTemplate(ctx context.Context, r *callruntime.Runner, cfg *Config, log *slog.Logger, answerWait time.Duration, y *yielding) (*template, error) {
	fds, err := socketpair()
	if err != nil {
		return nil, fmt.Errorf("creating the control socket: %w", err)
	}
	ours := os.NewFile(uintptr(fds[0]), "warm-ctrl")
	theirs := os.NewFile(uintptr(fds[1]), "warm-ctrl-template")
	conn, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		theirs.Close()
		return nil, fmt.Errorf("creating the control socket: %w", err)
	}
	ctrl := conn.(*net.UnixConn)
	env, unset := templateEnv(cfg.GOOS, cfg.Env)
	var spare *spareConfig
	if sparesOn {
		spare = spareFor(cfg.GOOS)
	}
	conf, _ := json.Marshal(templateConfig{Script: cfg.Script, Entry: cfg.Warm.Entry, Preload: cfg.Warm.Preload,
		Modules: cfg.Warm.PreloadList(), Reset: cfg.Warm.Reset, Warmup: cfg.Warm.Warmup,
		OS: cfg.GOOS, Canary: canarySteps(cfg.GOOS), CanarySeconds: cfg.CanaryWait.Seconds(), Unset: unset,
		Spare: spare})
	logR, logW, err := os.Pipe()
	if err != nil {
		ctrl.Close()
		return nil, err
	}
	cmd := &exec.Cmd{
		Path:       cfg.Python,
		Args:       []string{cfg.Python, "-c", templateSource, string(conf)},
		Env:        env,
		Dir:        cfg.Dir,
		Stdout:     logW,
		Stderr:     logW,
		ExtraFiles: []*os.File{theirs},
	}
	forget, err := r.StartHelper(cmd)
	logW.Close()
	// The template holds its end now: ours closed, a template that dies
	// before it is ready ends the read of its ready line (EOF) instead of
	// leaving it waiting on a socket this process kept open.
	theirs.Close()
	if err != nil {
		logR.Close()
		ctrl.Close()
		return nil, fmt.Errorf("starting %s: %w", cfg.Python, err)
	}
	t := &template{cmd: cmd, forget: forget, ctrl: ctrl, pid: cmd.Process.Pid, dead: make(chan struct{}), log: log, answerWait: answerWait,
		runner: r, spare: spare != nil, berths: berthsOn}
	// Held while a call runs, until its ready line; continued (done)
	// before it is closed.
	done := y.starting(t.pid)
	go t.logOutput(logR)
	go func() {
		_ = cmd.Wait()
		forget()
		close(t.dead)
	}()
	lines := bufio.NewReader(ctrl)
	got := make(chan error, 1)
	go func() {
		line, err := lines.ReadBytes('\n')
		if err != nil {
			got <- fmt.Errorf("the template exited before it was ready (%v)", exitText(cmd, t.dead))
			return
		}
		if err := json.Unmarshal(line, &t.ready); err != nil {
			got <- fmt.Errorf("the template said %q", line)
			return
		}
		if t.ready.Error != "" {
			got <- fmt.Errorf("importing %s: %s", cfg.Warm.Entry, t.ready.Error)
			if t.ready.Trace != "" {
				log.Warn("warm template could not import the CLI", "trace", t.ready.Trace)
			}
			return
		}
		got <- nil
	}()
	select {
	case err = <-got:
	case <-t.dead:
		// Its ready line may have come just before it died.
		select {
		case err = <-got:
		default:
			err = fmt.Errorf("the template exited before it was ready (%v)", exitText(cmd, t.dead))
		}
	case <-ctx.Done():
		err = context.Cause(ctx)
	}
	done()
	if err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// exitText says how the template ended, waiting briefly for it to be
// reaped.
func exitText(cmd *exec.Cmd, dead <-chan struct{}) string {
	select {
	case <-dead:
	case <-time.After(time.Second):
		return "still running"
	}
	if cmd.ProcessState == nil {
		return "unknown"
	}
	return cmd.ProcessState.String()
}

// logOutput logs what the template (the CLI at import, the interpreter)
// writes, a bounded line at a time.
func (t *template) logOutput(r io.ReadCloser) {
	defer r.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 64<<10)
	for sc.Scan() {
		line := sc.Text()
		if len(line) > 512 {
			line = line[:512] + "…"
		}
		t.log.Debug("warm template output", "pid", t.pid, "line", line)
	}
	_, _ = io.Copy(io.Discard, r)
}

// holdGroup stops (SIGSTOP) or continues (SIGCONT) the process group pgid:
// a template still starting, while a call runs (yield.go).
func holdGroup(pgid int, stop bool) {
	sig := syscall.SIGCONT
	if stop {
		sig = syscall.SIGSTOP
	}
	_ = syscall.Kill(-pgid, sig)
}

// close ends the template: closing the control socket makes it kill its
// children and exit; SIGKILL after a grace; then it is waited for.
func (t *template) close() {
	t.ctrl.Close()
	select {
	case <-t.dead:
	case <-time.After(2 * time.Second):
		_ = syscall.Kill(-t.pid, syscall.SIGKILL)
		_ = t.cmd.Process.Kill()
		<-t.dead
	}
	// Its spare died with it (Pdeathsig): the berth is empty, or emptied.
	t.dropBerth()
}

// alive reports whether the template process still runs.
func (t *template) alive() bool {
	select {
	case <-t.dead:
		return false
	default:
		return true
	}
}

// errThreads is the cause of a fork the template refused because it had
// more than one thread.
var errThreads = errors.New("warm: the template has more than one thread")

// fork asks the template for a child with these descriptors, forked into
// cgroup when it is not nil; born says whether it was. The request brings
// the template the berth of its next spare (bs.replaced: the berth it
// replaced). It waits for the child no longer than ctx allows (the call's
// ceiling binds), and a template that does not answer within answerWait is
// killed.
func (t *template) fork(ctx context.Context, req forkRequest, stdin, stdout, stderr, cgroup *os.File, bs *berths) (*adoptee, error) {
	if !t.alive() {
		return nil, errors.New("the template is not running")
	}
	fds, err := socketpair()
	if err != nil {
		return nil, fmt.Errorf("creating the call socket: %w", err)
	}
	ours := os.NewFile(uintptr(fds[0]), "warm-call")
	conn, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		unix.Close(fds[1])
		return nil, err
	}
	call := conn.(*net.UnixConn)
	t.sendMu.Lock()
	rights := []int{fds[1]}
	berth := t.nextBerth(bs)
	if berth != nil {
		rights = append(rights, int(berth.Fd()))
	}
	_ = t.ctrl.SetWriteDeadline(time.Now().Add(t.answerWait))
	_, _, err = t.ctrl.WriteMsgUnix([]byte{msgFork}, unix.UnixRights(rights...), nil)
	t.sendMu.Unlock()
	unix.Close(fds[1])
	if berth != nil {
		berth.Close()
	}
	if err != nil {
		call.Close()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.kill(fmt.Sprintf("it took no fork request within %v", t.answerWait))
		}
		return nil, fmt.Errorf("asking the template to fork: %w", err)
	}
	if forkAsked != nil {
		forkAsked(t.pid)
	}
	goR, goW, err := os.Pipe()
	if err != nil {
		call.Close()
		return nil, err
	}
	passed := []int{int(stdin.Fd()), int(stdout.Fd()), int(stderr.Fd()), int(goR.Fd())}
	if cgroup != nil {
		passed = append(passed, int(cgroup.Fd()))
	}
	// A fresh socket's buffer takes this at once, whatever the template does.
	_, _, err = call.WriteMsgUnix([]byte{msgCall}, unix.UnixRights(passed...), nil)
	goR.Close()
	if err != nil {
		call.Close()
		goW.Close()
		return nil, fmt.Errorf("sending the call to the template: %w", err)
	}
	// The request goes to the child alone, on the go pipe (Start).
	a := newAdoptee(ctx, t, call, goW, goPipeFrame(req))
	go a.read()
	go a.expectAnswer()
	select {
	case err = <-a.started:
	case <-ctx.Done():
		err = fmt.Errorf("the call ended before the template forked it: %w", context.Cause(ctx))
	}
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// kill ends a template that stopped answering (SIGSTOP, a swap storm, a
// deadlock): its process group is killed, the Pool sees it die and starts
// another. Its children are not in that group (each leads a session of its
// own) and live on: each call's own supervision ends them.
func (t *template) kill(why string) {
	t.killMu.Lock()
	first := t.killed == ""
	if first {
		t.killed = why
	}
	t.killMu.Unlock()
	if !first || !t.alive() {
		return
	}
	t.log.Warn("the warm template stopped answering: killing it, and starting another", "pid", t.pid, "why", why)
	_ = syscall.Kill(-t.pid, syscall.SIGKILL)
	_ = t.cmd.Process.Kill()
}

// killedFor says why the server killed the template; "" if it did not.
func (t *template) killedFor() string {
	t.killMu.Lock()
	defer t.killMu.Unlock()
	return t.killed
}

// adoptee is one warm child (callruntime.Adoptee). The template reports it
// forked ("P") and how it ended ("X") on the call socket, but a template can
// die or stop answering while its child runs on: the child is followed by
// an exitWatch of its own, and a call never waits for its template past
// the call's own end.
type adoptee struct {
	ctx  context.Context // the call's: its ceiling bounds every wait here
	t    *template
	conn *net.UnixConn
	goW  *os.File
	req  []byte // the call's argv, directory and environment, for the child

	started  chan error    // the first answer: the child forked, or why not
	answered chan struct{} // closed at the template's first answer, or its death
	gotX     chan struct{} // closed once the template reported the exit ("X")
	eof      chan struct{} // closed when the call socket ends (the template died)
	exited   chan struct{} // closed once the child has exited
	done     chan struct{} // closed once Close is over

	// Set by read before started (pid, inCgroup) or gotX (x) is signalled.
	pid int
	// inCgroup: the child was born in the call's cgroup (clone3), so Run
	// did not have to move it there.
	inCgroup bool
	// spare: the child was the template's spare (moved into the cgroup).
	spare bool
	x     callruntime.ExitStatus
	usage childUsage // with x

	mu    sync.Mutex
	watch *exitWatch // nil until "P", or where there is none

	answerOnce, exitOnce, closeOnce sync.Once
	status                          callruntime.ExitStatus // Close's
	learnt                          learnt                 // how Close learnt it
}

// learnt is how a warm child's status was learnt.
type learnt int

const (
	// fromTemplate: its template reported it, as it always does.
	fromTemplate learnt = iota
	// fromServer: the template died while the child ran, and the server,
	// its new parent, read it.
	fromServer
	// unknown: neither could (the template died and the child went to
	// another parent, or the call ended first); SIGKILL is assumed.
	unknown
)

func newAdoptee(ctx context.Context, t *template, conn *net.UnixConn, goW *os.File, req []byte) *adoptee {
	return &adoptee{ctx: ctx, t: t, conn: conn, goW: goW, req: req, started: make(chan error, 1),
		answered: make(chan struct{}), gotX: make(chan struct{}), eof: make(chan struct{}),
		exited: make(chan struct{}), done: make(chan struct{})}
}

func (a *adoptee) answer()     { a.answerOnce.Do(func() { close(a.answered) }) }
func (a *adoptee) markExited() { a.exitOnce.Do(func() { close(a.exited) }) }

func (a *adoptee) exitWatch() *exitWatch {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.watch
}

// expectAnswer kills a template that does not answer a fork request within
// answerWait — whether or not the call still waits for it.
func (a *adoptee) expectAnswer() {
	timer := time.NewTimer(a.t.answerWait)
	defer timer.Stop()
	select {
	case <-a.answered:
	case <-a.t.dead:
	case <-timer.C:
		a.t.kill(fmt.Sprintf("it did not answer a fork request within %v", a.t.answerWait))
	}
}

// read follows the call socket: the child's "P" line, then the template's
// "X" line; EOF when the template dies.
func (a *adoptee) read() {
	defer close(a.eof)
	defer a.answer()
	sc := bufio.NewScanner(a.conn)
	sawP := false
	for sc.Scan() {
		m := parseCallMsg(sc.Text())
		switch m.kind {
		case lineForked:
			a.pid, a.inCgroup, a.spare = m.pid, m.inCgroup, m.spare
			sawP = true
			a.followExit()
			a.answer()
			a.started <- nil
		case lineExited:
			a.x = callruntime.ExitStatus{Code: m.code}
			if m.signaled {
				a.x = callruntime.ExitStatus{Code: -1, Signal: unix.SignalName(syscall.Signal(m.signum))}
			}
			a.usage = m.usage
			close(a.gotX)
			a.markExited()
			if !sawP {
				a.started <- errors.New("the forked child exited before it was ready")
			}
			return
		case lineThreads:
			if a.t.onThreads != nil {
				a.t.onThreads(m.threads)
			}
			a.started <- fmt.Errorf("%w (%d threads): forking it would be unsafe", errThreads, m.threads)
			return
		case lineRefused:
			a.started <- fmt.Errorf("the template refused the call: %s", m.why)
			return
		}
	}
	if !sawP {
		a.started <- errors.New("the template closed the call before forking (it died)")
	}
	if a.exitWatch() == nil {
		// Nothing else can tell when the child ends: take the template's
		// end for it (the call's tree is stopped next).
		a.markExited()
	}
}

// followExit watches the forked child's exit where the OS can (a pidfd,
// kqueue): the call sees it end even if its template dies first.
func (a *adoptee) followExit() {
	w := watchExit(a.pid)
	if w == nil {
		return
	}
	a.mu.Lock()
	a.watch = w
	a.mu.Unlock()
	go func() {
		select {
		case <-w.gone:
			a.markExited()
		case <-a.done:
		}
	}()
}

// used is what the child used, as the template reported it with its
// exit; zero when it did not (yet).
func (a *adoptee) used() childUsage {
	select {
	case <-a.gotX:
		u := a.usage
		u.Spare = u.Reported && a.spare
		return u
	default:
		return childUsage{}
	}
}

func (a *adoptee) Pid() int                { return a.pid }
func (a *adoptee) Parent() int             { return a.t.pid }
func (a *adoptee) Exited() <-chan struct{} { return a.exited }

// Start writes the call's request on the go pipe: the child reads it, and
// only then runs the CLI. A child that died meanwhile makes it EPIPE.
func (a *adoptee) Start() error {
	_, err := a.goW.Write(a.req)
	a.goW.Close()
	return err
}

// Close ends the adoption: the child is killed if it still runs (a child
// never started reads EOF on its go pipe and leaves), and its status is the
// template's report — or, when the template died, the server's own look
// (the child is then the server's, as the child subreaper). It waits for
// the template no longer than the call allows, nor than answerWait (then
// the template is killed); what is left is finished in the background.
func (a *adoptee) Close() callruntime.ExitStatus {
	a.closeOnce.Do(func() { a.status, a.learnt = a.end() })
	return a.status
}

// killed is the status assumed of a child whose own is not known.
var killed = callruntime.ExitStatus{Code: -1, Signal: "SIGKILL"}

func (a *adoptee) end() (callruntime.ExitStatus, learnt) {
	a.goW.Close()
	select {
	case <-a.gotX:
		return a.finish(nil)
	default:
	}
	if w := a.exitWatch(); w != nil {
		w.kill()
	}
	select {
	case <-a.eof:
		return a.finish(nil)
	default:
	}
	wait := time.NewTimer(a.t.answerWait)
	select {
	case <-a.gotX:
	case <-a.eof:
	case <-wait.C:
		a.t.kill(fmt.Sprintf("it did not report the end of a call within %v", a.t.answerWait))
	case <-a.ctx.Done():
		// The call is over: its status is not waited for.
		go a.finish(wait)
		return killed, unknown
	}
	return a.finish(wait)
}

// finish waits for the template's word on the child (bounded by wait, nil
// when it is in), then closes the call socket — the template reaps the
// child — and says how the child ended.
func (a *adoptee) finish(wait *time.Timer) (callruntime.ExitStatus, learnt) {
	defer close(a.done)
	if wait != nil {
		defer wait.Stop()
		select {
		case <-a.gotX:
		case <-a.eof:
		case <-wait.C:
			a.t.kill(fmt.Sprintf("it did not report the end of a call within %v", a.t.answerWait))
		}
	}
	a.conn.Close()
	w := a.exitWatch()
	if w != nil {
		defer w.close()
	}
	select {
	case <-a.gotX:
		return a.x, fromTemplate
	default:
	}
	if a.pid == 0 {
		return killed, fromTemplate // never forked
	}
	// The template is dead, or dying: once it is gone its children are
	// re-parented — to the server, its child subreaper — and the child's
	// status is ours to read.
	expired := make(chan struct{})
	defer time.AfterFunc(a.t.answerWait, func() { close(expired) }).Stop()
	select {
	case <-a.t.dead:
	case <-expired:
	}
	if w != nil {
		select {
		case <-w.gone:
		case <-expired:
		}
		if st, ok := w.reap(); ok {
			return st, fromServer
		}
	}
	return killed, unknown
}

// lost says why the call's ending is warm start's doing, not the CLI's
// (its template died under it), given how the call ended; "" if it is not.
func (a *adoptee) lost(res callruntime.Result) string {
	if res.End != callruntime.Signaled {
		return ""
	}
	switch a.learnt {
	case unknown:
		return "the warm template died during the call, and how the call ended could not be learnt"
	case fromServer:
		return fmt.Sprintf("the warm template died during the call, and the call ended by %s", res.Signal)
	}
	return ""
}

// socketpair is a Unix stream socket pair, both ends close-on-exec (set
// under ForkLock, as os/exec expects, where SOCK_CLOEXEC is missing).
func socketpair() ([2]int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		return fds, err
	}
	unix.CloseOnExec(fds[0])
	unix.CloseOnExec(fds[1])
	return fds, nil
}
