// Package keychain keeps the secrets a manifest names (cli.env.keychain, a
// tool's stdin keychain) in the operating system's keychain — the macOS
// Keychain and the Windows Credential Manager through
// github.com/zalando/go-keyring, the Secret Service of a Linux (or BSD)
// desktop through its own D-Bus client — under the service [Service] and
// the secret's variable name. `aeat-mcp secret set NAME` stores one; the
// server reads it at call time, so no secret has to sit in plaintext in a
// host's configuration file.
//
// # The session bus
//
// The Secret Service is asked on the session bus that the environment
// aeat-mcp started with names (DBUS_SESSION_BUS_ADDRESS), or on the user's
// standard bus socket ($XDG_RUNTIME_DIR/bus, /run/user/UID/bus) when it
// exists; otherwise the keychain is unavailable ([NoBusError] says what
// that means for a person). It never starts a bus (dbus-launch), and it
// never writes the process environment: go-keyring's D-Bus library does
// both, so it is not used there.
//
// It does not decide when a secret is needed or what a missing one means:
// the server does. It never logs or returns a value in an error.
package keychain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Service is the keychain service under which aeat-mcp keeps secrets: a
// person finds them under this name in Keychain Access, the Credential
// Manager or Seahorse.
const Service = "aeat-mcp"

// ErrNotFound: the keychain answered, and it has no secret of that name.
var ErrNotFound = errors.New("keychain: not in the keychain")

// ErrNUL: a value holds a NUL byte. No environment variable can carry
// one (a CLI given it in its environment could not even start), so no
// secret may hold one: [Check] refuses it before it is stored, and the
// server refuses a call whose stored secret does.
var ErrNUL = errors.New("the value holds a NUL byte, which no environment variable can carry")

// Check refuses a value no secret may be: one that holds a NUL byte.
func Check(value string) error {
	if strings.IndexByte(value, 0) >= 0 {
		return ErrNUL
	}
	return nil
}

// Store is a keychain. Get's errors are [ErrNotFound], or an
// [*UnavailableError] when the keychain could not be asked.
type Store interface {
	Get(name string) (string, error)
	Set(name, value string) error
	Delete(name string) error
}

// UnavailableError says the keychain could not be asked: no Secret
// Service on this Linux session (no D-Bus session bus), a locked keychain
// whose prompt nobody answered, a refused access.
type UnavailableError struct{ Err error }

func (e *UnavailableError) Error() string {
	return "the OS keychain is not available: " + e.Err.Error()
}
func (e *UnavailableError) Unwrap() error { return e.Err }

// OS is the operating system's keychain as a process with the environment
// environ reaches it — aeat-mcp's environment as it started (on Linux, its
// session bus: see the package documentation) — or, in a binary built with
// the aeatmcp_testkeychain tag, the test store that AEAT_MCP_TEST_KEYCHAIN
// names (testkeychain.go).
func OS(environ []string) Store {
	if s := testStore(); s != nil {
		return s
	}
	return osStore(environ)
}

// DefaultWait bounds one keychain read: a locked keychain may wait for a
// person to answer a prompt that, under an MCP host, nobody sees.
const DefaultWait = 10 * time.Second

// Get reads name from s within wait (if zero, DefaultWait) or until ctx
// ends. A keychain that does not answer in time is unavailable; its read
// goes on in the background and its answer is dropped.
func Get(ctx context.Context, s Store, name string, wait time.Duration) (string, error) {
	if wait <= 0 {
		wait = DefaultWait
	}
	type answer struct {
		v   string
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		v, err := s.Get(name)
		ch <- answer{v, err}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case a := <-ch:
		return a.v, a.err
	case <-timer.C:
		return "", &UnavailableError{Err: fmt.Errorf("it did not answer within %v (locked, with a prompt nobody can see?)", wait)}
	case <-ctx.Done():
		return "", &UnavailableError{Err: ctx.Err()}
	}
}
