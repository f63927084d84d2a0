package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var mergeNow = time.Date(2026, 11, 30, 16, 40, 0, 0, time.UTC)

// fakeMachine is a machine of another OS whose file system is dir.
func fakeMachine(goos string, env map[string]string, home string) machine {
	return machine{goos: goos, getenv: func(k string) string { return env[k] }, home: home, glob: filepath.Glob,
		exists: func(p string) bool { _, err := os.Stat(p); return err == nil }}
}

// TestClaudeDesktopPath: the MSIX app's file when its package folder
// exists, the classic installer's otherwise; on macOS and Linux their own.
func TestClaudeDesktopPath(t *testing.T) {
	local, appdata := t.TempDir(), t.TempDir()
	env := map[string]string{"LOCALAPPDATA": local, "APPDATA": appdata}
	win := fakeMachine("windows", env, `C:\Users\me`)
	classic := filepath.Join(appdata, "Claude", "claude_desktop_config.json")
	msix := func(pkg string) string {
		return filepath.Join(local, "Packages", pkg, "LocalCache", "Roaming", "Claude", "claude_desktop_config.json")
	}

	loc, err := claudeDesktopPath(win)
	require.NoError(t, err)
	assert.Equal(t, classic, loc.path, "no package: the older installer's file")
	assert.Contains(t, loc.why, "classic")

	require.NoError(t, os.MkdirAll(filepath.Join(local, "Packages", "Claude_pzs8sxrjxfjjc"), 0o700))
	require.NoError(t, os.MkdirAll(filepath.Join(local, "Packages", "Claude-3p"), 0o700)) // not the app's package
	loc, err = claudeDesktopPath(win)
	require.NoError(t, err)
	assert.Equal(t, msix("Claude_pzs8sxrjxfjjc"), loc.path, "the package exists (its LocalCache not yet): the MSIX app's file")
	assert.Contains(t, loc.why, "MSIX")

	require.NoError(t, os.MkdirAll(filepath.Join(local, "Packages", "Claude_other"), 0o700))
	_, err = claudeDesktopPath(win)
	require.Error(t, err, "two packages, neither with a file: which one runs is unknown")
	assert.Contains(t, err.Error(), "--file")
	assert.Contains(t, err.Error(), msix("Claude_other"))

	require.NoError(t, os.MkdirAll(filepath.Dir(msix("Claude_other")), 0o700))
	require.NoError(t, os.WriteFile(msix("Claude_other"), []byte("{}"), 0o600))
	loc, err = claudeDesktopPath(win)
	require.NoError(t, err)
	assert.Equal(t, msix("Claude_other"), loc.path, "of two packages, the one with a file")

	noLocal := fakeMachine("windows", map[string]string{"APPDATA": appdata}, `C:\Users\me`)
	loc, err = claudeDesktopPath(noLocal)
	require.NoError(t, err)
	assert.Equal(t, classic, loc.path)

	loc, err = claudeDesktopPath(fakeMachine("darwin", env, "/Users/me"))
	require.NoError(t, err)
	assert.Equal(t, filepath.Join("/Users/me", "Library", "Application Support", "Claude", "claude_desktop_config.json"), loc.path)
	assert.Empty(t, loc.why)
	loc, err = claudeDesktopPath(fakeMachine("linux", map[string]string{"XDG_CONFIG_HOME": "/x"}, "/home/me"))
	require.NoError(t, err)
	assert.Equal(t, filepath.Join("/x", "Claude", "claude_desktop_config.json"), loc.path)
}

