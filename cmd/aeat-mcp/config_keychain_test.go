//go:build linux

package main

import (
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/keychain"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noBus is the keychain of a Linux session without a session bus: every
// read and write fails with the paragraph keychain.NoBusError says.
func noBus() *memKeychain {
	kc := newMemKeychain()
	kc.broken = &keychain.UnavailableError{Err: &keychain.NoBusError{Looked: []string{"/run/user/0/bus"}}}
	return kc
}

// TestConfig_UnreadableKeychainSaidOnce: config HOST says why the keychain
// cannot be read once, then one line per secret — not the paragraph inside
// every secret's line (the example manifest reads two).
func TestConfig_UnreadableKeychainSaidOnce(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	code, out, errOut := runOn(t, noBus().use, "", "--manifest", example, "--cli", "/bin/true", "config", "claude-desktop")
	require.Equal(t, exitOK, code, errOut)
	all := out + errOut
	assert.Equal(t, 1, strings.Count(all, "this session has no desktop keychain"), all)
	assert.Equal(t, 1, strings.Count(all, "config --with-secrets writes"), all)
	for _, name := range []string{"CADRUMO_SECRET_PASSPHRASE", "AEAT_CERT_PASSPHRASE"} {
		assert.Contains(t, all, "not readable here — store it with `aeat-mcp secret set "+name+"` where the keychain works\n")
	}
}

// TestSecretSet_NoBusSaysEnvBlockOnce: without a session bus, secret set
// says "the host's env block" once — the bus's own reason says it.
func TestSecretSet_NoBusSaysEnvBlockOnce(t *testing.T) {
	code, _, errOut := runOn(t, noBus().use, "v", "secret", "set", "CADRUMO_SECRET_PASSPHRASE")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errOut, "storing CADRUMO_SECRET_PASSPHRASE: the OS keychain is not available: this session has no desktop keychain")
	assert.Equal(t, 1, strings.Count(errOut, `"env" block`), errOut)
}
