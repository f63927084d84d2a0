package proctest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// AeatUser is the environment of one user of the real aeat, as far as the
// fake aeat (testdata/fakeaeat) reads it: a store with the profile "casa"
// (passphrase "pw") and, when LoggedIn, a live login session kept in the
// keychain. Profile adds to or overrides the profile's fields.
type AeatUser struct {
	LoggedIn bool
	Profile  map[string]any
}

// Setup writes the store and sets the test's environment, which the
// server under test inherits: the store where a terminal user's
// XDG_DATA_HOME puts it, the D-Bus address of a Linux desktop session,
// nothing else of aeat's. It returns the store's root.
func (u AeatUser) Setup(t *testing.T) string {
	t.Helper()
	xdg := t.TempDir()
	root := filepath.Join(xdg, "cadrumo", "storage")
	require.NoError(t, os.MkdirAll(root, 0o700))
	p := map[string]any{"passphrase": "pw", "complete": true, "certificates": []string{"fnmt"}}
	for k, v := range u.Profile {
		p[k] = v
	}
	st := map[string]any{"active": "casa", "profiles": map[string]any{"casa": p}}
	if u.LoggedIn {
		st["session"] = map[string]any{"profile": "casa", "backend": "keyring", "last_used": time.Now().UTC()}
	}
	raw, _ := json.Marshal(st)
	require.NoError(t, os.WriteFile(filepath.Join(root, "fake-store.json"), raw, 0o600))
	t.Setenv("XDG_DATA_HOME", xdg)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus")
	for _, v := range []string{"CADRUMO_LOCAL_STORAGE_ROOT", "CADRUMO_SECRET_PASSPHRASE", "AEAT_CERT_PASSPHRASE", "XDG_RUNTIME_DIR",
		"CADRUMO_FAKE_FAIL", "CADRUMO_FAKE_DELAY", "CADRUMO_FAKE_ECHO_SECRET", "CADRUMO_FAKE_LONG_ERROR"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	return root
}

// FakeAeatStore reads back the fake aeat's store under root.
func FakeAeatStore(t *testing.T, root string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "fake-store.json"))
	require.NoError(t, err)
	var st map[string]any
	require.NoError(t, json.Unmarshal(raw, &st))
	return st
}