// TestMerge_UniqueBackups: two writes in the same second keep two backups,
// each the file as it was before its write.
func TestMerge_UniqueBackups(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"v": 0}`), 0o600))
	var backups []string
	for i, name := range []string{"a", "b", "c"} {
		res, err := merge{path: path, key: "mcpServers", name: name, entry: serverEntry{Command: "/x"}, now: mergeNow}.run()
		require.NoError(t, err, i)
		backups = append(backups, res.backup)
	}
	assert.Equal(t, []string{
		path + ".aeat-mcp-backup-20261130T164000",
		path + ".aeat-mcp-backup-20261130T164000-2",
		path + ".aeat-mcp-backup-20261130T164000-3",
	}, backups)
	first, _ := os.ReadFile(backups[0])
	assert.Equal(t, `{"v": 0}`, string(first), "the original is still there")
	second, _ := os.ReadFile(backups[1])
	assert.Contains(t, string(second), `"a"`)
	assert.NotContains(t, string(second), `"b"`)
}

// TestMerge_RefusesReadOnly: a file its owner made read-only is not
// rewritten (a rename would replace it regardless of its mode).
func TestMerge_RefusesReadOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"mcpServers": {}}`), 0o400))
	_, err := merge{path: path, key: "mcpServers", name: "aeat", entry: serverEntry{Command: "/x"}, now: mergeNow}.run()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "read-only")
	assert.Contains(t, err.Error(), "was not changed")
	got, _ := os.ReadFile(path)
	assert.Equal(t, `{"mcpServers": {}}`, string(got))
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no backup, no temporary file")
}

// TestMerge_RetriesWhenTheFileChanges: another program writing the file
// between the read and the replace loses nothing: the merge starts over
// from what it wrote.
func TestMerge_RetriesWhenTheFileChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"mcpServers": {}}`), 0o600))
	writes := 0
	res, err := merge{path: path, key: "mcpServers", name: "aeat", entry: serverEntry{Command: "/x"}, now: mergeNow,
		beforeReplace: func(target string) {
			if writes < 2 {
				writes++
				require.NoError(t, os.WriteFile(target, []byte(`{"mcpServers": {}, "theirs": `+strings.Repeat("1", writes)+`}`), 0o600))
			}
		}}.run()
	require.NoError(t, err)
	assert.True(t, res.changed)
	var v map[string]any
	got, _ := os.ReadFile(path)
	require.NoError(t, json.Unmarshal(got, &v))
	assert.EqualValues(t, 11, v["theirs"], "the other program's last write is kept")
	assert.Contains(t, v["mcpServers"], "aeat")
	backups, _ := filepath.Glob(path + ".aeat-mcp-backup-*")
	assert.Len(t, backups, 1, "the abandoned tries' backups are removed")

	// A file that never stops changing is left alone, with an error.
	_, err = merge{path: path, key: "mcpServers", name: "other", entry: serverEntry{Command: "/x"}, now: mergeNow,
		beforeReplace: func(target string) {
			writes++
			require.NoError(t, os.WriteFile(target, []byte(`{"n": `+strings.Repeat("1", writes)+`}`), 0o600))
		}}.run()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kept changing")
}

// TestRetryRename is the Windows replace's policy, run here with the
// errors Windows gives.
func TestRetryRename(t *testing.T) {
	sharing := errors.New("The process cannot access the file because it is being used by another process.")
	transient := func(err error) bool { return err == sharing }
	noRO := func() (bool, error) { return false, nil }
	var slept time.Duration
	sleep := func(d time.Duration) { slept += d }

	fails := 3
	err := retryRename(func() error {
		if fails > 0 {
			fails--
			return sharing
		}
		return nil
	}, transient, noRO, sleep, time.Second)
	assert.NoError(t, err, "a sharing violation that passes is retried")
	assert.Positive(t, slept)

	slept = 0
	err = retryRename(func() error { return sharing }, transient, noRO, sleep, time.Second)
	assert.Equal(t, sharing, err, "one that lasts ends when the budget is spent")
	assert.GreaterOrEqual(t, slept, time.Second)

	denied := errors.New("Access is denied.")
	readOnly := true
	err = retryRename(func() error {
		if readOnly {
			return denied
		}
		return nil
	}, transient, func() (bool, error) { had := readOnly; readOnly = false; return had, nil }, sleep, time.Second)
	assert.NoError(t, err, "a read-only destination has its attribute cleared, then the rename is tried again")

	calls := 0
	err = retryRename(func() error { calls++; return denied }, transient, noRO, sleep, time.Second)
	assert.Equal(t, denied, err)
	assert.Equal(t, 1, calls, "a lasting failure that is not transient is not retried")
}
