package generate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// A walk step is one run of the CLI that generate makes to read it: `PROG
// --help`, `PROG help SUB…`, `PROG __complete …`, the click walk. A CLI
// may start daemons from its help, hang, keep its output open from a
// child, or print a gigabyte, so every step runs as a call does, under
// callruntime: no shell, stdin the null device, its whole process tree
// killed when it ends or overruns its ceiling, its output captured within
// a bound, a memory ceiling.
var (
	// stepTimeout bounds one help page or completion answer.
	stepTimeout = 30 * time.Second
	// clickTimeout bounds the click walk: one process that imports the CLI
	// and loads every lazily loaded group.
	clickTimeout = 3 * time.Minute
)

const (
	// maxPageBytes: a help page or completion answer longer than this is
	// not one; the step fails rather than read a part of it.
	maxPageBytes = 4 << 20
	// maxErrBytes is how much of a failed step's stderr its error quotes
	// (the end, where the reason is).
	maxErrBytes = 4 << 10
	// stepMemory is a walk step's memory ceiling (the whole tree's).
	stepMemory = 2 << 30
)

// step is one run of the CLI.
type step struct {
	// program is the CLI's path (made absolute).
	program string
	args    []string
	// env is added to the environment generate runs in.
	env []string
	// timeout: if zero, stepTimeout.
	timeout time.Duration
	// maxStdout: if zero, maxPageBytes; stdout beyond it fails the step.
	maxStdout int
}

// stepOutput is what a step that ran to its end printed.
type stepOutput struct {
	stdout, stderr string
	exitCode       int
}

// what names the step as a person would type it.
func (s step) what() string {
	words := []string{filepath.Base(s.program)}
	for _, a := range s.args {
		if a == "" || strings.ContainsAny(a, " \t\"'") {
			a = strconv.Quote(a)
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}

// walkRunner runs every step of every walk: one Runner for the process,
// made on first use with the default options and never closed (a walk is
// a command's whole work, and ends with its process).
var walkRunner = sync.OnceValues(func() (*callruntime.Runner, error) {
	return callruntime.NewRunner(callruntime.Options{})
})

// run runs the step. It fails when the CLI could not start, did not end by
// itself (timeout, memory, a crash, the walk cancelled) or printed more
// than a page; a non-zero exit is the caller's to judge.
func (s step) run(ctx context.Context) (stepOutput, error) {
	path, err := filepath.Abs(s.program)
	if err != nil {
		return stepOutput{}, err
	}
	spec := callruntime.Spec{
		Path: path,
		Args: s.args,
		// The CLI sees what it sees when a person runs it (its config,
		// PATH, HOME), asked not to colour what it prints.
		Env:         append(append(os.Environ(), "NO_COLOR=1"), s.env...),
		Timeout:     s.timeout,
		MaxStdout:   s.maxStdout,
		MaxStderr:   64 << 10,
		MemoryLimit: stepMemory,
	}
	if spec.Timeout == 0 {
		spec.Timeout = stepTimeout
	}
	if spec.MaxStdout == 0 {
		spec.MaxStdout = maxPageBytes
	}
	r, err := walkRunner()
	if err != nil {
		return stepOutput{}, fmt.Errorf("running %s: %w", s.what(), err)
	}
	res, err := r.Run(ctx, spec)
	if err != nil {
		return stepOutput{}, fmt.Errorf("running %s: %w", s.what(), err)
	}
	out := stepOutput{stdout: res.Stdout.Text(nil), stderr: lastBytes(res.Stderr.Text(nil), maxErrBytes), exitCode: res.ExitCode}
	switch res.End {
	case callruntime.Exited:
	case callruntime.TimedOut:
		return out, fmt.Errorf("%s did not answer within %v: stopped, with every process it started", s.what(), spec.Timeout)
	case callruntime.Cancelled:
		return out, fmt.Errorf("%s: stopped: %w", s.what(), cancelCause(ctx))
	case callruntime.ResourceExceeded:
		return out, fmt.Errorf("%s used more than %d MiB of memory: stopped", s.what(), stepMemory>>20)
	default:
		return out, fmt.Errorf("%s crashed (%s)%s", s.what(), res.Signal, quoteErr(out.stderr))
	}
	if res.Stdout.Omitted() > 0 {
		return out, fmt.Errorf("%s printed %d bytes, more than a help page (%d MiB): not read", s.what(), res.Stdout.Total, spec.MaxStdout>>20)
	}
	return out, nil
}

// cancelCause is why ctx ended: its cause, else its error.
func cancelCause(ctx context.Context) error {
	if c := context.Cause(ctx); c != nil {
		return c
	}
	return errors.New("cancelled")
}

// quoteErr is a failed step's stderr as the end of its error message.
func quoteErr(stderr string) string {
	if s := strings.TrimSpace(stderr); s != "" {
		return ":\n" + s
	}
	return ""
}

// lastBytes is the end of s, at most n bytes, cut at a rune.
func lastBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	for i := 0; i < len(s) && i < 4; i++ {
		if s[i]&0xc0 != 0x80 {
			return "…" + s[i:]
		}
	}
	return "…" + s
}
