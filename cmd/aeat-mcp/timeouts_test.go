package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ceilingsOf runs `tools --json` with args and returns each tool's ceiling
// in seconds, "own" marked, as the server would run its calls.
func ceilingsOf(t *testing.T, args ...string) map[string]string {
	t.Helper()
	code, out, errOut := runCmd(t, "", append(args, "tools", "--json")...)
	require.Equal(t, exitOK, code, errOut)
	var list toolsJSON
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	got := map[string]string{}
	for _, tl := range list.Tools {
		v, _ := json.Marshal(tl.CeilingSeconds)
		got[tl.Name] = string(v)
		if tl.OwnTimeout {
			got[tl.Name] += " own"
		}
	}
	return got
}

// TestTimeoutTool: --timeout-tool NAME=DURATION gives the tools a glob
// names a ceiling of their own — over a manifest's own timeout, which
// --timeout-<tier> cannot reach — the later value winning, from the flag
// or its environment twin's comma list.
func TestTimeoutTool(t *testing.T) {
	got := ceilingsOf(t, "--demo", "--timeout-live", "90s",
		"--timeout-tool", "modelo_303_pull_stuck=1500ms", "--timeout-tool", "modelo_3*_pull=2m")
	assert.Equal(t, "1.5 own", got["modelo_303_pull_stuck"], "over the manifest's own 5 s")
	assert.Equal(t, "120 own", got["modelo_303_pull"], "over the tier flag")
	assert.Equal(t, "120 own", got["modelo_390_pull"])
	assert.Equal(t, "90", got["modelo_303_submit"], "a tool no glob names keeps its tier's")
	assert.Equal(t, "45", got["ledger_list"])

	got = ceilingsOf(t, "--demo", "--timeout-tool", "modelo_*=2m", "--timeout-tool", "modelo_303_submit=9m")
	assert.Equal(t, "540 own", got["modelo_303_submit"], "the later value wins")
	assert.Equal(t, "120 own", got["modelo_390_pull"])

	t.Setenv("AEAT_MCP_TIMEOUT_TOOL", "ledger_list=10s, profile_show=20s")
	got = ceilingsOf(t, "--demo")
	assert.Equal(t, "10 own", got["ledger_list"])
	assert.Equal(t, "20 own", got["profile_show"])
	got = ceilingsOf(t, "--demo", "--timeout-tool", "ledger_list=30s")
	assert.Equal(t, "30 own", got["ledger_list"], "the command line wins over the variable")
	assert.Equal(t, "45", got["profile_show"])
}

// TestTimeoutTool_Errors: every bad value is a usage error that names it
// as written; a glob that matches no tool of the manifest is one too (a
// misspelt name would leave the ceiling the person meant to raise as it
// was).
func TestTimeoutTool_Errors(t *testing.T) {
	for _, tc := range []struct{ value, says string }{
		{"no_such_tool=1m", `--timeout-tool "no_such_tool=1m": no tool of the manifest is called no_such_tool (aeat-mcp tools lists them)`},
		{"aeat_mcp_*=1m", `no tool of the manifest is called aeat_mcp_*`},
		{"ledger_list", `--timeout-tool "ledger_list": must be NAME=DURATION`},
		{"=1m", `--timeout-tool "=1m": must be NAME=DURATION`},
		{"ledger_list=soon", `--timeout-tool "ledger_list=soon": "soon" is not a duration such as 90s or 5m`},
		{"ledger_list=0s", `--timeout-tool "ledger_list=0s": 0s: must be more than 0`},
		{"ledger_[=1m", `--timeout-tool "ledger_[=1m": tool pattern "ledger_[": syntax error in pattern`},
	} {
		code, out, errOut := runCmd(t, "", "--demo", "--timeout-tool", tc.value, "tools")
		assert.Equal(t, exitUsage, code, tc.value)
		assert.Contains(t, errOut, tc.says, tc.value)
		assert.Empty(t, out, tc.value)
	}
}

// TestTimeoutTool_Refusal: a call stopped at a ceiling --timeout-tool set
// is refused with that ceiling, and the refusal names the flag that
// raises it — not --timeout-live, which does not reach the tool.
func TestTimeoutTool_Refusal(t *testing.T) {
	code, out, _ := runCmd(t, "", "--demo", "--log-level", "error", "--kill-grace", "100ms",
		"--timeout-tool", "modelo_303_pull_stuck=1s", "call", "modelo_303_pull_stuck")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, out, "within its own ceiling of 1 s")
	assert.Contains(t, out, "--timeout-tool modelo_303_pull_stuck=DURATION")
	assert.Contains(t, out, "--timeout-live does not apply to it")
}
