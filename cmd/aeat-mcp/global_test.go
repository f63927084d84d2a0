//go:build !windows

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGlobal: --global NAME=VALUE (or AEAT_MCP_GLOBAL_<NAME>) is the
// default of a shared param — on the command line of a call that leaves it
// out, in tools — and a call's own value wins; a bad name or value stops
// the start with exit 2, naming where it came from.
func TestGlobal(t *testing.T) {
	base := []string{"--manifest", example, "--cli", "/bin/true", "--log-level", "error"}
	dry := []string{"call", "ledger_list", "--dry-run"}

	code, out, errOut := runCmd(t, "", append(append(base, "--global", "profile=work", "--global", "lang=es"), dry...)...)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "would run: /bin/true --format json --profile=work --lang=es app ledger list")

	code, out, _ = runCmd(t, "", append(append(base, "--global", "profile=work"), "call", "ledger_list", "--arg", "profile=home", "--dry-run")...)
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "--profile=home app ledger list", "the call's own value wins")
	assert.NotContains(t, out, "work")

	t.Setenv("AEAT_MCP_GLOBAL_PROFILE", "from-env")
	t.Setenv("AEAT_MCP_GLOBAL_LANG", "") // empty: ignored, as a bundle's unset setting is
	code, out, _ = runCmd(t, "", append(base, dry...)...)
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "--profile=from-env app", "AEAT_MCP_GLOBAL_PROFILE is --global profile's twin")
	assert.NotContains(t, out, "--lang")
	code, out, _ = runCmd(t, "", append(append(base, "--global", "profile=flag"), dry...)...)
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "--profile=flag app", "the command line wins over the environment")

	code, out, _ = runCmd(t, "", append(base, "tools")...)
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "every tool also takes (global flags, before the verb): profile:string=from-env lang:string")

	t.Setenv("AEAT_MCP_GLOBAL_PROFILE", "")
	for _, tc := range []struct {
		args []string
		env  string
		says []string
	}{
		{args: []string{"--global", "lang=fr", "--global", "nope=1", "--global", "x"}, says: []string{
			`--global lang=fr: lang: must be one of es, en, ca, hu (got fr)`,
			`--global nope=1: "nope" is not a shared parameter of this manifest (cli.params: profile, lang)`,
			`--global "x": give NAME=VALUE`}},
		{env: "AEAT_MCP_GLOBAL_LANG", says: []string{`AEAT_MCP_GLOBAL_LANG=gl: lang: must be one of es, en, ca, hu (got gl)`}},
	} {
		if tc.env != "" {
			t.Setenv(tc.env, "gl")
		}
		code, _, errOut := runCmd(t, "", append(append(base, tc.args...), "tools")...)
		assert.Equal(t, exitUsage, code)
		for _, s := range tc.says {
			assert.Contains(t, errOut, s)
		}
	}
}
