//go:build linux

package main

import (
	"encoding/json"
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

// fakeAeat is testdata/fakeaeat, built once: the fake that refuses what the
// real aeat refuses.
func fakeAeat(t *testing.T) string {
	return proctest.Build(t, "testdata/fakeaeat")
}

// aeatStore sets the environment of a user of aeat whose store holds the
// profile "casa": logged in from a terminal, or not.
func aeatStore(t *testing.T, loggedIn bool) {
	t.Helper()
	xdg := t.TempDir()
	root := filepath.Join(xdg, "cadrumo", "storage")
	require.NoError(t, os.MkdirAll(root, 0o700))
	st := map[string]any{"active": "casa", "profiles": map[string]any{"casa": map[string]any{"passphrase": "pw", "complete": true}}}
	if loggedIn {
		st["session"] = map[string]any{"profile": "casa", "backend": "keyring", "last_used": time.Now().UTC()}
	}
	raw, _ := json.Marshal(st)
	require.NoError(t, os.WriteFile(filepath.Join(root, "fake-store.json"), raw, 0o600))
	t.Setenv("XDG_DATA_HOME", xdg)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus")
	for _, v := range []string{"CADRUMO_SECRET_PASSPHRASE", "AEAT_CERT_PASSPHRASE", "CADRUMO_LOCAL_STORAGE_ROOT", "CADRUMO_FAKE_FAIL"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
}

// memKeychain is a keychain in memory, in the OS keychain's place for a
// test (runOn(t, kc.use, …)); broken makes it unavailable.
type memKeychain struct {
	mu     sync.Mutex
	m      map[string]string
	broken error
}

func newMemKeychain() *memKeychain { return &memKeychain{m: map[string]string{}} }

// use puts k in the OS keychain's place on sys.
func (k *memKeychain) use(sys *system) {
	sys.keychain = func([]string) keychain.Store { return k }
}

func (k *memKeychain) Get(name string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.broken != nil {
		return "", k.broken
	}
	v, ok := k.m[name]
	if !ok {
		return "", keychain.ErrNotFound
	}
	return v, nil
}

func (k *memKeychain) Set(name, value string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.broken != nil {
		return k.broken
	}
	k.m[name] = value
	return nil
}

func (k *memKeychain) Delete(name string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.broken != nil {
		return k.broken
	}
	if _, ok := k.m[name]; !ok {
		return keychain.ErrNotFound
	}
	delete(k.m, name)
	return nil
}

// TestDoctor_AskTheCLI: doctor runs cli.health through the runner as a
// call would, and says the CLI's version and whether its user is logged in
// — in the words the model would be told — and what to do. An optional
// secret that is not stored is a note, not a problem.
func TestDoctor_AskTheCLI(t *testing.T) {
	kc := newMemKeychain()
	cli := fakeAeat(t)
	aeatStore(t, true)
	code, out, _ := runOn(t, kc.use, "", "--manifest", example, "--cli", cli, "doctor")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "ok       the CLI answers: CADRUMO 0.2.2")
	assert.Contains(t, out, "ok       `aeat config auth status` answered: active profile casa, active_profile_status=ready, its next action: aeat app overview status — ready to serve calls")
	assert.Contains(t, out, "note     CADRUMO_SECRET_PASSPHRASE is neither in the OS keychain nor in aeat-mcp's environment: optional")
	assert.Contains(t, out, "note     AEAT_CERT_PASSPHRASE is neither in the OS keychain nor in aeat-mcp's environment: certificate_secret_set refuses until it is stored (`aeat-mcp secret set AEAT_CERT_PASSPHRASE`)")
	assert.NotContains(t, out, "PROBLEM")

	aeatStore(t, false)
	code, out, _ = runOn(t, kc.use, "", "--manifest", example, "--cli", cli, "doctor")
	assert.Equal(t, exitFailure, code, out)
	assert.Contains(t, out, "PROBLEM  `aeat config auth status` failed (login_required):")
	assert.Contains(t, out, "The CLI says: You are not logged in.")
	assert.Contains(t, out, "The CLI's own remedy: aeat config login")
	assert.Contains(t, out, "15 idle minutes")
	assert.Contains(t, out, "\n1 problem: fix it")

	// Stored in the keychain: the same user gets answers.
	require.NoError(t, kc.Set("CADRUMO_SECRET_PASSPHRASE", "pw"))
	code, out, _ = runOn(t, kc.use, "", "--manifest", example, "--cli", cli, "doctor")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "ok       CADRUMO_SECRET_PASSPHRASE is stored in the OS keychain (for every call)")
}

// TestValidate_Example: the example manifest on a machine with the CLI:
// nothing is required, so a user with nothing set is served; a secret only
// one tool reads warns.
func TestValidate_Example(t *testing.T) {
	kc := newMemKeychain()
	aeatStore(t, false)
	code, out, _ := runOn(t, kc.use, "", "--manifest", example, "--cli", fakeAeat(t), "validate")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "warning: AEAT_CERT_PASSPHRASE is neither in the OS keychain nor in aeat-mcp's environment: certificate_secret_set refuses until it is stored")
	assert.Contains(t, out, "ok: "+mustAbs(t, example)+": 19 tools (11 read, 4 mutate, 4 live)")
}

