package main

import (
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// answerWatch is serve's stdout: at its first line — the answer to
// initialize — it notes what stderr held then.
type answerWatch struct {
	stderr   *syncWriter
	once     sync.Once
	answered chan string // what stderr held when the answer was written
	onAnswer func()      // if set, called as the answer is written
}

func (a *answerWatch) Write(p []byte) (int, error) {
	a.once.Do(func() {
		if a.onAnswer != nil {
			a.onAnswer()
		}
		a.answered <- a.stderr.String()
	})
	return len(p), nil
}

// initializeLine is a host's initialize request.
const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"

// firstWrite calls first before its first write to w.
type firstWrite struct {
	w     io.Writer
	once  sync.Once
	first func()
}

func watchFirstWrite(w io.Writer, first func()) io.Writer { return &firstWrite{w: w, first: first} }

func (f *firstWrite) Write(p []byte) (int, error) {
	f.once.Do(f.first)
	return f.w.Write(p)
}

// TestServe_LogsAfterTheAnswer: serve writes no log line before its
// answer to initialize (the host waits for it; the lines wait for the
// host), and every line after: the start-up ones, then the rest, in order.
func TestServe_LogsAfterTheAnswer(t *testing.T) {
	sv := startServe(t, nil, "--demo", "--log-level", "info")
	assert.Empty(t, <-sv.stdout.answered, "a log line was written before the answer to initialize")
	_, err := io.WriteString(sv.host, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	require.NoError(t, err)
	sv.host.Close()
	require.Equal(t, exitOK, <-sv.ended)
	assert.Regexp(t, `(?s)msg=serving .*msg="server session connected".*msg="session initialized".*msg=stopped`, sv.stderr.String())
}

// served is a serve run in this process on a pipe, that has been sent
// initialize.
type served struct {
	host   io.WriteCloser // its stdin
	stdout *answerWatch
	stderr *syncWriter
	ended  chan int // its exit code
}

// startServe runs serve with args on a system adjust changes, and sends
// initialize. serve waits for its answer as long as the test runs (a
// loaded machine may answer after the half second a host gets).
func startServe(t *testing.T, adjust func(*system, *answerWatch), args ...string) *served {
	t.Helper()
	sv := startServeSilent(t, adjust, args...)
	_, err := io.WriteString(sv.host, initializeLine)
	require.NoError(t, err)
	return sv
}

// startServeSilent is startServe without initialize: the host says
// nothing yet.
func startServeSilent(t *testing.T, adjust func(*system, *answerWatch), args ...string) *served {
	t.Helper()
	sv := &served{stderr: &syncWriter{}, ended: make(chan int, 1)}
	sv.stdout = &answerWatch{stderr: sv.stderr, answered: make(chan string, 1)}
	in, host := io.Pipe()
	sv.host = host
	sys := osSystem(0, "", nil)
	sys.stdin, sys.stdout, sys.stderr = in, sv.stdout, sv.stderr
	sys.noAnswer = time.Hour
	if adjust != nil {
		adjust(sys, sv.stdout)
	}
	go func() { sv.ended <- run(t.Context(), sys, args) }()
	return sv
}

// TestServe_NoAnswerYet: a host that has not had its answer to initialize
// by sys.noAnswer gets serve as it was before the wait: the start-up log
// written and the stop signals wired, so a host that gives up on the
// connect and stops the server finds the lines on its stderr and the
// server stopping gracefully (not by the signal's default action).
func TestServe_NoAnswerYet(t *testing.T) {
	watched := make(chan struct{})
	var once sync.Once
	sv := startServeSilent(t, func(sys *system, _ *answerWatch) {
		sys.noAnswer = time.Millisecond
		sys.watchStop = func() { once.Do(func() { close(watched) }) }
	}, "--demo", "--log-level", "info")
	select {
	case <-watched:
	case <-time.After(proctest.HangAfter):
		t.Fatal("the stop signals were never wired with no answer to wait for")
	}
	assert.True(t, proctest.Eventually(func() bool { return strings.Contains(sv.stderr.String(), "msg=serving") }), "the start-up log was held with no answer to wait for: %q", sv.stderr.String())
	sv.host.Close()
	require.Equal(t, exitOK, <-sv.ended)
}

// TestServe_StopSignalsAfterTheAnswer: serve wires the stop signals once
// its answer to initialize is written, not before (a host waits for it,
// and nothing is started until then); every other command, and serve on
// a terminal, before it runs.
func TestServe_StopSignalsAfterTheAnswer(t *testing.T) {
	var watched atomic.Int32
	sv := startServe(t, func(sys *system, stdout *answerWatch) {
		sys.watchStop = func() { watched.Add(1) }
		stdout.onAnswer = func() { assert.Zero(t, watched.Load(), "signals wired before the answer to initialize") }
	}, "--demo", "--log-level", "error")
	<-sv.stdout.answered
	sv.host.Close()
	require.Equal(t, exitOK, <-sv.ended)
	assert.NotZero(t, watched.Load(), "signals never wired")

	for name, adjust := range map[string]func(*system){
		"tools":             nil,
		"serve, a terminal": func(s *system) { s.isTerminal = func(io.Reader) bool { return true } },
	} {
		var early atomic.Int32
		code, _, _ := runOn(t, func(s *system) {
			s.watchStop = func() { early.Add(1) }
			if adjust != nil {
				adjust(s)
			}
			s.stdout = watchFirstWrite(s.stdout, func() { assert.NotZero(t, early.Load(), "%s: signals not wired before output", name) })
		}, "", map[string][]string{"tools": {"--demo", "tools"}, "serve, a terminal": {"--demo", "--log-level", "error"}}[name]...)
		assert.Equal(t, exitOK, code, name)
		assert.NotZero(t, early.Load(), name)
	}
}
