//go:build !windows

package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCall_HelpExamplesRun: every example `call --help` prints is a call
// that passes argument validation — against the demo, or against the
// example manifest where it names aeat.json — checked with --dry-run, so
// nothing runs. An example that a newcomer copies and sees refused is a
// lie in the help.
func TestCall_HelpExamplesRun(t *testing.T) {
	examples := strings.Split(strings.TrimSpace(newCallCmd(&options{}).Example), "\n")
	require.NotEmpty(t, examples)
	for _, line := range examples {
		line = strings.TrimSpace(line)
		words := shellWords(t, line)
		require.Equal(t, "aeat-mcp", words[0], line)
		args := []string{"--log-level", "error"}
		for _, w := range words[1:] {
			if w == "aeat.json" {
				// The example manifest is aeat.json in the help; its CLI
				// is never run under --dry-run.
				args = append(args, example, "--cli", "/bin/true")
				continue
			}
			args = append(args, w)
		}
		if !strings.Contains(line, "--dry-run") {
			args = append(args, "--dry-run")
		}
		t.Run(line, func(t *testing.T) {
			code, out, errOut := runCmd(t, "", args...)
			assert.Equal(t, exitOK, code, errOut)
			assert.Contains(t, out, "would run:")
		})
	}
}

// shellWords splits an example line as a person's shell would: sh itself
// prints each word the line's arguments make, NUL-terminated.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	out, err := exec.Command("sh", "-c", "printf '%s\\0' "+line).Output()
	require.NoError(t, err, line)
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}
