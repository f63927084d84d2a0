//go:build linux

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/keychain/secretservicetest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// firstRunPass is the master passphrase of the profiles these tests make
// (the real CLI refuses one shorter than 8 characters).
const firstRunPass = "correct-horse-9"

// userState is one state a user of aeat can be in, as a host starts
// aeat-mcp: the fake's store (nil: none at all), what the host's env block
// and the session give the server, and what the OS keychain holds (nil:
// the release binary and the machine's own keychain — none reachable here).
type userState struct {
	name     string
	store    map[string]any
	env      []string
	keychain map[string]string
	// ready: a representative local READ call (ledger_list) answers.
	ready bool
	// doctorSays and callSays are what doctor prints and what the call's
	// text holds.
	doctorSays, callSays []string
}

func casaStore(session bool) map[string]any {
	st := map[string]any{"active": "casa", "profiles": map[string]any{"casa": map[string]any{"passphrase": firstRunPass, "complete": true}}}
	if session {
		st["session"] = map[string]any{"profile": "casa", "backend": "keyring", "last_used": time.Now().UTC()}
	}
	return st
}

// userStates are issue 28's: nothing set, no profile, not logged in,
// logged in with and without the session bus, secret stored, logged out,
// wrong passphrase (in the env block, in the keychain).
func userStates() []userState {
	const bus = "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus"
	logout := casaStore(false)
	logout["active"] = ""
	return []userState{
		{name: "nothing set", store: nil,
			doctorSays: []string{"answered active_profile_status=none, not ready or incomplete: the CLI cannot serve the calls that need it yet",
				"fix: run `aeat config profile create NAME --tax-id <TAX_ID> --activity <ACTIVITY>` in a terminal (the CLI's own next action)"},
			callSays: []string{"No active profile. Run 'aeat config profile create NAME"}},
		{name: "no profile", store: map[string]any{"profiles": map[string]any{}}, env: []string{bus},
			doctorSays: []string{"answered active_profile_status=none"}},
		{name: "not logged in", store: casaStore(false), env: []string{bus},
			doctorSays: []string{"failed (login_required)", "The CLI's own remedy: aeat config login"},
			callSays:   []string{"login_required"}},
		{name: "logged in, with the bus", store: casaStore(true), env: []string{bus}, ready: true,
			doctorSays: []string{"active_profile_status=ready", "ready to serve calls"}},
		{name: "logged in, without the bus", store: casaStore(true),
			doctorSays: []string{"failed (keychain_unavailable)"}, callSays: []string{"keychain_unavailable"}},
		{name: "secret stored", store: casaStore(false), keychain: map[string]string{"CADRUMO_SECRET_PASSPHRASE": firstRunPass}, ready: true,
			doctorSays: []string{"CADRUMO_SECRET_PASSPHRASE is stored in the OS keychain", "active_profile_status=ready"}},
		{name: "logged out", store: logout, env: []string{bus},
			doctorSays: []string{"answered active_profile_status=none", "run `aeat config login NAME` in a terminal"},
			callSays:   []string{"No active profile. Run 'aeat config login NAME'"}},
		{name: "wrong passphrase, env block", store: casaStore(false), env: []string{"CADRUMO_SECRET_PASSPHRASE=wrong-horse-9"},
			keychain:   map[string]string{"CADRUMO_SECRET_PASSPHRASE": firstRunPass},
			doctorSays: []string{"failed (wrong_passphrase)", "from its own environment"},
			callSays:   []string{"aeat-mcp gave the CLI CADRUMO_SECRET_PASSPHRASE from its own environment", "wins over the OS keychain"}},
		{name: "wrong passphrase, keychain", store: casaStore(false), keychain: map[string]string{"CADRUMO_SECRET_PASSPHRASE": "wrong-horse-9"},
			doctorSays: []string{"failed (wrong_passphrase)"},
			callSays:   []string{"aeat-mcp gave the CLI CADRUMO_SECRET_PASSPHRASE from the OS keychain"}},
	}
}

