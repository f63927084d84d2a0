//go:build !windows

package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const example = "../../examples/aeat.manifest.json"

func TestTools(t *testing.T) {
	code, out, _ := runCmd(t, "", "--demo", "tools")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "6 tools from (built-in demo) (the demo's built-in fake aeat: /")
	assert.NotContains(t, out, `the CLI "aeat-mcp"`, "the demo's CLI is a fake aeat, not a CLI called aeat-mcp")
	assert.Regexp(t, `modelo_303_pull_stuck\s+live\s+5s \(own\)\s+read-only,idempotent,open-world`, out)
	assert.Regexp(t, `modelo_303_pull\s+live\s+7m\s+.*year\*:integer period\*:string nif:string`, out)

	code, out, _ = runCmd(t, "", "--demo", "--read-only", "--timeout-live", "90s", "tools", "--json")
	require.Equal(t, exitOK, code)
	var list toolsJSON
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	names := map[string]toolJSON{}
	for _, tl := range list.Tools {
		names[tl.Name] = tl
	}
	assert.NotContains(t, names, "modelo_303_submit")
	assert.Equal(t, []hiddenJSON{{"modelo_303_submit", "read_only"}}, list.Hidden)
	assert.Equal(t, 90.0, names["modelo_303_pull"].CeilingSeconds, "the flag's ceiling")
	assert.Equal(t, 5.0, names["modelo_303_pull_stuck"].CeilingSeconds, "a tool's own timeout wins")
	assert.True(t, names["modelo_303_pull_stuck"].OwnTimeout)
	assert.Equal(t, []string{"aeat_mcp_wait", "aeat_mcp_cancel", "aeat_mcp_runs"}, list.BuiltIn)

	code, out, _ = runCmd(t, "", "--manifest", example, "--cli", "/bin/true", "--tools", "ledger_*,!ledger_remove", "tools", "--json")
	require.Equal(t, exitOK, code)
	list = toolsJSON{}
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	require.Len(t, list.Tools, 4)
	assert.Equal(t, "ledger_list", list.Tools[0].Name)
	p := list.Tools[0].Params[0]
	assert.Equal(t, paramJSON{Name: "profile", Type: "string", Flag: "--profile", Global: true, Shared: true,
		Description: p.Description}, p)

	code, _, errOut := runCmd(t, "", "--demo", "--tools", "ledger_[", "tools")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `--tools: tool pattern "ledger_[": syntax error in pattern`)
}

func TestValidate(t *testing.T) {
	code, out, _ := runCmd(t, "", "--demo", "validate")
	assert.Equal(t, exitOK, code)
	assert.Regexp(t, `^ok: the built-in demo manifest: 6 tools \(2 read, 0 mutate, 4 live\); the CLI resolves to /`, out)

	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"version": 1, "cli": {"command": "aeat"}, "tools": [
		{"name": "a", "title": "A", "description": "d", "command": ["a"], "timout": "5s",
		 "annotations": {"readOnlyHint": true, "destructiveHint": true, "idempotentHint": true, "openWorldHint": false}}]}`), 0o644))
	code, _, errOut := runCmd(t, "", "--manifest", bad, "validate")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, bad+": tools[0].timout: unknown key")
	assert.Contains(t, errOut, bad+`: tool "a": annotations: readOnlyHint and destructiveHint are both true`)

	// A manifest that requires a variable: every call refuses while it is
	// unset, and validate says so.
	req := filepath.Join(t.TempDir(), "req.json")
	require.NoError(t, os.WriteFile(req, []byte(`{"version": 1, "cli": {"command": "aeat", "env": {"require": ["STORE_ROOT"]}},
	  "tools": [{"name": "a", "title": "A", "description": "d", "command": ["a"], "stdin": {"env": "A_SECRET"},
	   "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}},
	  {"name": "b", "title": "B", "description": "d", "command": ["b"],
	   "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`), 0o644))
	t.Setenv("STORE_ROOT", "")
	t.Setenv("A_SECRET", "")
	code, out, _ = runCmd(t, "", "--manifest", req, "--cli", "/nonexistent/aeat", "validate")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, out, `problem: the CLI does not resolve`)
	assert.Contains(t, out, "problem: STORE_ROOT is not set: every call refuses until it is")
	assert.Contains(t, out, "warning: A_SECRET is not set: a refuses until it is", "a variable only one tool reads on stdin: a warning")
	assert.Contains(t, out, "2 tools (2 read, 0 mutate, 0 live); the manifest is valid, but this machine cannot serve it yet (2 problems above)")

	t.Setenv("STORE_ROOT", t.TempDir())
	code, out, _ = runCmd(t, "", "--manifest", req, "--cli", "/nonexistent/aeat", "validate")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, out, "(1 problem above)")

	code, out, _ = runCmd(t, "", "--manifest", example, "--cli", "/bin/true", "--tools", "ledger_*", "--tools", "nothing_*", "validate")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "warning: --tools patterns that select no tool: nothing_*")
	assert.Contains(t, out, "ok: "+mustAbs(t, example)+": 5 tools (3 read, 2 mutate, 0 live), 14 hidden by --read-only/--tools; the CLI resolves to /bin/true")
}