// TestPassEnv_NamesOnly: --pass-env takes names; a * would pass the
// server's whole environment (AWS keys, LD_PRELOAD).
func TestPassEnv_NamesOnly(t *testing.T) {
	for _, bad := range []string{"*", "AWS_*", "A=B"} {
		code, _, errOut := runCmd(t, "", "--demo", "--pass-env", bad, "tools")
		assert.Equal(t, exitUsage, code, bad)
		assert.Contains(t, errOut, "--pass-env", bad)
	}
	t.Setenv("AEAT_MCP_PASS_ENV", "HTTPS_PROXY,*")
	code, _, errOut := runCmd(t, "", "--demo", "tools")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `--pass-env "*": names only`)
	t.Setenv("AEAT_MCP_PASS_ENV", "HTTPS_PROXY")
	code, _, _ = runCmd(t, "", "--demo", "tools")
	assert.Equal(t, exitOK, code)
	code, out, _ := runCmd(t, "", "--demo", "--pass-env", "LD_PRELOAD", "validate")
	assert.Equal(t, exitOK, code, "a name is a name: passed, but validate says what it is")
	assert.Contains(t, out, `warning: --pass-env "LD_PRELOAD" passes LD_PRELOAD: variables that change what code a program loads`)
}

// TestSecret: secret set reads the value from stdin (never argv) and stores
// it in the OS keychain; delete removes it. Through a keychain in memory in
// the OS keychain's place (the real one: internal/keychain's tests).
func TestSecret(t *testing.T) {
	kc := newMemKeychain()
	t.Setenv("AEAT_MCP_MANIFEST", "")
	code, out, errOut := runOn(t, kc.use, "correct horse battery\n", "secret", "set", "CADRUMO_SECRET_PASSPHRASE")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `stored CADRUMO_SECRET_PASSPHRASE in the OS keychain (service "aeat-mcp")`)
	assert.NotContains(t, out+errOut, "correct horse")
	v, err := kc.Get("CADRUMO_SECRET_PASSPHRASE")
	require.NoError(t, err)
	assert.Equal(t, "correct horse battery", v, "one trailing newline dropped")

	code, _, errOut = runOn(t, kc.use, "x", "--manifest", example, "secret", "set", "OTHER_SECRET")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, errOut, "does not read OTHER_SECRET from the keychain")

	code, _, errOut = runOn(t, kc.use, "", "secret", "set", "CADRUMO_SECRET_PASSPHRASE")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errOut, "empty value, nothing stored")
	code, _, _ = runOn(t, kc.use, "v", "secret", "set", "NOT-A-NAME")
	assert.Equal(t, exitUsage, code)

	code, out, _ = runOn(t, kc.use, "", "secret", "delete", "CADRUMO_SECRET_PASSPHRASE")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "removed CADRUMO_SECRET_PASSPHRASE")
	_, err = kc.Get("CADRUMO_SECRET_PASSPHRASE")
	assert.ErrorIs(t, err, keychain.ErrNotFound)
	code, out, _ = runOn(t, kc.use, "", "secret", "delete", "CADRUMO_SECRET_PASSPHRASE")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "was not in the OS keychain")

	kc.broken = &keychain.UnavailableError{Err: os.ErrPermission}
	code, _, errOut = runOn(t, kc.use, "v", "secret", "set", "CADRUMO_SECRET_PASSPHRASE")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errOut, "the OS keychain is not available")
	assert.Contains(t, errOut, `set CADRUMO_SECRET_PASSPHRASE in the "env" block`)
}

// TestSecretSet_RefusesNUL: a value holding a NUL byte is refused from a
// pipe too (a terminal: TestSecretSet_Terminal): stored, it made every
// later call fail to start its CLI ("the CLI is not available").
func TestSecretSet_RefusesNUL(t *testing.T) {
	kc := newMemKeychain()
	t.Setenv("AEAT_MCP_MANIFEST", "")
	code, _, errOut := runOn(t, kc.use, "s3cr\x00t\n", "secret", "set", "CADRUMO_SECRET_PASSPHRASE")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errOut, "CADRUMO_SECRET_PASSPHRASE: the value holds a NUL byte, which no environment variable can carry; nothing stored")
	_, err := kc.Get("CADRUMO_SECRET_PASSPHRASE")
	assert.ErrorIs(t, err, keychain.ErrNotFound)
}

// TestServe_NoWarningForAnOptionalSecret: a variable only one tool reads
// on stdin is not a start-up warning (that tool says so when called); a
// variable every call needs is.
func TestServe_NoWarningForAnOptionalSecret(t *testing.T) {
	m := filepath.Join(t.TempDir(), "m.json")
	require.NoError(t, os.WriteFile(m, []byte(`{"version": 1, "cli": {"command": "/bin/true", "env": {"require": ["STORE_ROOT"]}},
	  "tools": [{"name": "a", "title": "A", "description": "d", "command": ["a"], "stdin": {"env": "A_SECRET"},
	   "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`), 0o644))
	t.Setenv("A_SECRET", "")
	t.Setenv("STORE_ROOT", "/srv")
	code, _, errOut := runCmd(t, "", "--manifest", m, "--log-level", "info")
	require.Equal(t, exitOK, code, errOut)
	assert.NotContains(t, errOut, "level=WARN")
	assert.Contains(t, errOut, "level=INFO msg=\"A_SECRET is not set: a refuses until it is\"")
	t.Setenv("STORE_ROOT", "")
	_, _, errOut = runCmd(t, "", "--manifest", m, "--log-level", "info")
	assert.Contains(t, errOut, "level=WARN msg=\"STORE_ROOT is not set: every call refuses until it is\" fix=")
}

func TestTools_StdinKeychain(t *testing.T) {
	code, out, _ := runCmd(t, "", "--manifest", example, "--cli", "/bin/true", "--tools", "certificate_secret_set", "tools", "--json")
	require.Equal(t, exitOK, code)
	var list toolsJSON
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	require.Len(t, list.Tools, 1)
	assert.Equal(t, "keychain:AEAT_CERT_PASSPHRASE", list.Tools[0].Stdin)
}
