package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/keychain"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lockedKeychain is a keychain that holds every operation until the test
// ends — a locked one, waiting for a person to unlock it — and says when
// the first has started.
type lockedKeychain struct {
	asked   chan struct{}
	once    sync.Once
	release chan struct{}
}

func newLockedKeychain(t *testing.T) *lockedKeychain {
	k := &lockedKeychain{asked: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(func() { close(k.release) })
	return k
}

func (k *lockedKeychain) hold() error {
	k.once.Do(func() { close(k.asked) })
	<-k.release
	return errors.New("released at the end of the test")
}

func (k *lockedKeychain) Get(string) (string, error) { return "", k.hold() }
func (k *lockedKeychain) Set(string, string) error   { return k.hold() }
func (k *lockedKeychain) Delete(string) error        { return k.hold() }

func (k *lockedKeychain) use(sys *system) {
	sys.keychain = func([]string) keychain.Store { return k }
}

// TestStop_EndsWhatWaitsOnTheKeychain: a command waiting on a locked
// keychain — validate, doctor and config reading a secret's state, secret
// set storing, secret delete removing — ends when aeat-mcp is told to stop
// (main's signals end the context), exit 130, and writes nothing: a stop
// is not held up by the keychain's prompt (up to 10 s for a read, 2
// minutes for a store, where the process used to die at once).
func TestStop_EndsWhatWaitsOnTheKeychain(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "m.json")
	require.NoError(t, os.WriteFile(manifest, []byte(`{"version": 1, "cli": {"command": "aeat-mcp-test-absent", "env": {"keychain": ["A_SECRET"]}},
	  "tools": [{"name": "a", "title": "A", "description": "d", "command": ["a"],
	   "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`), 0o644))
	hostFile := filepath.Join(dir, "host.json")
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
	}{
		{"validate", "", []string{"--manifest", manifest, "validate"}},
		{"doctor", "", []string{"--manifest", manifest, "doctor"}},
		{"config", "", []string{"--manifest", manifest, "config", "claude-code", "--file", hostFile, "--write"}},
		{"secret set", "s3cr3t\n", []string{"secret", "set", "A_SECRET"}},
		{"secret delete", "", []string{"secret", "delete", "A_SECRET"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kc := newLockedKeychain(t)
			ctx, stop := context.WithCancel(t.Context())
			defer stop()
			type result struct {
				code           int
				stdout, stderr string
			}
			done := make(chan result, 1)
			go func() {
				code, stdout, stderr := runUntil(ctx, kc.use, tc.stdin, tc.args...)
				done <- result{code, stdout, stderr}
			}()
			select {
			case <-kc.asked:
			case r := <-done:
				t.Fatalf("ended (%d) without asking the keychain: %s%s", r.code, r.stdout, r.stderr)
			case <-time.After(proctest.HangAfter):
				t.Fatalf("did not ask the keychain within %v", proctest.HangAfter)
			}
			stop()
			select {
			case r := <-done:
				assert.Equal(t, exitInterrupted, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
			case <-time.After(proctest.HangAfter):
				t.Fatalf("still waiting on the keychain %v after the stop", proctest.HangAfter)
			}
			assert.NoFileExists(t, hostFile, "nothing is written from reads cut short")
		})
	}
}