func TestDoctor(t *testing.T) {
	t.Setenv("AEAT_MCP_LANG", "")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "ca_ES.UTF-8")
	code, out, _ := runCmd(t, "", "--demo", "doctor")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "a call's process tree is tracked by ")
	assert.Contains(t, out, "messages in ca (from LANG=ca_ES.UTF-8)")
	assert.Contains(t, out, "ceilings: read 45s, mutate 3m0s, live 7m0s")
	assert.Contains(t, out, "Nothing to fix.")
	assert.Contains(t, out, "get MUTATE and LIVE calls as tasks they poll")
	assert.NotContains(t, out, "PROBLEM")

	code, out, _ = runCmd(t, "", "--demo", "--tasks=false", "doctor")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "--tasks=false: every host gets ordinary calls")

	code, out, _ = runCmd(t, "", "--demo", "--cli", "/nonexistent/aeat", "--lang", "es", "doctor")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, out, `PROBLEM  the CLI does not resolve: CLI unavailable: --cli "/nonexistent/aeat" (or AEAT_MCP_CLI): no such executable file (tried /nonexistent/aeat): check the path`)
	assert.Contains(t, out, "fix: check the path given with --cli", "a path given is a path to check, not a CLI to install")
	assert.Contains(t, out, "messages in es (--lang es)")
	assert.Contains(t, out, "\n1 problem: fix it")
}

func mustAbs(t *testing.T, p string) string {
	abs, err := filepath.Abs(p)
	require.NoError(t, err)
	return abs
}

func TestCompletion(t *testing.T) {
	code, out, _ := runCmd(t, "", "--demo", "__complete", "call", "ledger")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "ledger_list\tList ledger entries (demo)")
	assert.NotContains(t, out, "profile_show")

	code, out, _ = runCmd(t, "", "--demo", "__complete", "call", "ledger_list", "--arg", "")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "tags=\tarray of string")
	assert.Contains(t, out, "limit=\tinteger")

	code, out, _ = runCmd(t, "", "--demo", "--read-only", "__complete", "call", "modelo_303_s")
	require.Equal(t, exitOK, code)
	assert.NotContains(t, out, "modelo_303_submit", "hidden tools are not offered")
}

// TestServe_Banner: a person who runs the server by hand gets a banner on
// stderr; a host's pipe gets nothing but JSON-RPC.
func TestServe_Banner(t *testing.T) {
	code, out, errOut := runCmd(t, "", "--demo", "--log-level", "error")
	require.Equal(t, exitOK, code)
	assert.Empty(t, out)
	assert.NotContains(t, errOut, "waiting for an MCP host", "not for a host's pipe")

	onATerminal := func(sys *system) { sys.isTerminal = func(io.Reader) bool { return true } }
	code, out, errOut = runOn(t, onATerminal, "", "--demo", "--log-level", "error")
	require.Equal(t, exitOK, code)
	assert.Empty(t, out, "stdout carries JSON-RPC only")
	assert.Contains(t, errOut, `an MCP server for the demo's built-in fake aeat, serving 6 tools from the built-in demo`)
	assert.Contains(t, errOut, "config claude-desktop|claude-code|cursor|vscode")
	assert.Contains(t, errOut, "call TOOL --arg NAME=VALUE")
}

// TestTimeoutTool_Manifest: the ceiling holds for a manifest read through
// the manifest cache — the first start writes it, the second reads it.
func TestTimeoutTool_Manifest(t *testing.T) {
	for range 2 {
		got := ceilingsOf(t, "--manifest", example, "--cli", "/bin/true", "--timeout-tool", "ledger_list=7m")
		assert.Equal(t, "420 own", got["ledger_list"])
	}
}
