//go:build linux

package server

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	keychainBinOnce sync.Once
	keychainBin     string
	keychainBinErr  error
)

// keychainBinary is aeat-mcp built with -tags aeatmcp_testkeychain: the
// same binary, except that AEAT_MCP_TEST_KEYCHAIN can name a file that
// stands in for the OS keychain (this machine has none). Release builds do
// not contain that code.
func keychainBinary(t *testing.T) string {
	keychainBinOnce.Do(func() {
		keychainBin = filepath.Join(filepath.Dir(binary), "aeat-mcp-testkeychain")
		out, err := exec.Command("go", "build", "-tags", "aeatmcp_testkeychain", "-o", keychainBin, "../../cmd/aeat-mcp").CombinedOutput()
		if err != nil {
			keychainBinErr = &os.PathError{Op: "build", Path: string(out), Err: err}
		}
	})
	require.NoError(t, keychainBinErr)
	return keychainBin
}

// TestE2E_KeychainSecret: a person stores two secrets with `aeat-mcp secret
// set` (from stdin, never argv); the server, started as a host starts it
// with nothing in its env block, reads them at call time: the master
// passphrase unlocks a logged-out user's profile, the certificate's
// passphrase reaches the CLI's stdin as {"secret": …} — and neither
// appears in argv, the logs, progress, results, or the host's config
// entry.
func TestE2E_KeychainSecret(t *testing.T) {
	bin := keychainBinary(t)
	root := aeatUser{}.setup(t) // logged out
	store := filepath.Join(t.TempDir(), "keychain.json")
	const master, cert = "pw", "cert-pass-7e1b9"
	base := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "AEAT_MCP_TEST_KEYCHAIN=" + store}
	for name, value := range map[string]string{"CADRUMO_SECRET_PASSPHRASE": master, "AEAT_CERT_PASSPHRASE": cert} {
		set := exec.Command(bin, "--manifest", exampleManifest, "secret", "set", name)
		set.Env = base
		set.Stdin = strings.NewReader(value + "\n")
		out, err := set.CombinedOutput()
		require.NoError(t, err, string(out))
		assert.NotContains(t, string(out), value)
	}

	env := append(base, "XDG_DATA_HOME="+os.Getenv("XDG_DATA_HOME"), "DBUS_SESSION_BUS_ADDRESS=unix:path=/x", "CADRUMO_FAKE_DELAY=300ms")
	cmd := exec.Command(bin, "--manifest", exampleManifest, "--cli", fakeaeat, "--log-level", "debug")
	cmd.Env = env
	var logs syncBuffer
	cmd.Stderr = &logs
	opts, msgs := progressMessages()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, opts)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	defer cs.Close()

	var results []string
	call := func(name string, args map[string]any) *mcp.CallToolResult {
		params := &mcp.CallToolParams{Name: name, Arguments: args}
		params.SetProgressToken(name)
		res, err := cs.CallTool(context.Background(), params)
		require.NoError(t, err)
		raw, _ := json.Marshal(res)
		results = append(results, string(raw))
		return res
	}
	res := call("ledger_list", nil)
	require.False(t, res.IsError, "the master passphrase from the keychain unlocks the profile: %s", text(res))
	res = call("filed_list", nil)
	require.False(t, res.IsError, text(res))
	res = call("certificate_secret_set", map[string]any{"name": "fnmt"})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, cert, fakeStore(t, root)["secrets"].(map[string]any)["fnmt"], "the CLI read exactly the stored secret")
	require.NoError(t, cs.Close())

	dry := exec.Command(bin, "--manifest", exampleManifest, "--cli", fakeaeat, "call", "certificate_secret_set", "--arg", "name=fnmt", "--dry-run")
	dry.Env = env
	plan, err := dry.CombinedOutput()
	require.NoError(t, err, string(plan))
	assert.Contains(t, string(plan), `stdin: the value of keychain AEAT_CERT_PASSPHRASE`)

	host := exec.Command(bin, "--manifest", exampleManifest, "config", "claude-desktop")
	host.Env = env
	entry, err := host.CombinedOutput()
	require.NoError(t, err, string(entry))

	for _, where := range []struct{ name, text string }{
		{"results", strings.Join(results, "\n")}, {"logs", logs.String()}, {"progress", strings.Join(msgs(), "\n")},
		{"call --dry-run", string(plan)}, {"config claude-desktop", string(entry)},
	} {
		for _, secret := range []string{cert, "CADRUMO_SECRET_PASSPHRASE=" + master} {
			assert.NotContains(t, where.text, secret, "%s", where.name)
		}
	}
	assert.NotEmpty(t, msgs(), "progress was sent")

	// What the CLI itself was given: the master passphrase in its
	// environment (that is how aeat reads it), the certificate's only on
	// stdin; neither in any argv.
	calls := fakeCalls(t, root)
	require.Len(t, calls, 3)
	for _, c := range calls {
		assert.NotContains(t, strings.Join(c.Argv, " "), cert)
		assert.NotContains(t, strings.Join(c.Argv, " "), "CADRUMO_SECRET_PASSPHRASE")
		assert.Contains(t, c.Env, "CADRUMO_SECRET_PASSPHRASE")
		assert.NotContains(t, c.Env, "AEAT_CERT_PASSPHRASE", "a stdin secret is not in the CLI's environment")
		assert.NotContains(t, c.Env, "AEAT_MCP_TEST_KEYCHAIN")
	}
}

// fakeCall is one line of the fake's fake-calls.jsonl.
type fakeCall struct {
	Argv []string `json:"argv"`
	Env  []string `json:"env"`
}

func fakeCalls(t *testing.T, root string) []fakeCall {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "fake-calls.jsonl"))
	require.NoError(t, err)
	var out []fakeCall
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var c fakeCall
		require.NoError(t, json.Unmarshal([]byte(line), &c))
		out = append(out, c)
	}
	return out
}
