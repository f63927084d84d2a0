package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2E_AeatFirstRun is issue 17's "Done when", over real stdio against
// the built binary and the fake aeat, started as a host starts it: a user
// who set nothing (the store in the platform's data folder, no session)
// gets ok from the verbs the login gate exempts and, from the others, a
// refusal that carries the CLI's own remedy and our login hint;
// config_check logged out is a failure; logged in with findings it is ok,
// with its structured result.
func TestE2E_AeatFirstRun(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, ".local", "share", "cadrumo", "storage") // XDG_DATA_HOME unset: ~/.local/share
	require.NoError(t, os.MkdirAll(root, 0o700))
	writeStore := func(session bool) {
		st := map[string]any{"active": "casa", "profiles": map[string]any{"casa": map[string]any{
			"passphrase": "pw", "complete": true, "check_issues": []string{"google_export is on but the 'google' extra is not installed"}}}}
		if session {
			st["session"] = map[string]any{"profile": "casa", "backend": "keyring", "last_used": time.Now().UTC()}
		}
		raw, _ := json.Marshal(st)
		require.NoError(t, os.WriteFile(filepath.Join(root, "fake-store.json"), raw, 0o600))
	}
	writeStore(false)
	cmd := exec_(t, []string{"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus"},
		"--manifest", exampleManifest, "--cli", fakeaeat)
	cmd.Env[1] = "HOME=" + home // only what a host gives: PATH, HOME, and the desktop's bus
	var logs syncBuffer
	cmd.Stderr = &logs
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	defer cs.Close()

	for _, name := range []string{"profile_list", "modelo_list"} {
		res := callTool(t, cs, name, nil)
		assert.False(t, res.IsError, "%s is exempt from the login gate: %s", name, text(res))
		assert.Equal(t, CodeOK, outcome(t, res).Code)
	}
	for _, name := range []string{"ledger_list", "overview_status", "auth_status", "filed_list", "config_check"} {
		res := callTool(t, cs, name, nil)
		o := outcome(t, res)
		assert.True(t, res.IsError, name)
		assert.Equal(t, "login_required", o.ExitMeaning, name)
		assert.Equal(t, "REFUSED_CLI_BOUNDARY", o.CLIErrorCode, name)
		txt := text(res)
		assert.Contains(t, txt, "The CLI's own remedy: aeat config login", name)
		assert.Contains(t, txt, "Ask them to run `aeat config login` in a terminal", name)
		assert.NotContains(t, txt, "(no output)", name)
	}

	writeStore(true) // the user logs in, in a terminal
	res := callTool(t, cs, "config_check", nil)
	require.False(t, res.IsError, text(res))
	o := outcome(t, res)
	assert.Equal(t, CodeOK, o.Code)
	assert.Equal(t, 2, *o.ExitCode)
	assert.Equal(t, "problems_found", o.ExitMeaning)
	raw, _ := json.Marshal(res.StructuredContent)
	assert.Contains(t, string(raw), `"issues":["google_export is on but the 'google' extra is not installed"]`)
	res = callTool(t, cs, "ledger_list", nil)
	assert.False(t, res.IsError, text(res))
	require.NoError(t, cs.Close())
	assert.NotContains(t, logs.String(), "level=WARN", "nothing to warn about at start-up: no variable is required")
	assert.False(t, strings.Contains(logs.String(), "AEAT_CERT_PASSPHRASE"))
}

// TestE2E_RealAeatManifest: the built binary serves the shipped example
// over real stdio, as a host would start it, against the fake aeat.
func TestE2E_RealAeatManifest(t *testing.T) {
	root := loggedIn(t)
	const secret = "e2e-secret-value-9f3a"
	cmd := exec_(t, []string{"XDG_DATA_HOME=" + os.Getenv("XDG_DATA_HOME"), "DBUS_SESSION_BUS_ADDRESS=unix:path=/x",
		"AEAT_CERT_PASSPHRASE=" + secret, "AEAT_MCP_LANG=es"},
		"--manifest", exampleManifest, "--cli", fakeaeat, "--log-level", "debug")
	var logs syncBuffer
	cmd.Stderr = &logs
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	defer cs.Close()
	list, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	assert.Len(t, list.Tools, 19+3)

	res := callTool(t, cs, "ledger_list", map[string]any{"profile": "casa", "limit": 5})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, "casa", structured(t, res)["active_profile"])

	res = callTool(t, cs, "justificante_pull", map[string]any{"modelo": "303", "year": 2025})
	assert.Equal(t, CodeInvalidArguments, outcome(t, res).Code, "period is required by the CLI and by the tool")

	res = callTool(t, cs, "ledger_remove", map[string]any{"transaction_id": "7f3a9c"})
	assert.Equal(t, ReasonCannotConfirm, outcome(t, res).Reason, "this client cannot be asked")
	assert.Contains(t, text(res), "confirmación", "in the user's language")
	res = callTool(t, cs, "ledger_remove", map[string]any{"transaction_id": "7f3a9c", "dry_run": true})
	require.False(t, res.IsError, text(res))

	res = callTool(t, cs, "certificate_secret_set", map[string]any{"name": "fnmt"})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, secret, fakeStore(t, root)["secrets"].(map[string]any)["fnmt"])
	raw, _ := json.Marshal(res)
	assert.NotContains(t, string(raw), secret)
	require.NoError(t, cs.Close())
	assert.NotContains(t, logs.String(), secret, "not in the logs, at debug level either")
	assert.NotContains(t, logs.String(), "casa", "argument values never reach the logs")
	assert.NotContains(t, logs.String(), "AEAT_CERT_PASSPHRASE", "no start-up warning for a secret that is there")
}

// exec_ is the built binary with exactly env (plus PATH and HOME).
func exec_(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), proctest.CacheEnv()}, env...)
	return cmd
}

// aeatUser: the fake aeat's user, from the kit.
type aeatUser = proctest.AeatUser

func loggedIn(t *testing.T) string { return aeatUser{LoggedIn: true}.Setup(t) }

var fakeStore = proctest.FakeAeatStore
