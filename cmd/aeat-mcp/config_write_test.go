//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigWrite_ConcurrentWriters: ten `config claude-code --write`
// processes with distinct names, started at once against one file, must
// leave ten entries (each said "wrote"; none may be lost), and one backup
// per write, none overwritten.
func TestConfigWrite_ConcurrentWriters(t *testing.T) {
	bin := binaryPath(t)
	home := t.TempDir()
	path := filepath.Join(home, ".claude.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"numStartups": 3, "mcpServers": {}}`+"\n"), 0o600))
	const writers = 10
	var wg sync.WaitGroup
	outs := make([]string, writers)
	errs := make([]error, writers)
	start := make(chan struct{})
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, "--demo", "config", "claude-code", "--write", "--name", fmt.Sprintf("s%d", i))
			cmd.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR=", "XDG_CACHE_HOME=")
			<-start
			out, err := cmd.CombinedOutput()
			outs[i], errs[i] = string(out), err
		}()
	}
	close(start)
	wg.Wait()
	for i := range writers {
		require.NoError(t, errs[i], outs[i])
		assert.Contains(t, outs[i], "wrote", outs[i])
	}
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc struct {
		NumStartups int                        `json:"numStartups"`
		MCPServers  map[string]json.RawMessage `json:"mcpServers"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	t.Logf("writers kept: %d of %d", len(doc.MCPServers), writers)
	assert.Len(t, doc.MCPServers, writers, "every writer's entry is kept")
	assert.Equal(t, 3, doc.NumStartups)
	backups, _ := filepath.Glob(path + ".aeat-mcp-backup-*")
	assert.Len(t, backups, writers, "one backup per write, none overwritten")
}

// envManifest is a manifest with every kind of variable config meets:
// a required one, a prefix passed, a stdin secret.
const envManifest = `{"version": 1,
  "cli": {"command": "app", "env": {"pass": ["APP_*"], "require": ["APP_HOME"]}},
  "tools": [
    {"name": "cert_set", "title": "Set", "description": "s", "command": ["cert", "set"], "stdin": {"env": "CERT_SECRETS_JSON"},
     "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}},
    {"name": "list", "title": "List", "description": "l", "command": ["list"],
     "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`

// TestConfig_CopiesPassedVariables: the entry carries every variable set
// here that the CLI would get and a host would not pass (a moved storage
// root), never a secret unless --with-secrets, and says what it left out.
func TestConfig_CopiesPassedVariables(t *testing.T) {
	home := t.TempDir()
	manifest := filepath.Join(home, "app.manifest.json")
	require.NoError(t, os.WriteFile(manifest, []byte(envManifest), 0o600))
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("APP_HOME", "/data/app")
	t.Setenv("APP_STORAGE_ROOT", "/data/app-local")
	t.Setenv("APP_EMPTY", "")
	t.Setenv("APP_SECRET_PASSPHRASE", "hunter2")
	t.Setenv("CERT_SECRETS_JSON", `{"secret": "cert-s3cr3t"}`)
	t.Setenv("MY_EXTRA", "x")
	t.Setenv("UNRELATED", "y")

	code, out, errOut := runCmd(t, "", "--manifest", manifest, "--cli", "/bin/true", "--pass-env", "MY_EXTRA", "config", "claude-desktop")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `"APP_HOME": "/data/app"`, "required")
	assert.Contains(t, out, `"APP_STORAGE_ROOT": "/data/app-local"`, "matched by cli.env.pass's APP_*")
	assert.Contains(t, out, `"MY_EXTRA": "x"`, "--pass-env")
	assert.NotContains(t, out, "UNRELATED")
	assert.NotContains(t, out, "APP_EMPTY", "an empty variable is not set")
	assert.NotContains(t, out, "hunter2", "a secret is not copied unasked")
	assert.NotContains(t, out, "cert-s3cr3t")
	assert.NotContains(t, out, `"HOME"`, "what every host passes by itself is the host's business")
	assert.Contains(t, out, "secrets set in this shell and left out of the entry (their names say so): APP_SECRET_PASSPHRASE")
	assert.Contains(t, out, "CERT_SECRETS_JSON (cert_set) — only the \"env\" block above can give them")
	assert.Contains(t, out, `the "env" block above`)
	assert.NotContains(t, out, "below", "the env block is printed before the notes that refer to it")

	code, out, errOut = runCmd(t, "", "--manifest", manifest, "--cli", "/bin/true", "config", "claude-code", "--write", "--with-secrets")
	require.Equal(t, exitOK, code, errOut)
	raw, err := os.ReadFile(filepath.Join(home, ".claude.json"))
	require.NoError(t, err)
	var doc map[string]map[string]serverEntry
	require.NoError(t, json.Unmarshal(raw, &doc))
	env := doc["mcpServers"]["aeat"].Env
	assert.Equal(t, "hunter2", env["APP_SECRET_PASSPHRASE"], "--with-secrets copies secrets")
	assert.Equal(t, `{"secret": "cert-s3cr3t"}`, env["CERT_SECRETS_JSON"], "--with-secrets copies the stdin secrets too")
	assert.Equal(t, "/data/app-local", env["APP_STORAGE_ROOT"])
	assert.NotContains(t, out, "left out")
	assert.Contains(t, out, "written in plain text into the entry's \"env\" block, as --with-secrets asked: APP_SECRET_PASSPHRASE, CERT_SECRETS_JSON.")

	t.Setenv("APP_HOME", "")
	code, out, _ = runCmd(t, "", "--manifest", manifest, "--cli", "/bin/true", "config", "cursor")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "not set in this shell, so not in the entry: APP_HOME")
}

// TestConfig_StablePathThroughBrewLink: the binary started as Homebrew
// starts it (a link on PATH into the versioned Cellar) writes the link.
func TestConfig_StablePathThroughBrewLink(t *testing.T) {
	root := t.TempDir()
	cellar := filepath.Join(root, "Cellar", "aeat-mcp", "1.2.3", "bin")
	binDir := filepath.Join(root, "bin")
	require.NoError(t, os.MkdirAll(cellar, 0o755))
	require.NoError(t, os.MkdirAll(binDir, 0o755))
	data, err := os.ReadFile(binaryPath(t))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(cellar, "aeat-mcp"), data, 0o755))
	link := filepath.Join(binDir, "aeat-mcp")
	require.NoError(t, os.Symlink("../Cellar/aeat-mcp/1.2.3/bin/aeat-mcp", link))

	for _, argv0 := range []string{"aeat-mcp", link} {
		// As a shell starts it: argv[0] as typed, the program found on PATH.
		cmd := &exec.Cmd{Path: link, Args: []string{argv0, "--demo", "config", "claude-desktop"},
			Env: append(os.Environ(), "PATH="+binDir+":/usr/bin:/bin", "HOME="+root)}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
		assert.Contains(t, string(out), `"command": "`+link+`"`, "started as %s", argv0)
		assert.NotContains(t, string(out), "Cellar")
	}
}

// TestConfig_RecordsGlobals: --global values, and AEAT_MCP_GLOBAL_<NAME>
// ones, reach the entry as --global flags (the host has no shell).
func TestConfig_RecordsGlobals(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("AEAT_MCP_GLOBAL_LANG", "es")
	code, out, errOut := runCmd(t, "", "--manifest", example, "--cli", "/bin/true", "--global", "profile=work", "config", "claude-desktop")
	require.Equal(t, exitOK, code, errOut)
	assert.Regexp(t, `"--global",\s+"profile=work",\s+"--global",\s+"lang=es"`, out)
}

// TestConfig_JSONCKeepsComments: VS Code's and Cursor's files may have
// comments and trailing commas; --write keeps them, and Claude's strict
// files with comments are still refused untouched.
func TestConfig_JSONCKeepsComments(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	orig := "{\n  // servers for this workspace\n  \"servers\": {\n    \"other\": {\"type\": \"stdio\", \"command\": \"x\"}, // keep\n  },\n}\n"
	require.NoError(t, os.WriteFile(path, []byte(orig), 0o644))
	code, out, errOut := runCmd(t, "", "--demo", "config", "vscode", "--file", path, "--write")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "wrote")
	got, _ := os.ReadFile(path)
	assert.Contains(t, string(got), "// servers for this workspace")
	assert.Contains(t, string(got), `"other": {"type": "stdio", "command": "x"}, // keep`)
	assert.Contains(t, string(got), `"aeat": {`)

	strict := filepath.Join(dir, "claude.json")
	require.NoError(t, os.WriteFile(strict, []byte(orig), 0o644))
	code, _, errOut = runCmd(t, "", "--demo", "config", "claude-code", "--file", strict, "--write")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errOut, "comments or trailing commas")
	after, _ := os.ReadFile(strict)
	assert.Equal(t, orig, string(after))
}

