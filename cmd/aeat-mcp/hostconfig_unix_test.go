//go:build !windows

package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMerge_ThroughSymlinks: a dotfile manager's link stays a link; the
// file it leads to is written (and created, when the link dangles).
func TestMerge_ThroughSymlinks(t *testing.T) {
	home := t.TempDir()
	dotfiles := filepath.Join(home, "dotfiles")
	require.NoError(t, os.MkdirAll(dotfiles, 0o700))
	real := filepath.Join(dotfiles, "claude.json")
	require.NoError(t, os.WriteFile(real, []byte(`{"mcpServers": {}}`), 0o600))
	link := filepath.Join(home, ".claude.json")
	require.NoError(t, os.Symlink("dotfiles/claude.json", link)) // relative, as stow makes them

	res, err := merge{path: link, key: "mcpServers", name: "aeat", entry: serverEntry{Command: "/x"}, now: mergeNow}.run()
	require.NoError(t, err)
	assert.True(t, res.changed)
	assert.Equal(t, real, res.target)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the link is still a link")
	got, _ := os.ReadFile(real)
	assert.Contains(t, string(got), `"aeat"`)
	assert.FileExists(t, link+".aeat-mcp-backup-20261130T164000", "the backup is beside the name the person uses")

	dangling := filepath.Join(home, ".cursor-mcp.json")
	require.NoError(t, os.Symlink(filepath.Join(dotfiles, "cursor", "mcp.json"), dangling))
	// The host's own file (makeDirs): the link's folder is made.
	res, err = merge{path: dangling, key: "mcpServers", name: "aeat", entry: serverEntry{Command: "/x"}, now: mergeNow, makeDirs: true}.run()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dotfiles, "cursor", "mcp.json"), res.target)
	assert.FileExists(t, res.target)
	fi, _ = os.Lstat(dangling)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink)

	loop := filepath.Join(home, "loop.json")
	require.NoError(t, os.Symlink("loop.json", loop))
	_, err = merge{path: loop, key: "mcpServers", name: "aeat", entry: serverEntry{Command: "/x"}, now: mergeNow}.run()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "too many levels")
}

// TestStableExecutable: started through Homebrew's link, the entry names
// the link (brew upgrade removes the Cellar folder, not the link); a link
// into an unversioned folder is resolved as before.
func TestStableExecutable(t *testing.T) {
	root := t.TempDir()
	mk := func(p string) string {
		p = filepath.Join(root, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755))
		return p
	}
	ln := func(target, p string) string {
		p = filepath.Join(root, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.Symlink(target, p))
		return p
	}
	cellar := mk("opt/homebrew/Cellar/aeat-mcp/1.2.3/bin/aeat-mcp")
	brewBin := ln("../Cellar/aeat-mcp/1.2.3/bin/aeat-mcp", "opt/homebrew/bin/aeat-mcp")
	cask := mk("opt/homebrew/Caskroom/aeat-mcp/1.2.3/aeat-mcp")
	caskBin := ln(cask, "usr/local/bin/aeat-mcp")
	plain := mk("src/aeat-mcp/aeat-mcp")
	myBin := ln(plain, "home/bin/aeat-mcp")
	noLook := func(string) (string, error) { return "", errors.New("not on PATH") }
	onPath := func(p string) func(string) (string, error) {
		return func(string) (string, error) { return p, nil }
	}

	for _, tc := range []struct {
		name, exe, invoked string
		lookPath           func(string) (string, error)
		want               string
	}{
		// Linux: os.Executable is already resolved; argv[0] says how it was started.
		{"Linux, started by PATH through brew's link", cellar, "aeat-mcp", onPath(brewBin), brewBin},
		{"Linux, started by the link's path", cellar, brewBin, noLook, brewBin},
		// macOS: os.Executable may be the link itself.
		{"macOS, os.Executable is the link", brewBin, "aeat-mcp", noLook, brewBin},
		{"a cask's link", cask, caskBin, noLook, caskBin},
		{"started in the Cellar itself", cellar, cellar, noLook, cellar},
		{"a link into an unversioned folder is resolved", plain, myBin, noLook, plain},
		{"argv[0] is another program", cellar, "/bin/sh", noLook, cellar},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, stableExecutable(tc.exe, tc.invoked, tc.lookPath))
		})
	}
}
