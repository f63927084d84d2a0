package server

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
