package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keychainBinary is aeat-mcp built with -tags aeatmcp_testkeychain: the
// same binary, except that AEAT_MCP_TEST_KEYCHAIN can name a file that
// stands in for the OS keychain (this machine has none). Release builds do
// not contain that code.
func keychainBinary(t *testing.T) string {
	return proctest.Build(t, "cmd/aeat-mcp", "aeatmcp_testkeychain")
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
	root := aeatUser{}.Setup(t) // logged out
	store := filepath.Join(t.TempDir(), "keychain.json")
	const master, cert = "pw", "cert-pass-7e1b9"
	base := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), proctest.CacheEnv(), "AEAT_MCP_TEST_KEYCHAIN=" + store}
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

	host := exec.Command(bin, "--manifest", exampleManifest, "--cli", fakeaeat, "config", "claude-desktop") // a CLI that does not resolve is exit 1
	host.Env = env
	entry, err := host.CombinedOutput()
	require.NoError(t, err, string(entry))

	handled(func() bool { return len(msgs()) > 0 })
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

// TestE2E_KeychainSecretEchoedIsRedacted: a careless CLI prints back the
// secrets the server loaded from the keychain — the master passphrase it
// put in the CLI's environment (cli.env.keychain) and the certificate's
// passphrase it wrote on the CLI's stdin as {"secret": …} — on stderr, in
// a successful call, in a live call's progress and in a failed call. No
// line the server writes holds either (raw or decoded: result text,
// structuredContent, progress, cli_error; nor the logs), and the
// placeholder shows each was echoed and redacted.
func TestE2E_KeychainSecretEchoedIsRedacted(t *testing.T) {
	bin := keychainBinary(t)
	const master, cert = "m4ster-pässphrase-9c1", "cert-pässe-7e1b9"
	aeatUser{Profile: map[string]any{"passphrase": master}}.Setup(t) // logged out: the master passphrase unlocks it
	store := filepath.Join(t.TempDir(), "keychain.json")
	base := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), proctest.CacheEnv(), "AEAT_MCP_TEST_KEYCHAIN=" + store}
	for name, value := range map[string]string{"CADRUMO_SECRET_PASSPHRASE": master, "AEAT_CERT_PASSPHRASE": cert} {
		set := exec.Command(bin, "--manifest", exampleManifest, "secret", "set", name)
		set.Env = base
		set.Stdin = strings.NewReader(value + "\n")
		out, err := set.CombinedOutput()
		require.NoError(t, err, string(out))
	}
	env := append(base, "XDG_DATA_HOME="+os.Getenv("XDG_DATA_HOME"), "DBUS_SESSION_BUS_ADDRESS=unix:path=/x",
		"CADRUMO_FAKE_DELAY=300ms", "CADRUMO_FAKE_ECHO_SECRET=1")
	forms := func(s string) []string {
		ascii, _ := json.Marshal(s)
		return []string{s, strings.ReplaceAll(strings.Trim(string(ascii), `"`), "ä", `\u00e4`), base64.StdEncoding.EncodeToString([]byte(s))}
	}

	type call struct {
		tool    string
		args    map[string]any
		isError bool
		echoes  []string // what the CLI printed back
	}
	for _, srv := range []struct {
		name  string
		env   []string
		calls []call
	}{
		{"calls that succeed", env, []call{
			{"ledger_list", nil, false, []string{master}},
			{"filed_list", nil, false, []string{master}},
			{"certificate_secret_set", map[string]any{"name": "fnmt"}, false, []string{master, cert}},
			{"certificate_secret_set", map[string]any{"name": "unregistered"}, true, []string{master, cert}},
		}},
		{"calls that fail", append(env, "CADRUMO_FAKE_FAIL=internal"), []call{
			{"ledger_list", nil, true, []string{master}},
			{"filed_list", nil, true, []string{master}},
		}},
	} {
		t.Run(srv.name, func(t *testing.T) {
			cmd := exec.Command(bin, "--manifest", exampleManifest, "--cli", fakeaeat, "--log-level", "debug")
			cmd.Env = srv.env
			rs := startRawCmd(t, cmd)
			rs.initialize(t)

			for i, c := range srv.calls {
				id := i + 1
				params, _ := json.Marshal(map[string]any{"name": c.tool, "arguments": c.args, "_meta": map[string]any{"progressToken": id}})
				rs.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, params))
				lines, progress, result := rs.answerTo(t, id)
				raw, _ := json.Marshal(result)
				isError, _ := result["isError"].(bool)
				require.Equal(t, c.isError, isError, "%s: %s", c.tool, raw)
				for _, secret := range []string{master, cert} {
					assertNotWritten(t, c.tool, lines, secret, forms(secret))
				}
				// Each part the model sees, decoded on its own.
				meta, _ := result["_meta"].(map[string]any)
				parts := map[string]any{"content": result["content"], "structuredContent": result["structuredContent"],
					"cli_error": meta[CLIErrorKey], "progress": progress}
				text := strings.Join(stringsIn(result["content"], nil), "\n")
				for part, v := range parts {
					s := strings.Join(stringsIn(v, nil), "\n")
					for _, secret := range []string{master, cert} {
						assert.NotContains(t, s, secret, "%s: %s", c.tool, part)
					}
				}
				if c.isError {
					assert.NotNil(t, meta[CLIErrorKey], "%s: the CLI's error document: %s", c.tool, raw)
				} else if c.tool != "filed_list" {
					assert.NotNil(t, result["structuredContent"], "%s: %s", c.tool, raw)
				}
				// The CLI did print them back: each echo is there, redacted.
				if c.isError {
					// The CLI did print them back: a failed call shows its
					// stderr, where each echo is, redacted. (A successful
					// one shows them only in progress, which shows the
					// latest line twice a second: not each line.)
					assert.GreaterOrEqual(t, strings.Count(text, redactedSecret), len(c.echoes), "%s: every echo redacted: %s", c.tool, raw)
				}
			}
			for _, secret := range []string{master, cert} {
				assert.NotContains(t, rs.errs.String(), secret, "logs")
			}
		})
	}
}