// TestEntryEnv: the entry carries what the CLI would get that a host does
// not pass by itself (the TypeScript SDK's inherited set, per OS), and no
// secret unasked.
func TestEntryEnv(t *testing.T) {
	m, err := annotations.Parse([]byte(`{"version": 1,
	  "cli": {"command": "app", "env": {"pass": ["CADRUMO_*", "LOCALAPPDATA", "DBUS_SESSION_BUS_ADDRESS"], "require": ["NEEDED"],
	    "keychain": ["VAULT_KEY"]}},
	  "tools": [{"name": "a", "title": "A", "description": "a", "command": ["a"], "stdin": {"env": "CERT_JSON"},
	    "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false}},
	    {"name": "b", "title": "B", "description": "b", "command": ["b"], "stdin": {"keychain": "CERT_PASS", "json_key": "secret"},
	    "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false}}]}`), "")
	require.NoError(t, err)
	environ := func() []string {
		return []string{"HOME=/home/me", "PATH=/usr/bin", "USER=me", "LANG=es_ES.UTF-8", "TZ=Europe/Madrid",
			"CADRUMO_LOCAL_STORAGE_ROOT=/data", "CADRUMO_SECRET_PASSPHRASE=pw", "LOCALAPPDATA=C:\\Users\\me\\AppData\\Local",
			"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus", "CERT_JSON={}", "UNRELATED=x",
			"VAULT_KEY=k", "CERT_PASS=cp"} // keychain names a host's env block may stand in for
	}
	he := entryEnv("linux", m, nil, environ, false)
	assert.Equal(t, map[string]string{"LANG": "es_ES.UTF-8", "TZ": "Europe/Madrid", "CADRUMO_LOCAL_STORAGE_ROOT": "/data",
		"LOCALAPPDATA": `C:\Users\me\AppData\Local`, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}, he.copied,
		"what the CLI gets beyond what hosts pass (HOME, PATH, USER…); no secret")
	assert.Equal(t, []string{"CADRUMO_SECRET_PASSPHRASE"}, he.byName, "a secret by its name; the keychain's (VAULT_KEY, CERT_PASS) are the keychain's business")
	assert.Equal(t, []string{"CERT_JSON (a)"}, he.envOnly, "a stdin variable: only the server's environment gives it")
	assert.Empty(t, he.plain)
	assert.Equal(t, []string{"NEEDED"}, he.unset)

	he = entryEnv("windows", m, nil, environ, false)
	assert.NotContains(t, he.copied, "LOCALAPPDATA", "hosts pass LOCALAPPDATA on Windows")
	assert.Contains(t, he.copied, "CADRUMO_LOCAL_STORAGE_ROOT")

	he = entryEnv("linux", m, nil, environ, true)
	assert.Equal(t, "pw", he.copied["CADRUMO_SECRET_PASSPHRASE"])
	assert.Equal(t, "{}", he.copied["CERT_JSON"])
	assert.Equal(t, "k", he.copied["VAULT_KEY"])
	assert.Equal(t, "cp", he.copied["CERT_PASS"])
	assert.ElementsMatch(t, []string{"CADRUMO_SECRET_PASSPHRASE", "VAULT_KEY", "CERT_JSON", "CERT_PASS"}, he.plain, "--with-secrets: each secret written in plain text is named")
	assert.Empty(t, he.byName)
}
