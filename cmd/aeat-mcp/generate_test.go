//go:build !windows

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/mcptest"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runBinary runs the built aeat-mcp.
func runBinary(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runBinaryWith(t, 3*time.Minute, nil, args...)
}

// runBinaryWith runs the built aeat-mcp with env (nil: this process's)
// within bound.
func runBinaryWith(t *testing.T, bound time.Duration, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	cmd := exec.CommandContext(ctx, binaryPath(t), args...)
	cmd.Env = env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

// serveManifest starts the built aeat-mcp on manifest, as a host does, and
// connects an MCP client to it over stdio.
func serveManifest(t *testing.T, manifest string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(binaryPath(t), "--manifest", manifest, "--log-level", "error")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), proctest.CacheEnv()}
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "generate-e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callOK(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	require.False(t, res.IsError, "%s: %s", name, resultText(res))
	return res
}

var resultText = mcptest.Text

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

// readOnly is an override entry that says a tool only reads (so a call
// needs no person's yes).
func readOnly(name string) string {
	return fmt.Sprintf(`{"name": %q, "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}`, name)
}

// TestGenerate_ClickE2E: a real Click CLI walked with its own Python, the
// manifest served by the built binary, one tool called over stdio.
func TestGenerate_ClickE2E(t *testing.T) {
	python := proctest.Python(t, "click")
	dir := t.TempDir()
	// A copy of the package stands for the installed one: the calls write
	// nothing into the checkout.
	lib := filepath.Join(dir, "lib")
	require.NoError(t, os.CopyFS(lib, os.DirFS("../../internal/generate/testdata/clickcli")))
	body, err := os.ReadFile(filepath.Join(lib, "clickdemo-script"))
	require.NoError(t, err)
	script := filepath.Join(dir, "bin", "clickdemo")
	require.NoError(t, os.MkdirAll(filepath.Dir(script), 0o755))
	require.NoError(t, os.WriteFile(script, []byte(fmt.Sprintf("#!%s\nimport sys; sys.path.insert(0, %q)\n%s", python, lib, body)), 0o755))
	overrides := writeFile(t, filepath.Join(dir, "overrides.json"), `{"version": 1, "tools": [`+readOnly("greet")+`]}`)
	manifest := filepath.Join(dir, "clickdemo.json")

	code, _, errOut := runBinary(t, "generate", "--from", "click:"+script, "--overrides", overrides, "-o", manifest)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, errOut, "wrote "+manifest+": 8 tools (1 read, 0 mutate, 7 live), 7 with guessed hints")
	assert.Contains(t, errOut, "warning: hints guessed for 6 tools (readOnlyHint, destructiveHint, idempotentHint, openWorldHint)")
	m, err := annotations.Load(manifest)
	require.NoError(t, err)
	assert.Equal(t, "bin/clickdemo", m.CLI.Command, "the program relative to the manifest")

	code, report, _ := runCmd(t, "", "--manifest", manifest, "validate")
	assert.Equal(t, exitOK, code, report)
	assert.Contains(t, report, `warning: hints guessed for 6 tools (readOnlyHint, destructiveHint, idempotentHint, openWorldHint): cautious values, not the CLI's word — check each against the CLI and set its annotations (generate --overrides):
  (top level): login
  book: book_list, book_tag
  remote: remote_status, remote_sync
  reports: reports_monthly
warning: hints guessed for 1 tools (readOnlyHint, idempotentHint, openWorldHint)`, "validate names every tool whose hints were guessed, grouped")
	assert.NotContains(t, report, "greet", "its hints were set by the overrides")

	cs := serveManifest(t, manifest)
	assert.Contains(t, toolNames(t, cs), "reports_monthly")
	res := callOK(t, cs, "greet", map[string]any{"name": "Ana", "count": 2, "shout": true, "tag": []string{"a", "b"}, "profile": "casa"})
	assert.Equal(t, map[string]any{"command": "greet", "format": "json", "profile": "casa",
		"greeting": []any{"HELLO Ana", "HELLO Ana"}, "tag": []any{"a", "b"}}, res.StructuredContent,
		"--format json and --profile before the verb, the verb's options after")
}

// cobraCLI is internal/generate/testdata/cobracli, built once.
func cobraCLI(t *testing.T) string { return proctest.Build(t, "internal/generate/testdata/cobracli") }

