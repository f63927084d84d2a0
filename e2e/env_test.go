//go:build linux

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2E_Environment: the built binary, started by a "host" whose
// environment holds credentials and loader variables, with a manifest that
// passes a whole settings family: the CLI gets its basics (its user's data
// and keychain included), the family, the --pass-env names — and none of
// AWS_SECRET_ACCESS_KEY, LD_PRELOAD, BASH_ENV. --pass-env '*' does not
// start at all.
func TestE2E_Environment(t *testing.T) {
	manifest := filepath.Join(t.TempDir(), "env.json")
	require.NoError(t, os.WriteFile(manifest, []byte(`{"version": 1,
	  "cli": {"command": "`+fakecli+`", "env": {"pass": ["CADRUMO_*"]}},
	  "tools": [{"name": "read_env", "title": "Env", "description": "Prints its environment.", "command": ["env"],
	    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`), 0o644))
	hostEnv := []string{
		"XDG_DATA_HOME=/home/ana/.local/share", "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus",
		"XDG_RUNTIME_DIR=/run/user/1000", "CADRUMO_LOCAL_STORAGE_ROOT=/srv/aeat", "HTTPS_PROXY=http://proxy:3128",
		"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI-e2e", "LD_PRELOAD=/nonexistent/evil.so", "BASH_ENV=/nonexistent/evil.sh",
	}

	cmd := exec_(t, hostEnv, "--manifest", manifest, "--pass-env", "*", "tools")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "--pass-env '*' must not start: %s", out)
	assert.Equal(t, 2, cmd.ProcessState.ExitCode())
	assert.Contains(t, string(out), `--pass-env "*": names only`)

	cmd = exec_(t, append(hostEnv, "AEAT_MCP_PASS_ENV=HTTPS_PROXY,AWS_*"), "--manifest", manifest, "tools")
	out, err = cmd.CombinedOutput()
	require.Error(t, err, "nor a prefix through the environment twin: %s", out)
	assert.Contains(t, string(out), `--pass-env "AWS_*": names only`)

	cs, _ := connectBinary(t, "", hostEnv, "--manifest", manifest, "--pass-env", "HTTPS_PROXY")
	res := callTool(t, cs, "read_env", nil)
	require.False(t, res.IsError, text(res))
	var env map[string]string
	require.NoError(t, json.Unmarshal([]byte(text(res)), &env))
	for name, want := range map[string]string{
		"XDG_DATA_HOME": "/home/ana/.local/share", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus",
		"XDG_RUNTIME_DIR": "/run/user/1000", "CADRUMO_LOCAL_STORAGE_ROOT": "/srv/aeat", "HTTPS_PROXY": "http://proxy:3128",
	} {
		assert.Equal(t, want, env[name], name)
	}
	for name := range env {
		assert.False(t, name == "AWS_SECRET_ACCESS_KEY" || name == "LD_PRELOAD" || name == "BASH_ENV", "%s reached the CLI", name)
		assert.NotContains(t, env[name], "evil")
		assert.NotContains(t, env[name], "wJalrXUtnFEMI")
	}
	assert.False(t, strings.Contains(text(res), "wJalrXUtnFEMI"))
}
