//go:build !windows

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keychainBinaryPath is aeat-mcp built with -tags aeatmcp_testkeychain:
// the same binary, except that AEAT_MCP_TEST_KEYCHAIN can name a file that
// stands in for the OS keychain (this machine has none). Release builds do
// not contain that code.
func keychainBinaryPath(t *testing.T) string {
	return proctest.Build(t, "cmd/aeat-mcp", "aeatmcp_testkeychain")
}

// run runs the built binary with env on top of a scratch user's
// environment, stdin as given, and returns its combined output.
func runBuilt(t *testing.T, bin string, env []string, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%v: %s", args, out)
	return string(out)
}

// TestConfigE2E_KeychainSecretNotWritten: a variable the manifest reads
// from the OS keychain (the real aeat's AEAT_CERT_PASSPHRASE, a tool's
// stdin keychain secret; CADRUMO_SECRET_PASSPHRASE, cli.env.keychain) is
// never written into a host's file by `config HOST --write`, even when
// this shell has it: config prints the `aeat-mcp secret set` step instead,
// says "stored" once it is, and only --with-secrets writes it — saying
// that it did.
func TestConfigE2E_KeychainSecretNotWritten(t *testing.T) {
	bin := keychainBinaryPath(t)
	home := t.TempDir()
	manifest, err := filepath.Abs(example)
	require.NoError(t, err)
	env := []string{"HOME=" + home, "AEAT_MCP_TEST_KEYCHAIN=" + filepath.Join(home, "keychain.json"),
		"AEAT_CERT_PASSPHRASE=cert-pass-4f1e", "CADRUMO_SECRET_PASSPHRASE=master-9c2a"}
	config := filepath.Join(home, ".claude.json")
	write := []string{"--manifest", manifest, "--cli", "/bin/true", "config", "claude-code", "--write"}

	out := runBuilt(t, bin, env, "", write...)
	file, err := os.ReadFile(config)
	require.NoError(t, err)
	for _, secret := range []string{"cert-pass-4f1e", "master-9c2a", "AEAT_CERT_PASSPHRASE", "CADRUMO_SECRET_PASSPHRASE"} {
		assert.NotContains(t, string(file), secret, "the host's file holds no keychain secret, not even its name")
	}
	assert.Contains(t, out, "secrets the server reads from the OS keychain at each call, never from the host's file:")
	assert.Contains(t, out, "  AEAT_CERT_PASSPHRASE (certificate_secret_set): not stored — store it once, in a terminal: aeat-mcp secret set AEAT_CERT_PASSPHRASE\n")
	assert.Contains(t, out, "  CADRUMO_SECRET_PASSPHRASE (every call; optional): not stored — to give it, run in a terminal: aeat-mcp secret set CADRUMO_SECRET_PASSPHRASE\n")
	assert.NotContains(t, out, "env\" block yourself", "no plain-text step is suggested for a keychain secret")

	// Stored as config said: config now says so, and still writes nothing.
	runBuilt(t, bin, env, "cert-pass-4f1e\n", "--manifest", manifest, "secret", "set", "AEAT_CERT_PASSPHRASE")
	out = runBuilt(t, bin, env, "", write...)
	assert.Contains(t, out, "nothing changed")
	assert.Contains(t, out, "  AEAT_CERT_PASSPHRASE (certificate_secret_set): stored\n")

	// --with-secrets stays the explicit opt-in, and says what it wrote.
	out = runBuilt(t, bin, env, "", append(write, "--with-secrets")...)
	file, err = os.ReadFile(config)
	require.NoError(t, err)
	assert.Contains(t, string(file), `"AEAT_CERT_PASSPHRASE": "cert-pass-4f1e"`)
	assert.Contains(t, out, "written in plain text into the entry's \"env\" block, as --with-secrets asked: ")
	assert.Contains(t, out, "  AEAT_CERT_PASSPHRASE (certificate_secret_set): in the entry, in plain text (--with-secrets); `aeat-mcp secret set AEAT_CERT_PASSPHRASE` keeps it in the keychain instead\n")
}

// TestConfigE2E_ClaudeCodeScopes: what `config claude-code` tells a person
// is what Claude Code does with each scope (interop/claude-code-scopes.sh
// holds Claude Code's own CLI to it): the user scope loads without a
// question; a project's .mcp.json is "Pending approval" until each person
// answers Claude Code's question; the local scope is claude mcp add
// --scope local; any other file only with --mcp-config.
func TestConfigE2E_ClaudeCodeScopes(t *testing.T) {
	bin := binaryPath(t)
	home := t.TempDir()
	project := filepath.Join(home, "project")
	require.NoError(t, os.Mkdir(project, 0o755)) // --file makes no folder but a host's own (.vscode)
	env := []string{"HOME=" + home}

	out := runBuilt(t, bin, env, "", "--demo", "config", "claude-code", "--file", filepath.Join(project, ".mcp.json"), "--write")
	assert.NotContains(t, out, "without asking", "a project's .mcp.json does not load without asking")
	assert.Contains(t, out, "This is Claude Code's project scope ("+filepath.Join(project, ".mcp.json"))
	assert.Contains(t, out, "`claude mcp list` run in "+project+" shows \"aeat\" as \"⏸ Pending approval\"")
	assert.Contains(t, out, "start `claude` in "+project+", answer \"Yes, I trust this folder\" if it asks, then \"Use this MCP server\" to \"New MCP server found in this project: aeat\"")
	assert.Contains(t, out, filepath.Join(project, ".claude", "settings.local.json")+", for you alone")

	out = runBuilt(t, bin, env, "", "--demo", "config", "claude-code", "--write")
	assert.Contains(t, out, "This is Claude Code's user scope (the top-level mcpServers of "+filepath.Join(home, ".claude.json")+"): Claude Code starts \"aeat\" in every project without asking — `claude mcp list` shows it \"✔ Connected\"")

	out = runBuilt(t, bin, env, "", "--demo", "config", "claude-code", "--file", filepath.Join(home, "servers.json"), "--write")
	assert.Contains(t, out, "Claude Code does not read "+filepath.Join(home, "servers.json")+" by itself")
	assert.Contains(t, out, "`claude --mcp-config "+filepath.Join(home, "servers.json")+"`")

	out = runBuilt(t, bin, env, "", "--demo", "config", "claude-code")
	assert.Contains(t, out, "\n  claude mcp add --scope user aeat -e LANG=C.UTF-8 -- "+bin+" --demo\n")
	assert.Contains(t, out, "\n  claude mcp add --scope local aeat -e LANG=C.UTF-8 -- "+bin+" --demo\n")
	assert.Contains(t, out, "  project  the project's .mcp.json")
	assert.Contains(t, out, "\"⏸ Pending approval\" until each person starts claude there and answers \"Use this MCP server\"")
}
