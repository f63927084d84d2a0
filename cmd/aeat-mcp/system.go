package main

import (
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/keychain"
)

// A system is what aeat-mcp takes from the process it runs in and the
// machine around it: its three streams, its environment, the process that
// started it, the OS keychain, and what harden did. Commands reach these
// through it and nowhere else (after cli/cli's cmdutil.Factory): main
// builds the real one (osSystem), a test builds its own — a keychain in
// memory, a terminal — so no test overwrites a package variable.
//
// The commands read the streams through cobra (cmd.InOrStdin and the
// others), which run wires to these.
type system struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// environ is the environment as the process started: what the CLI is
	// given, what the keychain is reached with and what the flags'
	// environment twins are read from are built from it alone. It is taken
	// before anything can change it (godbus, under go-keyring, writes the
	// session bus it finds into the process's environment).
	environ []string
	// parent is the pid of the process that started this one, read before
	// anything else: a host that dies while the server starts re-parents
	// it, and a parent read later would be the new one
	// (server.Config.Parent). If zero, the server does not watch its parent.
	parent int
	// isTerminal reports whether r is a terminal (a person ran aeat-mcp by
	// hand) rather than the pipe a host gives it.
	isTerminal func(r io.Reader) bool
	// keychain is the keychain secrets are read from and stored in,
	// reached as the environment says.
	keychain func(environ []string) keychain.Store
	// hardening is what harden did, for doctor: "" where the OS offers
	// nothing to do; hardenErr is why it could not.
	hardening string
	hardenErr error
	// watchStop wires the stop signals to the context commands run under
	// (notifyStop): every command before it runs, serve once the host has
	// its answer to initialize (or at once on a terminal). Idempotent. If
	// nil, nothing: a test's context is its own.
	watchStop func()
	// noAnswer is how long serve holds its log and leaves the stop
	// signals unwired for a host's initialize (compose.go): then it writes
	// and wires them without an answer.
	noAnswer time.Duration
}

// watch calls watchStop, if any.
func (s *system) watch() {
	if s.watchStop != nil {
		s.watchStop()
	}
}

// osSystem is the process's own system, for main: parent is the pid read
// first thing, hardening and hardenErr what harden returned.
func osSystem(parent int, hardening string, hardenErr error) *system {
	return &system{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		environ:    os.Environ(),
		parent:     parent,
		isTerminal: isTerminalFile,
		keychain:   keychain.OS,
		hardening:  hardening, hardenErr: hardenErr,
		noAnswer: noAnswerGrace,
	}
}

// noAnswerGrace is osSystem's noAnswer: a host answered later than this is
// not on a fast start's clock (the parent watch is armed after as long
// without an answer, server.parentPoll).
const noAnswerGrace = 500 * time.Millisecond

// isTerminalFile reports whether r is a file that is a terminal.
func isTerminalFile(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// lookupEnv reads name from the system's environment as this OS reads
// its own (lookupIn).
func (s *system) lookupEnv(name string) (string, bool) {
	return lookupIn(runtime.GOOS, s.environ, name)
}

// has reports whether name is set to something in the system's environment.
func (s *system) has(name string) bool {
	v, _ := s.lookupEnv(name)
	return v != ""
}

// lookupIn reads name from environ as goos's getenv does: the first entry
// of that name wins, and on Windows names are the same whatever their case
// (a host's "Aeat_Mcp_Lang" is AEAT_MCP_LANG there).
func lookupIn(goos string, environ []string, name string) (string, bool) {
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && (k == name || goos == "windows" && strings.EqualFold(k, name)) {
			return v, true
		}
	}
	return "", false
}
