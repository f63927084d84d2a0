package main

import (
	"io"
	"sync"
	"sync/atomic"
	"testing"

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
	var stderr syncWriter
	stdout := &answerWatch{stderr: &stderr, answered: make(chan string, 1)}
	in, host := io.Pipe()
	sys := osSystem(0, "", nil)
	sys.stdin, sys.stdout, sys.stderr = in, stdout, &stderr
	ended := make(chan int, 1)
	go func() { ended <- run(t.Context(), sys, []string{"--demo", "--log-level", "info"}) }()
	_, err := io.WriteString(host, initializeLine)
	require.NoError(t, err)
	assert.Empty(t, <-stdout.answered, "a log line was written before the answer to initialize")
	_, err = io.WriteString(host, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	require.NoError(t, err)
	host.Close()
	require.Equal(t, exitOK, <-ended)
	assert.Regexp(t, `(?s)msg=serving .*msg="server session connected".*msg="session initialized".*msg=stopped`, stderr.String())
}

// TestServe_StopSignalsAfterTheAnswer: serve wires the stop signals once
// its answer to initialize is written, not before (a host waits for it,
// and nothing is started until then); every other command, and serve on
// a terminal, before it runs.
func TestServe_StopSignalsAfterTheAnswer(t *testing.T) {
	var stderr syncWriter
	stdout := &answerWatch{stderr: &stderr, answered: make(chan string, 1)}
	in, host := io.Pipe()
	sys := osSystem(0, "", nil)
	sys.stdin, sys.stdout, sys.stderr = in, stdout, &stderr
	var watched atomic.Int32
	sys.watchStop = func() { watched.Add(1) }
	stdout.onAnswer = func() { assert.Zero(t, watched.Load(), "signals wired before the answer to initialize") }
	ended := make(chan int, 1)
	go func() { ended <- run(t.Context(), sys, []string{"--demo", "--log-level", "error"}) }()
	_, err := io.WriteString(host, initializeLine)
	require.NoError(t, err)
	<-stdout.answered
	host.Close()
	require.Equal(t, exitOK, <-ended)
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
