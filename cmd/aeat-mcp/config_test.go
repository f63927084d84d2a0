//go:build linux

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var now = time.Date(2026, 11, 30, 16, 40, 0, 0, time.UTC)

func TestMergeServer(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude.json")
	// A real ~/.claude.json holds much more than servers, in its own order.
	orig := `{
  "numStartups": 12,
  "projects": {"/home/me/x": {"allowedTools": [], "mcpServers": {}}},
  "mcpServers": {
    "other": {"type": "stdio", "command": "/usr/bin/other", "args": ["--a"]}
  },
  "zeta": "\u00e9\u003c"
}
`
	require.NoError(t, os.WriteFile(path, []byte(orig), 0o640))
	entry := serverEntry{Type: "stdio", Command: "/opt/aeat-mcp", Args: []string{"--demo"}}
	res, err := merge{path: path, key: "mcpServers", name: "aeat", entry: entry, now: now}.run()
	require.NoError(t, err)
	changed, backup := res.changed, res.backup
	assert.True(t, changed)
	assert.Equal(t, path, res.target)
	assert.Equal(t, path+".aeat-mcp-backup-20261130T164000", backup)
	saved, _ := os.ReadFile(backup)
	assert.Equal(t, orig, string(saved), "the backup is the old file, byte for byte")

	got, _ := os.ReadFile(path)
	var v map[string]any
	require.NoError(t, json.Unmarshal(got, &v))
	assert.EqualValues(t, 12, v["numStartups"])
	assert.Equal(t, "é<", v["zeta"])
	servers := v["mcpServers"].(map[string]any)
	assert.Contains(t, servers, "other", "other servers are kept")
	assert.Equal(t, map[string]any{"type": "stdio", "command": "/opt/aeat-mcp", "args": []any{"--demo"}}, servers["aeat"])
	s := string(got)
	assert.Less(t, strings.Index(s, "numStartups"), strings.Index(s, "projects"), "keys keep their order")
	assert.Less(t, strings.Index(s, `"other"`), strings.Index(s, `"aeat"`))
	fi, _ := os.Stat(path)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "the file keeps its mode")

	// The same entry again: nothing written, no new backup.
	require.NoError(t, os.Remove(backup))
	res, err = merge{path: path, key: "mcpServers", name: "aeat", entry: entry, now: now.Add(time.Minute)}.run()
	require.NoError(t, err)
	changed, backup = res.changed, res.backup
	assert.False(t, changed)
	assert.Empty(t, backup)
	again, _ := os.ReadFile(path)
	assert.Equal(t, string(got), string(again))
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*"))
	assert.Equal(t, []string{path}, leftovers, "no temporary file or backup left")

	// A changed entry replaces ours only.
	entry.Args = []string{"--demo", "--lang", "es"}
	res, err = merge{path: path, key: "mcpServers", name: "aeat", entry: entry, now: now.Add(2 * time.Minute)}.run()
	require.NoError(t, err)
	assert.True(t, res.changed)
}

func TestMergeServer_RefusesWhatItCannotParse(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"comments.json": "{\n  // VS Code allows comments\n  \"servers\": {}\n}\n",
		"array.json":    "[]",
		"garbage.json":  "{\"a\": ",
		"badkey.json":   `{"mcpServers": []}`,
	} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
		_, err := merge{path: path, key: "mcpServers", name: "aeat", entry: serverEntry{Command: "/x"}, now: now}.run()
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "was not changed", name)
		after, _ := os.ReadFile(path)
		assert.Equal(t, content, string(after), "%s is untouched", name)
	}
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 4, "no backup or temporary file for a refused merge")
}

func TestConfigCommand(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("AEAT_MCP_LANG", "")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "")
	exe, _ := os.Executable()

	code, out, _ := runCmd(t, "", "--demo", "--timeout-live", "10m", "config", "claude-desktop")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, `"command": "`+exe+`"`)
	assert.Contains(t, out, `"--demo",`)
	assert.Contains(t, out, `"--timeout-live",`)
	assert.Contains(t, out, `~/Library/Application Support/Claude/claude_desktop_config.json`)
	assert.Contains(t, out, `%APPDATA%\Claude\claude_desktop_config.json`)
	assert.Contains(t, out, "this machine: "+filepath.Join(home, ".config", "Claude", "claude_desktop_config.json"))
	_, err := os.Stat(filepath.Join(home, ".config"))
	assert.True(t, os.IsNotExist(err), "without --write nothing is written")

	for _, tc := range []struct {
		host, file, key string
		typed           bool
	}{
		{"claude-code", ".claude.json", "mcpServers", true},
		{"cursor", ".cursor/mcp.json", "mcpServers", false},
		{"vscode", ".config/Code/User/mcp.json", "servers", true},
		{"claude-desktop", ".config/Claude/claude_desktop_config.json", "mcpServers", false},
	} {
		t.Run(tc.host, func(t *testing.T) {
			code, out, _ := runCmd(t, "", "--manifest", example, "--cli", "/bin/true", "config", tc.host, "--write")
			require.Equal(t, exitOK, code, out)
			path := filepath.Join(home, tc.file)
			assert.Contains(t, out, "created "+path)
			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			var v map[string]map[string]map[string]any
			require.NoError(t, json.Unmarshal(raw, &v))
			e := v[tc.key]["aeat"]
			assert.Equal(t, exe, e["command"])
			abs, _ := filepath.Abs(example)
			assert.Equal(t, []any{"--manifest", abs, "--cli", "/bin/true"}, e["args"])
			if tc.typed {
				assert.Equal(t, "stdio", e["type"])
			} else {
				assert.NotContains(t, e, "type")
			}
			code, out, _ = runCmd(t, "", "--manifest", example, "--cli", "/bin/true", "config", tc.host, "--write")
			require.Equal(t, exitOK, code)
			assert.Contains(t, out, "nothing changed")
		})
	}

	code, _, errOut := runCmd(t, "", "--demo", "config", "emacs")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `"emacs" is not a host aeat-mcp config knows: claude-desktop, claude-code, cursor or vscode`)
}