// answerTo reads what the server writes until its answer to request id:
// every line, the progress messages among them, and the result.
func (rs *rawServer) answerTo(t *testing.T, id int) (lines, progress []string, result map[string]any) {
	t.Helper()
	for result == nil {
		line, err := rs.out.ReadString('\n')
		require.NoError(t, err, "stderr: %s", rs.errs.String())
		lines = append(lines, line)
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m))
		if p, ok := m["params"].(map[string]any); ok && m["method"] == "notifications/progress" {
			msg, _ := p["message"].(string)
			progress = append(progress, msg)
		}
		if m["id"] == float64(id) {
			result, _ = m["result"].(map[string]any)
			require.NotNil(t, result, line)
		}
	}
	return lines, progress, result
}

// assertNotWritten checks that no line holds secret in any of its forms,
// nor, decoded, the secret itself.
func assertNotWritten(t *testing.T, tool string, lines []string, secret string, forms []string) {
	t.Helper()
	for _, line := range lines {
		var v any
		require.NoError(t, json.Unmarshal([]byte(line), &v))
		for _, f := range forms {
			assert.NotContains(t, line, f, "%s: a line the server wrote", tool)
		}
		assert.NotContains(t, strings.Join(stringsIn(v, nil), "\n"), secret, "%s: a decoded string of %s", tool, line)
	}
}

// TestE2E_KeychainSecretWithNUL: a secret the keychain holds with a NUL
// byte (stored before `secret set` refused one) makes a call refuse,
// naming the secret and how to store it again — before, the CLI could not
// start with it in its environment and every call said "the CLI is not
// available … install it"; doctor names it too.
func TestE2E_KeychainSecretWithNUL(t *testing.T) {
	bin := keychainBinary(t)
	dir := t.TempDir()
	store := filepath.Join(dir, "keychain.json")
	require.NoError(t, os.WriteFile(store, []byte(`{"NUL_SECRET": "s3cr\u0000t-value"}`), 0o600))
	manifest := filepath.Join(dir, "m.json")
	require.NoError(t, os.WriteFile(manifest, []byte(fmt.Sprintf(`{"version": 1,
	  "cli": {"command": %q, "env": {"keychain": [{"name": "NUL_SECRET"}]}},
	  "tools": [{"name": "read_ok", "title": "OK", "description": "Prints ok.", "command": ["ok"],
	    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`, fakecli)), 0o644))
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), proctest.CacheEnv(), "AEAT_MCP_TEST_KEYCHAIN=" + store}

	cmd := exec.Command(bin, "--manifest", manifest)
	cmd.Env = env
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	defer cs.Close()
	res := callTool(t, cs, "read_ok", nil)
	require.True(t, res.IsError, text(res))
	o := outcome(t, res)
	assert.Equal(t, CodeCLIUnavailable, o.Code)
	assert.Equal(t, []string{"NUL_SECRET"}, o.MissingEnv)
	assert.Contains(t, text(res), "the secret NUL_SECRET stored in the OS keychain holds a NUL byte")
	assert.Contains(t, text(res), "aeat-mcp secret set NUL_SECRET")
	assert.NotContains(t, text(res), "nstall", "the CLI is installed: the stored secret is what is wrong")

	doctor := exec.Command(bin, "--manifest", manifest, "doctor")
	doctor.Env = env
	out, _ := doctor.CombinedOutput()
	assert.Contains(t, string(out), "NUL_SECRET: stored in the OS keychain, but the value holds a NUL byte, which no environment variable can carry: store it again with aeat-mcp secret set NUL_SECRET")
	assert.NotContains(t, string(out), "s3cr")
}
