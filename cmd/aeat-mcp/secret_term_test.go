//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal with golang.org/x/sys/unix (no new
// dependency): its master, for the test to type on and read, and its
// slave, the terminal `secret set` gets as its stdin, stdout and stderr.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	var n int
	ctl, err := m.SyscallConn()
	require.NoError(t, err)
	require.NoError(t, ctl.Control(func(fd uintptr) {
		if err = unix.IoctlSetPointerInt(int(fd), unix.TIOCSPTLCK, 0); err == nil {
			n, err = unix.IoctlGetInt(int(fd), unix.TIOCGPTN)
		}
	}))
	require.NoError(t, err)
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return m, s
}

// termFlags are the terminal's local flags now (ECHO, ICANON …).
func termFlags(t *testing.T, tty *os.File) uint32 {
	t.Helper()
	var tio *unix.Termios
	ctl, err := tty.SyscallConn()
	require.NoError(t, err)
	require.NoError(t, ctl.Control(func(fd uintptr) { tio, err = unix.IoctlGetTermios(int(fd), unix.TCGETS) }))
	require.NoError(t, err)
	return tio.Lflag
}

// pending is how many bytes typed on the terminal nobody read yet.
func pending(t *testing.T, tty *os.File) int {
	t.Helper()
	var n int
	ctl, err := tty.SyscallConn()
	require.NoError(t, err)
	require.NoError(t, ctl.Control(func(fd uintptr) { n, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }))
	require.NoError(t, err)
	return n
}

// secretSession is `aeat-mcp secret set NAME` on a terminal of its own,
// its controlling terminal, as a person runs it.
type secretSession struct {
	cmd           *exec.Cmd
	master, slave *os.File
	out           strings.Builder
	outMu         sync.Mutex
	exited        chan error
	store         string
}

func startSecretSet(t *testing.T, name string) *secretSession {
	t.Helper()
	ss := &secretSession{exited: make(chan error, 1), store: filepath.Join(t.TempDir(), "keychain.json")}
	ss.master, ss.slave = openPTY(t)
	ss.cmd = exec.Command(keychainBinaryPath(t), "secret", "set", name)
	ss.cmd.Env = []string{"HOME=" + t.TempDir(), "AEAT_MCP_TEST_KEYCHAIN=" + ss.store, "AEAT_MCP_MANIFEST="}
	ss.cmd.Stdin, ss.cmd.Stdout, ss.cmd.Stderr = ss.slave, ss.slave, ss.slave
	ss.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	require.NoError(t, ss.cmd.Start())
	t.Cleanup(func() { _ = ss.cmd.Process.Kill() })
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ss.master.Read(buf)
			ss.outMu.Lock()
			ss.out.Write(buf[:n])
			ss.outMu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() { ss.exited <- ss.cmd.Wait() }()
	// Typing starts once the terminal stopped echoing: what is typed
	// before would be echoed by the line discipline.
	ss.waitFor(t, "echo off", func() bool { return termFlags(t, ss.slave)&unix.ECHO == 0 })
	return ss
}

// waitBound bounds every wait on the process: far beyond what it takes on
// a loaded machine; only a process that hangs (Ctrl-D ignored) meets it.
const waitBound = 60 * time.Second

func (ss *secretSession) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitBound)
	for !cond() {
		select {
		case err := <-ss.exited:
			ss.exited <- err
			if cond() {
				return
			}
			t.Fatalf("secret set exited (%v) before %s; terminal: %q", err, what, ss.output())
		default:
		}
		require.True(t, time.Now().Before(deadline), "no %s within %v; terminal: %q", what, waitBound, ss.output())
		time.Sleep(10 * time.Millisecond)
	}
}

func (ss *secretSession) output() string {
	ss.outMu.Lock()
	defer ss.outMu.Unlock()
	return ss.out.String()
}

func (ss *secretSession) typeKeys(t *testing.T, keys string) {
	t.Helper()
	_, err := ss.master.WriteString(keys)
	require.NoError(t, err)
}

// wait is the exit code, once the process is gone.
func (ss *secretSession) wait(t *testing.T) int {
	t.Helper()
	select {
	case err := <-ss.exited:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		require.NoError(t, err)
		return 0
	case <-time.After(waitBound):
		t.Fatalf("secret set still runs after %v; terminal: %q", waitBound, ss.output())
		return -1
	}
}

func (ss *secretSession) stored(t *testing.T) map[string]string {
	t.Helper()
	m := map[string]string{}
	if raw, err := os.ReadFile(ss.store); err == nil {
		require.NoError(t, json.Unmarshal(raw, &m))
	}
	return m
}

// TestSecretSet_Terminal: `secret set` typed on a real terminal (a pty)
// restores the terminal — echo and line editing back — on every path;
// Ctrl-C cancels, Ctrl-D ends the value (on an empty line: nothing
// stored), a value holding NUL is refused, a SIGTERM while typing leaves
// the terminal as it found it; nothing typed is echoed.
func TestSecretSet_Terminal(t *testing.T) {
	const name = "CADRUMO_SECRET_PASSPHRASE"
	tests := []struct {
		name   string
		keys   string
		signal syscall.Signal
		code   int
		says   string
		stored string // "": nothing
	}{
		{name: "Enter", keys: "s3cr3t-value\r", code: exitOK, says: "stored " + name, stored: "s3cr3t-value"},
		{name: "Backspace and arrows", keys: "s3cx\x7fr3t\x1b[D-value\r", code: exitOK, says: "stored " + name, stored: "s3cr3t-value"},
		{name: "Ctrl-D ends the value", keys: "s3cr3t-value\x04", code: exitOK, says: "stored " + name, stored: "s3cr3t-value"},
		{name: "Ctrl-D on an empty line", keys: "\x04", code: exitFailure, says: "empty value, nothing stored"},
		{name: "Ctrl-C", keys: "s3cr3t\x03", code: exitFailure, says: "interrupted: nothing stored"},
		{name: "NUL", keys: "s3cr\x00t-value\r", code: exitFailure, says: "holds a NUL byte"},
		{name: "SIGTERM", keys: "s3cr3t", signal: syscall.SIGTERM, code: exitFailure, says: "interrupted: nothing stored"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ss := startSecretSet(t, name)
			before := termFlags(t, ss.slave)
			assert.Zero(t, before&unix.ECHO, "no echo while the secret is typed")
			ss.typeKeys(t, tc.keys)
			if tc.signal != 0 {
				// Signalled once it read what was typed: keys the
				// terminal had not delivered yet would be echoed by it
				// once echo is back, whatever the process did.
				ss.waitFor(t, "the keys read", func() bool { return pending(t, ss.slave) == 0 })
				require.NoError(t, ss.cmd.Process.Signal(tc.signal))
			}
			code := ss.wait(t)
			assert.Equal(t, tc.code, code, "terminal: %q", ss.output())
			ss.waitFor(t, "its last words", func() bool { return strings.Contains(ss.output(), tc.says) })
			flags := termFlags(t, ss.slave)
			assert.NotZero(t, flags&unix.ECHO, "echo is back")
			assert.NotZero(t, flags&unix.ICANON, "line editing is back")
			assert.NotZero(t, flags&unix.ISIG, "Ctrl-C is a signal again")
			assert.NotContains(t, ss.output(), "s3cr", "nothing typed was echoed")
			if tc.stored == "" {
				assert.NotContains(t, ss.stored(t), name)
			} else {
				assert.Equal(t, tc.stored, ss.stored(t)[name])
			}
		})
	}
}
