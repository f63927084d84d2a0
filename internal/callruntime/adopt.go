package callruntime

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// An Adopter starts a call's program some other way than exec: a warm
// template that has already imported the program forks a child for the call
// (internal/warm). The child must wait, before it runs a line of the
// program, until [Adoptee.Start]: Run first places it in the call's tree —
// its cgroup, or the walk's set and the lifeline — so that it and everything
// it starts are supervised exactly as a program Run started itself:
// timeout, cancellation, the memory ceiling, caps, filters, tree death.
type Adopter interface {
	// Fork forks the program with these as its stdin, stdout and stderr
	// (Run closes its own copies afterwards). The child leads a session of
	// its own (so a process group of its own) before Fork returns.
	//
	// cgroup, when not nil, is the call's cgroup directory (Linux): an
	// Adopter that forks the child straight into it (clone3 with
	// CLONE_INTO_CGROUP) spares Run the move into it, which waits for an
	// RCU grace period (milliseconds) when no other move just happened.
	// Run checks where the child is either way. Run closes it afterwards.
	Fork(stdin, stdout, stderr, cgroup *os.File) (Adoptee, error)
}

// An Adoptee is a child an [Adopter] forked, waiting to be let go.
type Adoptee interface {
	// Pid is the child's process id.
	Pid() int
	// Parent is the pid of the process that forked it. Run checks that the
	// child's parent is that process before it adopts the pid, so a pid
	// that was reused in between is never taken for the child.
	Parent() int
	// Start lets the child run the program.
	Start() error
	// Exited is closed once the child has exited. It is left a zombie
	// until Close, so its pid and process group cannot be reused while
	// the rest of its tree is stopped.
	Exited() <-chan struct{}
	// Close ends the adoption: it kills the child if it still runs, reaps
	// it, and says how it ended. Called exactly once.
	Close() ExitStatus
}

// ExitStatus is how an adopted child ended: its exit code, or the signal
// that ended it (Code is then -1).
type ExitStatus struct {
	Code   int
	Signal string
}

// AdoptError is returned by Run when an [Adopter] could not fork the
// program or the child could not be placed in its tree. Nothing of the
// program ran (the child never got its start), and nothing of it is left:
// the caller may start the program the ordinary way.
type AdoptError struct{ Err error }

func (e *AdoptError) Error() string { return "adopting a forked program: " + e.Err.Error() }
func (e *AdoptError) Unwrap() error { return e.Err }

// errNoAdoption is why a platform cannot adopt.
var errNoAdoption = errors.New("callruntime: this platform cannot place an adopted process in a call's tree")

// adopter is a tree that can take in a child it did not start.
type adopter interface {
	// adopt places pid, a child of parent that has not yet run the
	// program, in the tree as its leader.
	adopt(pid, parent int) error
}

// cgroupDirTree is a tree that is a cgroup a child can be forked into.
type cgroupDirTree interface {
	// cgroupDir opens the tree's cgroup directory for the child's fork,
	// or returns nil where forking into it is not possible here.
	cgroupDir() *os.File
}

// adopt has spec's Adopter fork the program, places the child in t and lets
// it go. Any failure is an *AdoptError, after which the child is gone.
func adopt(t tree, spec *Spec, stdout, stderr *os.File) (Adoptee, error) {
	into, ok := t.(adopter)
	if !ok {
		return nil, &AdoptError{errNoAdoption}
	}
	stdin, feed, err := adoptStdin(spec.Stdin)
	if err != nil {
		return nil, &AdoptError{err}
	}
	var cgroup *os.File
	if c, ok := t.(cgroupDirTree); ok {
		cgroup = c.cgroupDir()
	}
	a, err := spec.Adopt.Fork(stdin, stdout, stderr, cgroup)
	stdin.Close() // the child has its own copy, or none
	if cgroup != nil {
		cgroup.Close()
	}
	if err != nil {
		if feed != nil {
			feed.Close()
		}
		return nil, &AdoptError{err}
	}
	if err := into.adopt(a.Pid(), a.Parent()); err != nil {
		a.Close()
		if feed != nil {
			feed.Close()
		}
		return nil, &AdoptError{err}
	}
	if err := a.Start(); err != nil {
		a.Close()
		if feed != nil {
			feed.Close()
		}
		return nil, &AdoptError{fmt.Errorf("starting the forked program: %w", err)}
	}
	if feed != nil {
		// As exec does for Cmd.Stdin: written from a goroutine, then
		// closed. A program that never reads leaves it blocked until the
		// tree is gone and the pipe's read end with it (EPIPE).
		go func() {
			_, _ = io.Copy(feed, bytes.NewReader(spec.Stdin))
			feed.Close()
		}()
	}
	return a, nil
}

// adoptStdin is what an adopted child reads: the null device, or a pipe
// whose write end (feed) gets spec.Stdin.
func adoptStdin(data []byte) (stdin, feed *os.File, err error) {
	if data == nil {
		f, err := os.Open(os.DevNull)
		return f, nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("creating stdin pipe: %w", err)
	}
	return r, w, nil
}

// leader is the process Run waits for: a child it started with exec, or one
// it adopted.
type leader struct {
	cmd     *exec.Cmd
	adoptee Adoptee
}

// waitExit returns once the leader exited, leaving it unreaped where the
// platform allows.
func (l leader) waitExit(t tree) {
	if l.adoptee != nil {
		<-l.adoptee.Exited()
		return
	}
	t.waitExit(l.cmd)
}

// reap reaps the leader and says how it ended.
func (l leader) reap() ExitStatus {
	if l.adoptee != nil {
		return l.adoptee.Close()
	}
	_ = l.cmd.Wait()
	st := ExitStatus{Code: -1, Signal: signalName(l.cmd.ProcessState)}
	if st.Signal == "" && l.cmd.ProcessState != nil {
		st.Code = l.cmd.ProcessState.ExitCode()
	}
	return st
}

// HelperStarter is the part of a platform that can start a long-lived helper
// process under the Runner's guard.
type helperStarter interface {
	startHelper(cmd *exec.Cmd) (forget func(), err error)
}

// ErrNoHelpers is returned by [Runner.StartHelper] where the platform cannot
// guard a helper.
var ErrNoHelpers = errors.New("callruntime: this platform cannot guard a helper process")

// StartHelper starts cmd as a long-lived helper of the Runner's calls — a
// warm template that forks them ([Adopter]) — under the same guard as a
// call's leader: it leads a process group of its own, gets Pdeathsig
// (SIGKILL) from a thread that lives as long as the server (Linux), and the
// lifeline kills its group if the server dies, even by SIGKILL. The /proc
// walk never takes it for a call's orphan. cmd's SysProcAttr is replaced.
//
// The caller waits for cmd as usual, then calls forget.
func (r *Runner) StartHelper(cmd *exec.Cmd) (forget func(), err error) {
	p, err := r.platform()
	if err != nil {
		return nil, err
	}
	hs, ok := p.(helperStarter)
	if !ok {
		return nil, ErrNoHelpers
	}
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return nil, ErrRunnerClosed
	}
	return hs.startHelper(cmd)
}

// CanAdopt reports whether this Runner can place an adopted child in a
// call's tree ([Spec.Adopt]) and guard a helper ([Runner.StartHelper]).
func (r *Runner) CanAdopt() bool {
	p, _ := r.platform()
	_, ok := p.(helperStarter)
	return ok
}
