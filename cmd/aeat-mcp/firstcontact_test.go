//go:build !windows

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What a person meets in the first minutes (the newcomer's review,
// s45/h79): an entry config writes must reach the CLI, or say why.

// cliOnPATH puts an executable "aeat" in a directory of its own and makes
// that directory the whole PATH, as a shell with pipx's ~/.local/bin has
// it; it returns the executable's path.
func cliOnPATH(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	aeat := filepath.Join(dir, "aeat")
	require.NoError(t, os.WriteFile(aeat, []byte("#!/bin/sh\nexit 0\n"), 0o755))
	t.Setenv("PATH", dir)
	return aeat
}

// configEntry is the args of the entry `config claude-desktop --write`
// wrote into file.
func configEntry(t *testing.T, file string) []any {
	t.Helper()
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	var v map[string]map[string]map[string]any
	require.NoError(t, json.Unmarshal(raw, &v))
	args, _ := v["mcpServers"]["aeat"]["args"].([]any)
	return args
}

// TestConfig_PinsACLIFoundOnlyOnPATH: the CLI resolves through this
// shell's PATH, which a host does not have (GUI hosts on macOS start
// servers with PATH=/usr/bin:/bin): the entry carries --cli with its
// absolute path — also when --cli named it bare.
func TestConfig_PinsACLIFoundOnlyOnPATH(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	aeat := cliOnPATH(t)
	abs, _ := filepath.Abs(example)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"from the manifest", []string{"--manifest", example}},
		{"--cli bare", []string{"--manifest", example, "--cli", "aeat"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "claude_desktop_config.json")
			code, out, errOut := runCmd(t, "", append(tc.args, "config", "claude-desktop", "--write", "--file", file)...)
			require.Equal(t, exitOK, code, out+errOut)
			assert.Equal(t, []any{"--manifest", abs, "--cli", aeat}, configEntry(t, file))
			assert.Empty(t, errOut)
		})
	}
}

// TestConfig_SaysWhenTheCLIDoesNotResolve: the entry is still printed (or
// written), doctor's problem and fix are on stderr, and the exit is 1 as
// doctor's and validate's are in that state.
func TestConfig_SaysWhenTheCLIDoesNotResolve(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	code, out, errOut := runCmd(t, "", "--manifest", example, "config", "claude-desktop")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, out, `"mcpServers"`, "the entry is printed all the same")
	assert.Contains(t, errOut, "will not reach the CLI")
	assert.Contains(t, errOut, "the CLI does not resolve")
	assert.Contains(t, errOut, "fix: install it")

	file := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	code, out, errOut = runCmd(t, "", "--manifest", example, "config", "claude-desktop", "--write", "--file", file)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, out, "created "+file)
	assert.Contains(t, errOut, "the entry is written, but the host will not reach the CLI")
	assert.FileExists(t, file)
}

// TestLogFlags_RefusedByEveryCommand: a log flag serve stops on is refused
// by every command (exit 2, the flag named, what it takes), so validate
// cannot say ok and config cannot write it into a host's file.
func TestLogFlags_RefusedByEveryCommand(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	missing := filepath.Join(t.TempDir(), "absent", "x.log")
	for _, bad := range []struct {
		flags []string
		says  string
	}{
		{[]string{"--log-level", "verbose"}, `--log-level "verbose": must be debug, info, warn or error`},
		{[]string{"--log-format", "xml"}, `--log-format "xml": must be text or json`},
		{[]string{"--log-file", missing}, "--log-file " + missing + ": its directory"},
	} {
		for _, command := range [][]string{{"serve"}, {"doctor"}, {"validate"}, {"tools"}, {"config", "cursor", "--write"}} {
			t.Run(bad.flags[0]+"/"+command[0], func(t *testing.T) {
				args := append(append([]string{"--demo"}, bad.flags...), command...)
				code, out, errOut := runCmd(t, "", args...)
				assert.Equal(t, exitUsage, code, out)
				assert.Contains(t, errOut, bad.says)
			})
		}
	}
	assert.NoFileExists(t, filepath.Join(home, ".cursor", "mcp.json"), "config wrote nothing")
}

// bundleEnv sets the environment the MCP Bundle's manifest gives the
// server (packaging/mcpb/manifest.json), with its Language setting typed
// as language and the aeat program /bin/true; every other setting is left
// at its empty default, and the bundled manifest is the example.
func bundleEnv(t *testing.T, language string) {
	t.Helper()
	raw, err := os.ReadFile("../../packaging/mcpb/manifest.json")
	require.NoError(t, err)
	var b struct {
		Server struct {
			MCPConfig struct {
				Env map[string]string `json:"env"`
			} `json:"mcp_config"`
		} `json:"server"`
	}
	require.NoError(t, json.Unmarshal(raw, &b))
	abs, _ := filepath.Abs(example)
	for name, v := range b.Server.MCPConfig.Env {
		switch v {
		case "${__dirname}/server/aeat.manifest.json":
			v = abs
		case "${user_config.aeat_cli}":
			v = "/bin/true"
		case "${user_config.language}":
			v = language
		default:
			require.Regexp(t, `^\$\{user_config\.[a-z_]+\}$`, v, "%s: a setting left at its empty default", name)
			v = ""
		}
		t.Setenv(name, v)
	}
}