// TestGenerate_CobraE2E: a real Cobra CLI walked through its help, served,
// one tool called over stdio.
func TestGenerate_CobraE2E(t *testing.T) {
	dir := t.TempDir()
	bin := cobraCLI(t)
	overrides := writeFile(t, filepath.Join(dir, "overrides.json"), `{"tools": [`+readOnly("add")+`]}`)
	manifest := filepath.Join(dir, "cobracli.json")
	code, _, errOut := runBinary(t, "generate", "--from", "cobra:"+bin, "--overrides", overrides, "-o", manifest)
	require.Equal(t, exitOK, code, errOut)

	cs := serveManifest(t, manifest)
	res := callOK(t, cs, "add", map[string]any{"title": "-hola", "tag": []string{"x", "y"}, "priority": 5,
		"notify": "false", "remind": "90m", "profile": "casa"})
	var got struct {
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Flags   map[string]string `json:"flags"`
	}
	require.NoError(t, json.Unmarshal([]byte(resultText(res)), &got), resultText(res))
	assert.Equal(t, "cobracli add", got.Command)
	assert.Equal(t, []string{"-hola"}, got.Args, "a positional after --, even one that looks like a flag")
	for flag, want := range map[string]string{"tag": "[x,y]", "priority": "5", "notify": "false", "remind": "1h30m0s",
		"profile": "casa", "format": "text", "weight": "0.5"} {
		assert.Equal(t, want, got.Flags[flag], flag)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	bad, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"title": "x", "remind": "soon"}})
	require.NoError(t, err)
	assert.True(t, bad.IsError, "a duration pflag would refuse: refused before anything runs")
	assert.Contains(t, resultText(bad), "remind")
}

// TestGenerate_TerminalEscapes: escapes in a CLI's help (an OSC 8 link, a
// clear-screen, bold, a direction override) reach neither the manifest nor
// what a host lists; a manifest that holds them is refused, by validate and
// by the server, naming the field (issue 29 item 6: validate accepted
// them and tools/list served them raw).
func TestGenerate_TerminalEscapes(t *testing.T) {
	dir := t.TempDir()
	bin := cobraCLI(t)
	manifest := filepath.Join(dir, "cobracli.json")
	code, _, errOut := runBinary(t, "generate", "--from", "cobra:"+bin, "-o", manifest)
	require.Equal(t, exitOK, code, errOut)
	cs := serveManifest(t, manifest)
	list, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var docs *mcp.Tool
	for _, tl := range list.Tools {
		raw, err := json.Marshal(tl)
		require.NoError(t, err)
		assert.NotContains(t, string(raw), `\u001b`, tl.Name, "JSON writes ESC as \\u001b")
		assert.NotContains(t, string(raw), "\u202e", tl.Name)
		if tl.Name == "docs" {
			docs = tl
		}
	}
	require.NotNil(t, docs)
	assert.Equal(t, "Open the docs", docs.Title)
	assert.Equal(t, "Open the docs in a browser.\nPay yrtne now.", docs.Description)

	raw, err := os.ReadFile(manifest)
	require.NoError(t, err)
	dirty := strings.Replace(string(raw), `"Open the docs in a browser.`, `"Open the \u001b]8;;https://evil.invalid/\u0007docs\u001b]8;;\u0007 in a browser.`, 1)
	require.NotEqual(t, string(raw), dirty)
	writeFile(t, manifest, dirty)
	code, _, errOut = runCmd(t, "", "--manifest", manifest, "validate")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `tool "docs": description: holds a terminal escape sequence "\x1b]8;;https://evil.invali…" at byte 9: hosts print this text and models read it; remove it`)
	code, _, errOut = runBinary(t, "--manifest", manifest)
	assert.Equal(t, exitUsage, code, "the server does not start on it")
	assert.Contains(t, errOut, `tool "docs": description: holds a terminal escape sequence`)
}