// fakeDBusLaunch puts a dbus-launch on PATH that records each run and
// prints a bus address, as Debian's dbus-x11 does on a desktop: a library
// that autolaunches a bus runs it (and writes its address into the
// process environment). It returns the PATH to use and the record.
func fakeDBusLaunch(t *testing.T) (path, record string) {
	dir := t.TempDir()
	record = filepath.Join(dir, "launched")
	script := "#!/bin/sh\necho \"$$\" >> '" + record + "'\necho 'DBUS_SESSION_BUS_ADDRESS=unix:path=" + dir + "/autolaunched-bus,guid=0'\necho \"DBUS_SESSION_BUS_PID=$$\"\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "dbus-launch"), []byte(script), 0o755))
	return dir + ":" + os.Getenv("PATH"), record
}

// hostEnv is the environment a host starts aeat-mcp with in state u: a
// home of its own (the store in ~/.local/share), a runtime directory
// without a bus socket, a dbus-launch on PATH, and the state's variables.
func (u userState) hostEnv(t *testing.T, path string) []string {
	home := t.TempDir()
	if u.store != nil {
		root := filepath.Join(home, ".local", "share", "cadrumo", "storage")
		require.NoError(t, os.MkdirAll(root, 0o700))
		raw, _ := json.Marshal(u.store)
		require.NoError(t, os.WriteFile(filepath.Join(root, "fake-store.json"), raw, 0o600))
	}
	env := append([]string{"PATH=" + path, "HOME=" + home, "XDG_RUNTIME_DIR=" + t.TempDir()}, u.env...)
	if u.keychain != nil {
		file := filepath.Join(t.TempDir(), "keychain.json")
		raw, _ := json.Marshal(u.keychain)
		require.NoError(t, os.WriteFile(file, raw, 0o600))
		env = append(env, "AEAT_MCP_TEST_KEYCHAIN="+file)
	}
	return env
}

func (u userState) binary(t *testing.T) string {
	if u.keychain != nil {
		return keychainBinary(t)
	}
	return binary
}

// runDoctor runs the built binary's doctor in env: its exit code and
// report.
func runDoctor(t *testing.T, bin string, env []string) (int, string) {
	cmd := exec.Command(bin, "--manifest", exampleManifest, "--cli", fakeaeat, "doctor")
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String()
	}
	require.NoError(t, err, out.String())
	return 0, out.String()
}

// serveAndCall serves the example manifest from the built binary, as a
// host does in env, and calls tool once.
func serveAndCall(t *testing.T, bin string, env []string, tool string) *mcp.CallToolResult {
	cmd := exec.Command(bin, "--manifest", exampleManifest, "--cli", fakeaeat, "--log-level", "error")
	cmd.Env = env
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	defer cs.Close()
	return callTool(t, cs, tool, nil)
}

// TestE2E_DoctorTellsTheTruth is issue 28's item 1 (and 8's first half),
// over the built binary and the fake aeat, started as a host starts it:
// in every user state, doctor exits non-zero exactly when a representative
// local READ call fails — the probe and the call get the same environment,
// taken once at start (no library's change to the process environment
// reaches either), and an answer that says the CLI is not ready is a
// problem whatever its exit code. No keychain look-up ever starts a bus.
func TestE2E_DoctorTellsTheTruth(t *testing.T) {
	path, launched := fakeDBusLaunch(t)
	for _, u := range userStates() {
		t.Run(u.name, func(t *testing.T) {
			env := u.hostEnv(t, path)
			bin := u.binary(t)
			code, report := runDoctor(t, bin, env)
			res := serveAndCall(t, bin, env, "ledger_list")
			assert.Equal(t, !u.ready, res.IsError, "the call: %s", text(res))
			want := 0
			if !u.ready {
				want = 1
			}
			assert.Equal(t, want, code, "doctor's verdict is the call's:\n%s", report)
			assert.Equal(t, code == 1, res.IsError, "doctor exits 1 exactly when the call fails")
			o := outcome(t, res)
			t.Logf("| %s | doctor exit %d | ledger_list %s %s |", u.name, code, o.Code, o.ExitMeaning)
			for _, says := range u.doctorSays {
				assert.Contains(t, report, says)
			}
			for _, says := range u.callSays {
				assert.Contains(t, text(res)+string(mustJSON(outcome(t, res))), says)
			}
		})
	}
	_, err := os.Stat(launched)
	assert.ErrorIs(t, err, os.ErrNotExist, "no keychain look-up ran dbus-launch")
}