// TestBundle_LanguageSettingNeverStopsTheServer: what a person types in
// the bundle's Language field reaches the CLI as the language it means
// ("ES", "es-ES"); one the CLI does not offer ("gl", which aeat-mcp's
// messages do) or no language at all ("Spanish") is logged and left out —
// the server starts either way, where each of these used to exit 2.
func TestBundle_LanguageSettingNeverStopsTheServer(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, tc := range []struct {
		typed, cliLang, logged string
	}{
		{typed: "es", cliLang: "es"},
		{typed: "ES", cliLang: "es"},
		{typed: "es-ES", cliLang: "es"},
		{typed: "ca_ES.UTF-8", cliLang: "ca"},
		{typed: "gl", logged: "AEAT_MCP_BUNDLE_LANG=gl: lang: must be one of es, en, ca, hu"},
		{typed: "Spanish", logged: "AEAT_MCP_BUNDLE_LANG=Spanish"},
	} {
		t.Run(tc.typed, func(t *testing.T) {
			bundleEnv(t, tc.typed)
			code, _, errOut := runCmd(t, "")
			assert.Equal(t, exitOK, code, "the server starts and ends at EOF: %s", errOut)
			code, out, errOut := runCmd(t, "", "call", "ledger_list", "--dry-run")
			require.Equal(t, exitOK, code, errOut)
			if tc.cliLang != "" {
				assert.Contains(t, out, "--lang="+tc.cliLang+" app ledger list")
			} else {
				assert.NotContains(t, out, "--lang")
			}
			code, out, _ = runCmd(t, "", "validate")
			assert.Equal(t, exitOK, code)
			if tc.logged != "" {
				assert.Contains(t, out, "warning: "+tc.logged)
			}
		})
	}
	t.Run("a --global wins", func(t *testing.T) {
		bundleEnv(t, "es")
		code, out, errOut := runCmd(t, "", "--global", "lang=hu", "call", "ledger_list", "--dry-run")
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, "--lang=hu app")
	})
}

// TestDoctor_SaysWhyMessagesAreInEnglish: a locale that names no language
// is set, not absent; a language aeat-mcp does not offer did not choose
// English.
func TestDoctor_SaysWhyMessagesAreInEnglish(t *testing.T) {
	for _, name := range []string{"AEAT_MCP_LANG", "LC_ALL", "LC_MESSAGES", "LANG"} {
		t.Setenv(name, "")
	}
	for _, tc := range []struct {
		lang, says string
	}{
		{"C.UTF-8", "note     messages in English: LANG=C.UTF-8 names no language (--lang es for Spanish)"},
		{"de_DE.UTF-8", "note     messages in English: LANG=de_DE.UTF-8 asks for de, which aeat-mcp does not offer (en, es, ca, gl, eu)"},
		{"gl_ES.UTF-8", "ok       messages in gl (from LANG=gl_ES.UTF-8)"},
		{"", "note     messages in English: no AEAT_MCP_LANG, LC_ALL, LC_MESSAGES or LANG is set"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LANG", tc.lang)
			_, out, _ := runCmd(t, "", "--demo", "doctor")
			assert.Contains(t, out, tc.says)
		})
	}
}

// TestCLIGiven_AdviceNamesThePath: a --cli that names no executable file is
// a path to check — the call's refusal and doctor say so, rather than
// "install it … or start aeat-mcp with --cli" to a person who did — and
// the places tried name a directory PATH holds twice once.
func TestCLIGiven_AdviceNamesThePath(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	code, out, _ := runCmd(t, "", "--demo", "--log-level", "error", "--cli", "/nonexistent/aeat", "call", "profile_show")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, out, `the CLI given with --cli (or AEAT_MCP_CLI) is not available (CLI unavailable: --cli "/nonexistent/aeat" (or AEAT_MCP_CLI): no such executable file (tried /nonexistent/aeat): check the path)`)
	assert.NotContains(t, out, "Install it")

	_, out, _ = runCmd(t, "", "--demo", "--cli", "/nonexistent/aeat", "doctor")
	assert.Contains(t, out, "fix: check the path given with --cli (or AEAT_MCP_CLI)")

	dir := t.TempDir()
	t.Setenv("PATH", dir+":"+dir)
	code, out, _ = runCmd(t, "", "--manifest", example, "validate")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, out, `"aeat" is not an executable file (tried `)
	assert.Equal(t, 1, strings.Count(out, filepath.Join(dir, "aeat")), "each place once: %s", out)
	assert.Contains(t, out, "fix: install it", "cli.command not found: a CLI to install")
}