// TestGenerate_AeatMCPItself: aeat-mcp is a Cobra CLI too.
func TestGenerate_AeatMCPItself(t *testing.T) {
	dir := t.TempDir()
	overrides := writeFile(t, filepath.Join(dir, "overrides.json"), `{"tools": [`+readOnly("version")+`]}`)
	manifest := filepath.Join(dir, "aeat-mcp.json")
	code, _, errOut := runBinary(t, "generate", "--from", "cobra:"+binaryPath(t), "--overrides", overrides, "-o", manifest)
	require.Equal(t, exitOK, code, errOut)
	m, err := annotations.Load(manifest)
	require.NoError(t, err)
	tools := map[string]*annotations.Tool{}
	for _, tl := range m.Tools {
		tools[tl.Name] = tl
	}
	for _, name := range []string{"call", "config", "doctor", "generate", "serve", "tools", "validate", "version"} {
		assert.Contains(t, tools, name)
	}
	assert.NotContains(t, tools, "help")
	tool, ok := tools["call"].Param("tool")
	require.True(t, ok)
	assert.True(t, tool.Positional && tool.Required, "call TOOL")
	arg, _ := tools["call"].Param("arg")
	assert.True(t, arg.IsArray(), "--arg stringArray")
	from, ok := tools["generate"].Param("from")
	require.True(t, ok)
	assert.Equal(t, "--from", from.Flag)
	manifestParam, ok := tools["validate"].Param("manifest")
	require.True(t, ok, "the root's persistent flags are global params")
	assert.True(t, manifestParam.Shared)

	cs := serveManifest(t, manifest)
	res := callOK(t, cs, "version", nil)
	assert.Contains(t, resultText(res), "aeat-mcp")
}

// TestGenerate_Check: --check passes on a fresh manifest and fails, with a
// readable difference, when the overrides or the tree change.
func TestGenerate_Check(t *testing.T) {
	// The real aeat's command tree, pinned in every clone.
	data, err := os.ReadFile(filepath.Join(proctest.AeatFacts(), "commands.json"))
	require.NoError(t, err)
	dir := t.TempDir()
	tree := writeFile(t, filepath.Join(dir, "commands.json"), string(data))
	overrides := writeFile(t, filepath.Join(dir, "overrides.json"), `{"version": 1, "cli": {"command": "aeat"},
		"tools": [{"name": "app_ledger_list", "title": "List ledger entries"}]}`)
	manifest := filepath.Join(dir, "aeat.full.manifest.json")
	gen := []string{"generate", "--from", "tree:" + tree, "--overrides", overrides}

	code, _, errOut := runBinary(t, append(gen, "-o", manifest)...)
	require.Equal(t, exitOK, code, errOut)
	code, out, errOut := runBinary(t, append(gen, "--check", manifest)...)
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "ok: "+manifest+" is what a fresh generation gives (303 tools")

	writeFile(t, overrides, `{"version": 1, "cli": {"command": "aeat"}, "tools": [{"name": "app_ledger_list", "title": "List the ledger"}]}`)
	code, out, errOut = runBinary(t, append(gen, "--check", manifest)...)
	assert.Equal(t, exitFailure, code)
	assert.Equal(t, "  tool app_ledger_list: title: the manifest has \"List ledger entries\"; a fresh generation has \"List the ledger\"\n", out)
	assert.Contains(t, errOut, manifest+" is not what a fresh generation gives (1 differences above): regenerate it")

	writeFile(t, overrides, `{"version": 1, "cli": {"command": "aeat"}, "tools": [{"name": "app_ledger_list", "title": "List ledger entries"}]}`)
	var cmds []map[string]any
	require.NoError(t, json.Unmarshal(data, &cmds))
	for i, c := range cmds {
		if fmt.Sprint(c["path"]) == "[app ledger view]" {
			cmds = append(cmds[:i], cmds[i+1:]...)
			break
		}
	}
	for _, c := range cmds {
		if fmt.Sprint(c["path"]) == "[app ledger status]" {
			c["classification"].(map[string]any)["destructive"] = true
		}
	}
	changed, err := json.Marshal(cmds)
	require.NoError(t, err)
	writeFile(t, tree, string(changed))
	code, out, _ = runBinary(t, append(gen, "--check", manifest)...)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, out, "tool app_ledger_view: only in the manifest (gone from the CLI, or left out by the overrides)")
	assert.Contains(t, out, "tool app_ledger_status: annotations.destructiveHint: the manifest has false; a fresh generation has true")
}