func mustJSON(v any) []byte {
	raw, _ := json.Marshal(v)
	return raw
}

// TestE2E_NoBusNoDaemon is issue 28's item 2: with dbus-launch on PATH
// and no session bus in the environment, validate, doctor and a served
// call each look the keychain up and none starts a bus (nothing left
// behind), and the note says what that means for the user.
func TestE2E_NoBusNoDaemon(t *testing.T) {
	path, launched := fakeDBusLaunch(t)
	u := userState{store: casaStore(false)}
	env := u.hostEnv(t, path)
	cmd := exec.Command(binary, "--manifest", exampleManifest, "--cli", fakeaeat, "validate")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	code, report := runDoctor(t, binary, env)
	assert.Equal(t, 1, code, report)
	res := serveAndCall(t, binary, env, "ledger_list")
	assert.True(t, res.IsError)
	_, err = os.Stat(launched)
	assert.ErrorIs(t, err, os.ErrNotExist, "dbus-launch was never run")
	assert.NotContains(t, report, "dbus-launch")
	if _, err := os.Stat("/run/user/" + strconv.Itoa(os.Getuid()) + "/bus"); err == nil {
		return // this machine's user has a standard bus: the keychain is asked there
	}
	assert.Contains(t, report, "note     the OS keychain is not available: this session has no desktop keychain: no D-Bus session bus")
	assert.Contains(t, report, `give the secret in the host's "env" block instead`)
	assert.Contains(t, report, `CADRUMO_SECRET_PASSPHRASE (optional) is not in aeat-mcp's environment, and the keychain cannot be read: to use it, set it in the host's "env" block`)
	// Not logged in, no bus: a login cannot be kept; doctor names what lasts.
	assert.Contains(t, report, "The CLI gets no D-Bus session bus here (DBUS_SESSION_BUS_ADDRESS), so it reaches no keychain: a login it keeps there lasts one command, and serves no call a host makes.")
	assert.Contains(t, report, `CADRUMO_SECRET_PASSPHRASE in the host's "env" block (no keychain in this session)`)
}

// TestE2E_DoctorNamesTheSessionBus: logged in on a Linux desktop whose
// host started aeat-mcp without the session's bus address — the bus is at
// the user's standard place ($XDG_RUNTIME_DIR/bus). Doctor fails as the
// call does (the CLI is given only the address the environment names),
// and names the address to put in the host's env block.
func TestE2E_DoctorNamesTheSessionBus(t *testing.T) {
	bus := secretservicetest.Bus(t)
	path, launched := fakeDBusLaunch(t)
	u := userState{store: casaStore(true)}
	env := append(u.hostEnv(t, path), "XDG_RUNTIME_DIR="+bus.RuntimeDir) // the last one wins
	code, report := runDoctor(t, binary, env)
	res := serveAndCall(t, binary, env, "ledger_list")
	assert.True(t, res.IsError, text(res))
	assert.Equal(t, "keychain_unavailable", outcome(t, res).ExitMeaning)
	assert.Equal(t, 1, code, report)
	assert.Contains(t, report, "failed (keychain_unavailable)")
	assert.Contains(t, report, `unless the host's "env" block gives it this session's bus: "DBUS_SESSION_BUS_ADDRESS": "unix:path=`+bus.RuntimeDir+`/bus"`)
	_, err := os.Stat(launched)
	assert.ErrorIs(t, err, os.ErrNotExist)
}
