//go:build unix

package warm

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"golang.org/x/sys/unix"
)

// Supported reports whether warm start can run on this platform.
const Supported = true

// forkWait bounds how long a fork request waits for the child's "P" line:
// the template forks in well under a millisecond once it reads the request,
// so only a template stuck in something else takes this long.
const forkWait = 5 * time.Second

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
}

// readyMsg is the template's first line once it imported the CLI.
type readyMsg struct {
	Ready     bool     `json:"ready"`
	Pid       int      `json:"pid"`
	Threads   int      `json:"threads"`
	Commands  int      `json:"commands"`
	ImportMS  int      `json:"import_ms"`
	PreloadMS int      `json:"preload_ms"`
	Files     []string `json:"files"`
	// Runs is what a call runs: "script" (the console script as
	// __main__) or "entry" (the entry point: the script is not Python).
	Runs  string `json:"runs"`
	Error string `json:"error"`
	Trace string `json:"trace"`
}

// startTemplate starts the template under r's guard and waits until it has
// imported the CLI (or failed to, or ctx ended).
func startTemplate(ctx context.Context, r *callruntime.Runner, cfg *Config, log *slog.Logger) (*template, error) {
	fds, err := socketpair()
	if err != nil {
		return nil, fmt.Errorf("creating the control socket: %w", err)
	}
	ours := os.NewFile(uintptr(fds[0]), "warm-ctrl")
	theirs := os.NewFile(uintptr(fds[1]), "warm-ctrl-template")
	defer theirs.Close()
	conn, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		theirs.Close()
		return nil, fmt.Errorf("creating the control socket: %w", err)
	}
	ctrl := conn.(*net.UnixConn)
	conf, _ := json.Marshal(map[string]any{"script": cfg.Script, "entry": cfg.Warm.Entry, "preload": cfg.Warm.Preload,
		"reset": cfg.Warm.Reset, "warmup": cfg.Warm.Warmup})
	logR, logW, err := os.Pipe()
	if err != nil {
		ctrl.Close()
		return nil, err
	}
	env := cfg.Env
	if env == nil {
		env = []string{}
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
	if err != nil {
		logR.Close()
		ctrl.Close()
		return nil, fmt.Errorf("starting %s: %w", cfg.Python, err)
	}
	t := &template{cmd: cmd, forget: forget, ctrl: ctrl, pid: cmd.Process.Pid, dead: make(chan struct{}), log: log}
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
	case <-ctx.Done():
		err = context.Cause(ctx)
	}
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

// close ends the template: closing the control socket makes it kill its
// children and exit; SIGKILL after a grace; then it is waited for.
func (t *template) close() {
	t.ctrl.Close()
	select {
	case <-t.dead:
		return
	case <-time.After(2 * time.Second):
	}
	_ = syscall.Kill(-t.pid, syscall.SIGKILL)
	_ = t.cmd.Process.Kill()
	<-t.dead
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
var errThreads = errors.New("the template has more than one thread")

// fork asks the template for a child with these descriptors, forked into
// cgroup when it is not nil; born says whether it was.
func (t *template) fork(argv []string, dir string, env []string, stdin, stdout, stderr, cgroup *os.File) (callruntime.Adoptee, bool, error) {
	a, err := t.forkChild(argv, dir, env, stdin, stdout, stderr, cgroup)
	if err != nil {
		return nil, false, err
	}
	return a, a.inCgroup, nil
}

func (t *template) forkChild(argv []string, dir string, env []string, stdin, stdout, stderr, cgroup *os.File) (*adoptee, error) {
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
	_, _, err = t.ctrl.WriteMsgUnix([]byte{'F'}, unix.UnixRights(fds[1]), nil)
	t.sendMu.Unlock()
	unix.Close(fds[1])
	if err != nil {
		call.Close()
		return nil, fmt.Errorf("asking the template to fork: %w", err)
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
	_, _, err = call.WriteMsgUnix([]byte{'C'}, unix.UnixRights(passed...), nil)
	goR.Close()
	if err != nil {
		call.Close()
		goW.Close()
		return nil, fmt.Errorf("sending the call to the template: %w", err)
	}
	// The request goes to the child alone, on the go pipe (Start).
	req, _ := json.Marshal(map[string]any{"argv": argv, "cwd": dir, "env": env})
	req = append(binary.BigEndian.AppendUint32(nil, uint32(len(req))), req...)
	a := &adoptee{t: t, conn: call, goW: goW, req: req, exited: make(chan struct{}), status: callruntime.ExitStatus{Code: -1, Signal: "SIGKILL"}}
	started := make(chan error, 1)
	go a.read(started)
	select {
	case err = <-started:
	case <-time.After(forkWait):
		err = fmt.Errorf("the template did not fork within %v", forkWait)
	}
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// adoptee is one warm child (callruntime.Adoptee).
type adoptee struct {
	t    *template
	conn *net.UnixConn
	goW  *os.File
	req  []byte // the call's argv, directory and environment, for the child
	pid  int
	// inCgroup: the child was born in the call's cgroup (clone3), so Run
	// did not have to move it there.
	inCgroup bool
	exited   chan struct{}
	status   callruntime.ExitStatus // set before exited closes
	once     sync.Once
}

// read follows the call socket: the child's "P" line, then the template's
// "X" line. EOF (the template died) ends both.
func (a *adoptee) read(started chan<- error) {
	defer close(a.exited)
	sc := bufio.NewScanner(a.conn)
	sawP := false
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "P":
			if len(f) >= 2 {
				a.pid, _ = strconv.Atoi(f[1])
			}
			a.inCgroup = len(f) >= 4 && f[3] == "c"
			sawP = true
			started <- nil
		case "X":
			if len(f) >= 3 {
				n, _ := strconv.Atoi(f[2])
				if f[1] == "e" {
					a.status = callruntime.ExitStatus{Code: n}
				} else {
					a.status = callruntime.ExitStatus{Code: -1, Signal: unix.SignalName(syscall.Signal(n))}
				}
			}
			if !sawP {
				started <- errors.New("the forked child exited before it was ready")
			}
			return
		case "T":
			n := 0
			if len(f) >= 2 {
				n, _ = strconv.Atoi(f[1])
			}
			if a.t.onThreads != nil {
				a.t.onThreads(n)
			}
			started <- fmt.Errorf("%w (%d threads): forking it would be unsafe", errThreads, n)
			return
		case "E":
			started <- fmt.Errorf("the template refused the call: %s", strings.Join(f[1:], " "))
			return
		}
	}
	if !sawP {
		started <- errors.New("the template closed the call before forking (it died)")
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

func (a *adoptee) Close() callruntime.ExitStatus {
	a.once.Do(func() {
		a.goW.Close() // a child never started reads EOF and leaves
		a.conn.Close()
	})
	<-a.exited
	return a.status
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
