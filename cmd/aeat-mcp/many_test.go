//go:build linux

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullAeat is the whole real aeat: 300 tools, none with a guessed hint.
const fullAeat = "../../examples/aeat.full.manifest.json"

// guessedAeat is the whole real aeat as generate writes it without the
// overrides' decided hints (the entries with hints_from): 54 tools with a
// guessed hint, as it shipped before issue 28 item 6.
func guessedAeat(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../examples/aeat.overrides.json")
	require.NoError(t, err)
	var ov map[string]any
	require.NoError(t, json.Unmarshal(data, &ov))
	var kept []any
	for _, e := range ov["tools"].([]any) {
		if _, decided := e.(map[string]any)["hints_from"]; !decided {
			kept = append(kept, e)
		}
	}
	ov["tools"] = kept
	dir := t.TempDir()
	b, err := json.Marshal(ov)
	require.NoError(t, err)
	overrides, manifest := filepath.Join(dir, "aeat.overrides.json"), filepath.Join(dir, "aeat.full.manifest.json")
	require.NoError(t, os.WriteFile(overrides, b, 0o644))
	code, _, errOut := runCmd(t, "", "generate", "--from", "tree:../../testdata/aeat-cli/commands.json",
		"--facts", "../../testdata/aeat-cli/facts.json", "--help-texts", "../../testdata/aeat-cli/help.json",
		"--overrides", overrides, "-o", manifest)
	require.Equal(t, exitOK, code, errOut)
	return manifest
}