func TestGenerate_UsageErrors(t *testing.T) {
	dir := t.TempDir()
	tree := writeFile(t, filepath.Join(dir, "tree.json"), `[{"path": ["x"], "params": []}]`)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no source", []string{"generate"}, `--from "": give tree:FILE`},
		{"an unknown kind", []string{"generate", "--from", "argparse:x"}, `--from "argparse:x": give tree:FILE`},
		{"-o and --check", []string{"generate", "--from", "tree:" + tree, "-o", "a", "--check", "b"}, "-o and --check: give one"},
		{"--python without click", []string{"generate", "--from", "tree:" + tree, "--python", "python3"}, "--python is for --from click:PROGRAM"},
		{"not a tree", []string{"generate", "--from", "tree:" + writeFile(t, filepath.Join(dir, "bad.json"), `{"a": 1}`)}, "not a command tree"},
		{"no program", []string{"generate", "--from", "tree:" + tree}, "cli.command: missing — the tree does not name the program"},
		{"bad overrides", []string{"generate", "--from", "tree:" + tree, "--overrides", writeFile(t, filepath.Join(dir, "o.json"), `{"tools": [{"name": "y"}]}`)},
			`o.json: tools[0] ("y"): names no generated tool`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, "", tc.args...)
			assert.Equal(t, exitUsage, code, out)
			assert.Contains(t, errOut, tc.want)
		})
	}
	code, out, _ := runCmd(t, "", "generate", "--from", "tree:"+tree, "--overrides", writeFile(t, filepath.Join(dir, "p.json"), `{"cli": {"command": "x"}}`))
	assert.Equal(t, exitOK, code)
	assert.True(t, strings.HasPrefix(out, "{\n  \"version\": 1,\n  \"cli\": {\n    \"command\": \"x\"\n  },"), out)
}

func TestManifestCommand(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	for _, tc := range []struct{ program, manifest, want string }{
		{"aeat", "/x/m.json", "aeat"},
		{"/opt/bin/aeat", "/opt/m.json", "bin/aeat"},
		{"/opt/aeat", "/opt/m.json", "./aeat"},
		{"/usr/bin/aeat", "/home/me/m.json", "../../usr/bin/aeat"},
		{filepath.Join(wd, "tool"), "", "./tool"},
	} {
		got, err := manifestCommand(tc.program, tc.manifest)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%s for %q", tc.program, tc.manifest)
	}
}

// TestGenerate_SuggestOverrides: --suggest-overrides writes an entry for
// each guessed tool with its evidence; --overrides refuses it until a
// person deleted its review key; then the tools' hints are the person's.
func TestGenerate_SuggestOverrides(t *testing.T) {
	dir := t.TempDir()
	bin := cobraCLI(t)
	suggested := filepath.Join(dir, "suggested.json")
	manifest := filepath.Join(dir, "cobracli.json")
	code, _, errOut := runBinary(t, "generate", "--from", "cobra:"+bin, "-o", manifest, "--suggest-overrides", suggested)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, errOut, "wrote "+suggested+": 7 tools to review (2 read, 3 write, 1 destroy, 1 unknown by their words)")
	data, err := os.ReadFile(suggested)
	require.NoError(t, err)
	var file struct {
		Tools []map[string]any `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(data, &file))
	require.Len(t, file.Tools, 7)
	assert.Equal(t, "add", file.Tools[0]["name"])
	assert.Equal(t, map[string]any{"guess": "writes", "evidence": []any{`name: "add", a word of verbs that write`, `help: "Add a note"`,
		"flags: none of --dry-run, --yes, --force"}, "then": file.Tools[0]["review"].(map[string]any)["then"]}, file.Tools[0]["review"])

	code, _, errOut = runBinary(t, "generate", "--from", "cobra:"+bin, "--overrides", suggested, "-o", manifest)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `tools[0] ("add"): a suggestion not reviewed yet: check its evidence against the CLI, keep or change its annotations, then delete "review"`)

	for _, e := range file.Tools {
		delete(e, "review")
	}
	reviewed, err := json.Marshal(file)
	require.NoError(t, err)
	overrides := writeFile(t, filepath.Join(dir, "overrides.json"), string(reviewed))
	code, _, errOut = runBinary(t, "generate", "--from", "cobra:"+bin, "--overrides", overrides, "-o", manifest)
	require.Equal(t, exitOK, code, errOut)
	assert.NotContains(t, errOut, "warning: hints guessed")
	assert.Contains(t, errOut, "wrote "+manifest+": 7 tools (0 read, 0 mutate, 7 live)", "openWorldHint stays: a help does not say whether the CLI reaches the network")

	code, _, errOut = runBinary(t, "generate", "--from", "cobra:"+bin, "--check", manifest, "--suggest-overrides", suggested)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "--suggest-overrides and --check: give one")
}
