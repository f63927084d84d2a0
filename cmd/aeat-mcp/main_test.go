package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/demo"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	// --demo runs this binary as the demo CLI: the test binary must be
	// able to play that part too.
	if demo.IsDemoCLI(os.Args[1:]) {
		demo.Run()
	}
	removeCache := proctest.PrivateCache()
	code := m.Run()
	proctest.RemoveBuilds()
	removeCache()
	os.Exit(code)
}

// runCmd runs the root command as main would, on this process's system
// with its environment as it is now, capturing its output.
func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runOn(t, nil, stdin, args...)
}

// runOn is runCmd on a system adjust changes: a keychain of the test's
// own (memKeychain.use), a terminal.
func runOn(t *testing.T, adjust func(*system), stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runUntil(t.Context(), adjust, stdin, args...)
}

// runUntil is runOn under ctx: ending it is telling aeat-mcp to stop, as
// main's signals do.
func runUntil(ctx context.Context, adjust func(*system), stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	sys := osSystem(0, "", nil) // 0: the server in this process watches no parent
	sys.stdin, sys.stdout, sys.stderr = strings.NewReader(stdin), &out, &errOut
	if adjust != nil {
		adjust(sys)
	}
	code = run(ctx, sys, args)
	return code, out.String(), errOut.String()
}

func TestCall_Demo(t *testing.T) {
	code, out, _ := runCmd(t, "", "--demo", "--log-level", "error", "call", "ledger_list", "--arg", "limit=1", "--arg", "tags=gasto")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "Alquiler oficina")
	assert.NotContains(t, out, "Material", "limit=1")

	code, out, _ = runCmd(t, "", "--demo", "--log-level", "error", "call", "profile_show")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "[redacted private key]")
	assert.NotContains(t, out, "MIIE")
}

func TestCall_ExitCodes(t *testing.T) {
	code, out, _ := runCmd(t, "", "--demo", "--log-level", "error", "call", "ledger_list", "--arg", "limit=0")
	assert.Equal(t, exitFailure, code, "an error result exits 1")
	assert.Contains(t, out, `argument "limit"`)

	code, _, errOut := runCmd(t, "", "--demo", "call", "no_such_tool")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `no tool "no_such_tool"`)
}

func TestCall_DestructiveAsksOnTheTerminal(t *testing.T) {
	code, out, errOut := runCmd(t, "n\n", "--demo", "--log-level", "error", "call", "modelo_303_submit", "--args-json", `{"year": 2025, "period": "1T"}`)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errOut, "[y/N]")
	assert.Contains(t, out, "was not confirmed")
}

func TestServe_BrokenManifestExits2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"version": 1, "cli": {"command": "x"}, "tools": [{"name": "a"}]}`), 0o644))
	code, _, errOut := runCmd(t, "", "--manifest", path)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `tool "a": title: missing`)
	assert.Contains(t, errOut, `tool "a": annotations: missing`)

	code, _, errOut = runCmd(t, "")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "--demo")
}

func TestEnvTwins(t *testing.T) {
	t.Setenv("AEAT_MCP_MANIFEST", "/nonexistent/manifest.json")
	code, _, errOut := runCmd(t, "")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "/nonexistent/manifest.json", "AEAT_MCP_MANIFEST is --manifest's twin")

	t.Setenv("AEAT_MCP_TIMEOUT_LIVE", "soon")
	code, _, errOut = runCmd(t, "")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `AEAT_MCP_TIMEOUT_LIVE="soon"`)
}

func TestEnvName(t *testing.T) {
	assert.Equal(t, "AEAT_MCP_TIMEOUT_LIVE", envName("timeout-live"))
	assert.Equal(t, "AEAT_MCP_READ_ONLY", envName("read-only"))
}

// TestVersion: `version` and `--version` say the same thing, in one
// wording.
func TestVersion(t *testing.T) {
	var outs []string
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, _ := runCmd(t, "", args...)
		assert.Equal(t, exitOK, code)
		assert.Regexp(t, `^aeat-mcp version \S+`, out, "%v", args)
		assert.NotContains(t, out, " dev\n", "from the build info, not a placeholder")
		outs = append(outs, out)
	}
	assert.Equal(t, outs[0], outs[1], "one wording for both")
}

func TestFlags_Rejected(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--timeout-read", "0s"}, "--timeout-read 0s: must be more than 0"},
		{[]string{"--timeout-live=-1s"}, "--timeout-live -1s: must be more than 0"},
		{[]string{"--kill-grace", "0s"}, "--kill-grace 0s: must be more than 0"},
		{[]string{"--detach-after=-1s"}, "--detach-after -1s: must be 0 (never detach) or more"},
		{[]string{"--max-result-bytes", "10"}, "--max-result-bytes 10: must be at least 1024"},
		{[]string{"--confirm", "sometimes"}, `--confirm "sometimes"`},
	} {
		code, _, stderr := runCmd(t, "", append([]string{"--demo"}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.says)
	}
}

func TestLang_Unsupported(t *testing.T) {
	code, _, stderr := runCmd(t, "", "--demo", "--lang", "fr", "--log-level", "warn")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, 1, strings.Count(stderr, "not a language aeat-mcp offers"), stderr)
	assert.Contains(t, stderr, "en, es, ca, gl, eu")
	_, _, stderr = runCmd(t, "", "--demo", "--lang", "es_ES.UTF-8", "--log-level", "warn")
	assert.NotContains(t, stderr, "not a language")
}