// TestManyTools: tools, validate and doctor stay readable for a 300-tool
// manifest — counts per tier, one line per tool with its params bounded, no
// guessed hint in what ships (and, without its decided hints, each guessed
// one marked and counted), long lists of hidden tools cut — and
// tools --json keeps its shape and every param.
func TestManyTools(t *testing.T) {
	code, out, _ := runCmd(t, "", "--manifest", fullAeat, "--cli", "/bin/true", "tools")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "300 tools from ")
	assert.Contains(t, out, "by tier: 81 read, 200 mutate, 19 live\n")
	assert.Regexp(t, `\napp_ledger_add\s+mutate\s+3m\s+-\s+booked_date\*:string amount\*:string direction\*:string description\*:string value_date:string currency:string counterparty:string business_classification:string \+21 more\n`, out)
	assert.Regexp(t, `\nledger_remove\s+mutate\s+3m\s+destructive\s`, out, "a hint from the CLI is not marked")
	assert.NotContains(t, out, "a guessed hint")
	rows := regexp.MustCompile(`(?m)^[a-z][a-z0-9_]+\s+(read|mutate|live)\s`).FindAllString(out, -1)
	assert.Len(t, rows, 300, "one line per tool")
	assert.NotContains(t, out, "LISTED", "the default surface lists every tool")

	code, out, _ = runCmd(t, "", "--manifest", fullAeat, "--cli", "/bin/true", "--tools", "ledger_*", "tools")
	require.Equal(t, exitOK, code)
	assert.Regexp(t, `\nhidden by --tools \(295\): app_diagnostics_errors, [a-z_, ]+ … and 275 more \(tools --json lists them all\)\n`, out)

	code, out, _ = runCmd(t, "", "--manifest", fullAeat, "--cli", "/bin/true", "--surface", "catalog", "tools")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "--surface catalog: tools/list holds the 8 marked LISTED (the manifest's surface.core), aeat_mcp_find and aeat_mcp_call; those reach the other 292")
	assert.Regexp(t, `\nyes\s+ledger_list\s+read\s`, out)
	assert.Regexp(t, `\n-\s+ledger_remove\s+mutate\s`, out)

	// --json: the same keys as ever on the default surface, every param
	// of every tool; the catalog adds only its own.
	code, out, _ = runCmd(t, "", "--manifest", fullAeat, "--cli", "/bin/true", "tools", "--json")
	require.Equal(t, exitOK, code)
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	assert.ElementsMatch(t, []string{"manifest", "cli", "tools", "built_in", "hidden", "missing_env", "warm"}, keys(raw))
	var list toolsJSON
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	require.Len(t, list.Tools, 300)
	for _, tl := range list.Tools {
		assert.Nil(t, tl.Listed, tl.Name)
		if tl.Name == "app_ledger_add" {
			assert.Len(t, tl.Params, 29+2, "all its params, and the two shared ones")
		}
	}
	var tools []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw["tools"], &tools))
	for _, k := range keys(tools[0]) {
		assert.Contains(t, []string{"name", "title", "tier", "ceiling_seconds", "own_timeout", "hints", "output", "command",
			"confirm_flag", "stdin", "params", "warm"}, k)
	}
	code, out, _ = runCmd(t, "", "--manifest", fullAeat, "--cli", "/bin/true", "--surface", "catalog", "tools", "--json")
	require.Equal(t, exitOK, code)
	list = toolsJSON{}
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	assert.Equal(t, "catalog", list.Surface)
	assert.Equal(t, []string{"aeat_mcp_wait", "aeat_mcp_cancel", "aeat_mcp_runs", "aeat_mcp_find", "aeat_mcp_call"}, list.BuiltIn)
	n := 0
	for _, tl := range list.Tools {
		require.NotNil(t, tl.Listed, tl.Name)
		if *tl.Listed {
			n++
		}
	}
	assert.Equal(t, 8, n)

	// validate: the counts, the surface, and no warning of guessed hints.
	code, out, _ = runCmd(t, "", "--manifest", fullAeat, "--cli", "/bin/true", "--surface", "catalog", "validate")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, ": 300 tools (81 read, 200 mutate, 19 live), --surface catalog lists 8 of them (surface.core) with aeat_mcp_find and aeat_mcp_call; the CLI resolves to /bin/true")
	assert.NotContains(t, out, "hints guessed")

	// Without the decided hints: a guessed hint is marked and counted, and
	// validate names the tools grouped by command, every such tool once.
	guessed := guessedAeat(t)
	code, out, _ = runCmd(t, "", "--manifest", guessed, "--cli", "/bin/true", "tools")
	require.Equal(t, exitOK, code)
	assert.Regexp(t, `\napp_ledger_bienes_inversion_list\s+mutate\s+3m\s+destructive\?\s+-\n`, out, "a guessed hint is marked")
	assert.Contains(t, out, "? a guessed hint (54 tools)")
	code, out, _ = runCmd(t, "", "--manifest", guessed, "--cli", "/bin/true", "--surface", "catalog", "validate")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "warning: hints guessed for 54 tools (destructiveHint)")
	assert.Contains(t, out, "\n  app modelo review-package: app_modelo_review_package_build, ")
	block := out[strings.Index(out, "hints guessed"):]
	block = block[:strings.Index(block, "\n"+"warning:")]
	named := regexp.MustCompile(`\b(app|config)_[a-z0-9_]+`).FindAllString(block, -1)
	sort.Strings(named)
	assert.Len(t, named, 54)
	code, out, _ = runCmd(t, "", "--demo", "--surface", "catalog", "--read-only", "--tools", "modelo_*", "validate")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "--surface catalog lists 0 of them")

	// doctor: the counts, the surface it would serve, the guessed hints —
	// of a CLI that says it is ready (cli.health.ready: /bin/true says
	// nothing, which is not ready).
	kc := newMemKeychain()
	aeatStore(t, true)
	code, out, _ = runOn(t, kc.use, "", "--manifest", fullAeat, "--cli", fakeAeat(t), "doctor")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "300 tools (81 read, 200 mutate, 19 live) served, 0 hidden")
	assert.Contains(t, out, "tools/list holds all 300 tools")
	assert.NotContains(t, out, "hints guessed")
	code, out, _ = runOn(t, kc.use, "", "--manifest", fullAeat, "--cli", fakeAeat(t), "--surface", "catalog", "doctor")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "--surface catalog: tools/list holds 8 tools (surface.core) and aeat_mcp_find/aeat_mcp_call, which reach the other 292")

	code, _, errOut := runOn(t, kc.use, "", "--demo", "--surface", "flat", "tools")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `--surface "flat": must be "all"`)
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