// TestUsageErrors_SayWhatToDo: where cobra's own words ("accepts 1
// arg(s), received 0", "invalid argument", "unknown flag") say only what
// is wrong, each names what would be right, or where to read it; still
// exit 2.
func TestUsageErrors_SayWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--demo", "config"}, "config needs a host: claude-desktop, claude-code, cursor or vscode"},
		{[]string{"--demo", "config", "claude"}, `"claude" is not a host aeat-mcp config knows: claude-desktop, claude-code, cursor or vscode`},
		{[]string{"secret", "set"}, "secret set needs one variable's name (a cli.env.keychain entry of the manifest), e.g. aeat-mcp secret set CADRUMO_SECRET_PASSPHRASE"},
		{[]string{"secret", "delete"}, "e.g. aeat-mcp secret delete CADRUMO_SECRET_PASSPHRASE"},
		{[]string{"--bogus"}, "unknown flag: --bogus (the flags: aeat-mcp --help)"},
		{[]string{"--demo", "config", "cursor", "--bogus"}, "unknown flag: --bogus (the flags: aeat-mcp config --help)"},
		{[]string{"bogus"}, `unknown command "bogus" for "aeat-mcp" (the commands: aeat-mcp --help)`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, errOut := runCmd(t, "", tc.args...)
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, errOut, tc.says)
		})
	}
}

// TestConfigFile_MakesNoFoldersItWasNotAsked: --file names a path the
// person typed: a missing folder is a typo until they say otherwise, so it
// is refused and nothing is made — except a host's project folder
// (.vscode, .cursor) in a folder that is there, as the help's example
// writes it.
func TestConfigFile_MakesNoFoldersItWasNotAsked(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	root := t.TempDir()
	typo := filepath.Join(root, "absent", "dir", "x.json")
	code, out, errOut := runCmd(t, "", "--demo", "config", "claude-desktop", "--write", "--file", typo)
	assert.Equal(t, exitFailure, code, out)
	assert.Contains(t, errOut, "--file "+typo+": the folder "+filepath.Dir(typo)+" is not there")
	assert.NoDirExists(t, filepath.Join(root, "absent"))

	vscode := filepath.Join(root, "project", ".vscode", "mcp.json")
	require.NoError(t, os.Mkdir(filepath.Join(root, "project"), 0o755))
	code, out, errOut = runCmd(t, "", "--demo", "config", "vscode", "--write", "--file", vscode)
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "created "+vscode)
}

func TestGoRunBinary(t *testing.T) {
	cache := "/home/me/.cache/go-build"
	for exe, want := range map[string]bool{
		cache + "/b6/0123abcd-d/aeat-mcp":              true, // go run, Go 1.24 on
		"/tmp/go-build3981/b001/exe/aeat-mcp":          true, // go run, before
		"/tmp/go-build3981/b001/aeat-mcp.test":         false,
		"/home/me/aeat-mcp/aeat-mcp":                   false,
		"/home/me/.cache/go-buildx/aeat-mcp":           false,
		"/opt/homebrew/Cellar/aeat-mcp/1.2.3/bin/aeat": false,
	} {
		assert.Equal(t, want, goRunBinary(exe, cache), exe)
	}
}

// TestConfig_FromGoRun: a binary `go run` built sits where the go command
// removes it; config warns when it prints the entry, and refuses --write
// (nothing written), naming the go build -o step.
func TestConfig_FromGoRun(t *testing.T) {
	data, err := os.ReadFile(binaryPath(t))
	require.NoError(t, err)
	home := t.TempDir()
	cache := filepath.Join(home, "gocache")
	exe := filepath.Join(cache, "b6", "0123abcd-d", "aeat-mcp")
	require.NoError(t, os.MkdirAll(filepath.Dir(exe), 0o755))
	require.NoError(t, os.WriteFile(exe, data, 0o755))
	run := func(args ...string) (int, string, string) {
		cmd := exec.Command(exe, args...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home, "GOCACHE=" + cache}
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return code, out.String(), errOut.String()
	}
	code, out, errOut := run("--demo", "config", "cursor")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, `"mcpServers"`)
	assert.Contains(t, errOut, "warning: this aeat-mcp runs from where `go run` built it")
	assert.Contains(t, errOut, "go build -o ~/aeat-mcp/aeat-mcp ./cmd/aeat-mcp")

	code, _, errOut = run("--demo", "config", "cursor", "--write")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errOut, "go build -o ~/aeat-mcp/aeat-mcp ./cmd/aeat-mcp")
	assert.NoFileExists(t, filepath.Join(home, ".cursor", "mcp.json"))
}
