//go:build !windows

package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestE2E_Wording: the words a person reads, from the built binary:
// `version` and `--version` say the same thing; validate and doctor say
// that one tool "refuses" (two "refuse").
func TestE2E_Wording(t *testing.T) {
	bin := keychainBinaryPath(t)
	v1 := runBuilt(t, bin, nil, "", "version")
	v2 := runBuilt(t, bin, nil, "", "--version")
	assert.Equal(t, v1, v2, "one wording for both")
	assert.Regexp(t, `^aeat-mcp version \S+`, v1)

	home := t.TempDir()
	env := []string{"HOME=" + home, "AEAT_MCP_TEST_KEYCHAIN=" + filepath.Join(home, "keychain.json")}
	out := runBuilt(t, bin, env, "", "--manifest", example, "--cli", "/bin/true", "validate")
	assert.Contains(t, out, "certificate_secret_set refuses until it is stored")
	assert.NotContains(t, out, "certificate_secret_set refuse ")
}
