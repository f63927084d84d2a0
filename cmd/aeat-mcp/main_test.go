//go:build linux

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/demo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	// --demo runs this binary as the demo CLI: the test binary must be
	// able to play that part too.
	if demo.IsDemoCLI(os.Args[1:]) {
		demo.Run()
	}
	os.Exit(m.Run())
}

// runCmd runs the root command as main would, capturing its output.
func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetArgs(args)
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&errOut)
	err := root.Execute()
	code = exitOK
	if err != nil {
		code = exitUsage
		if ee, ok := err.(*exitError); ok {
			code = ee.code
		}
		if err.Error() != "" {
			errOut.WriteString(err.Error())
		}
	}
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
