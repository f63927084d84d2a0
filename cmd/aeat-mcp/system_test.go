package main

import (
	"context"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLookupIn: the flags' environment twins and the language are read
// from the system's environment as each OS reads its own — on Windows a
// name in any case, and everywhere the first entry of a name.
func TestLookupIn(t *testing.T) {
	environ := []string{"Aeat_Mcp_Lang=es", "AEAT_MCP_LANG=ca", "EMPTY=", "=C:=C:\\dir", "NOEQUALS"}
	for _, tc := range []struct {
		goos, name, want string
		found            bool
	}{
		{"linux", "AEAT_MCP_LANG", "ca", true},
		{"darwin", "aeat_mcp_lang", "", false},
		{"windows", "AEAT_MCP_LANG", "es", true},
		{"windows", "aeat_mcp_lang", "es", true},
		{"linux", "EMPTY", "", true},
		{"windows", "NOEQUALS", "", false},
		{"linux", "MISSING", "", false},
	} {
		v, ok := lookupIn(tc.goos, environ, tc.name)
		assert.Equal(t, tc.found, ok, "%s %s", tc.goos, tc.name)
		assert.Equal(t, tc.want, v, "%s %s", tc.goos, tc.name)
	}
}

// TestMachine: a host's file is looked for from the system's environment,
// not the process's: the home of each OS, and the variables a host's path
// reads (CLAUDE_CONFIG_DIR).
func TestMachine(t *testing.T) {
	sys := &system{environ: []string{"HOME=/home/ana", "USERPROFILE=C:\\Users\\ana", "CLAUDE_CONFIG_DIR=/cfg"}}
	assert.Equal(t, "/home/ana", sys.machine("linux").home)
	assert.Equal(t, "/home/ana", sys.machine("darwin").home)
	assert.Equal(t, "C:\\Users\\ana", sys.machine("windows").home)
	assert.Equal(t, "/cfg", sys.machine("linux").getenv("CLAUDE_CONFIG_DIR"))
}

// A command a stop cut short exits as a shell reports a process that
// signal ended: the signal is the cause of main's context.
func TestStopCode(t *testing.T) {
	for _, tc := range []struct {
		cause error
		want  int
	}{
		{stopSignal{os.Interrupt}, 130},
		{stopSignal{syscall.SIGTERM}, 143},
		{stopSignal{syscall.SIGHUP}, 129},
		{context.Canceled, exitInterrupted},
	} {
		ctx, cancel := context.WithCancelCause(t.Context())
		cancel(tc.cause)
		assert.Equal(t, tc.want, stopCode(ctx), "%v", tc.cause)
		var ee *exitError
		require.ErrorAs(t, stopped(ctx), &ee)
		assert.Equal(t, tc.want, ee.code)
	}
	assert.NoError(t, stopped(t.Context()))
}
