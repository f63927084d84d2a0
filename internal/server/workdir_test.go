package server

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/stretchr/testify/assert"
)

// TestScratchNames: each OS's scratch names and sweep keys, run on any OS.
func TestScratchNames(t *testing.T) {
	tests := []struct {
		goos  string
		pid   int
		start uint64 // as callruntime.ProcessStart reads it there
		key   uint64
		name  string
	}{
		{"linux", 4242, 987654, 987654, "aeat-mcp-call.4242.l62u.ab12"},
		{"windows", 13972, 134_012_345_678_901_234, 13_401_234_567, "aeat-mcp-call.13972.65mqyrr.ab12"},
		{"darwin", 99998, 1_767_225_600_123_456, 1_767_225_600, "am.255q.t85s00.ab12"},
	}
	for _, tc := range tests {
		t.Run(tc.goos, func(t *testing.T) {
			key := scratchKey(tc.goos, tc.start)
			assert.Equal(t, tc.key, key)
			name := scratchName(tc.goos, tc.pid, key, "ab12")
			assert.Equal(t, tc.name, name)
			pid, k, legacy, ok := parseScratchName(tc.goos, name)
			assert.True(t, ok)
			assert.False(t, legacy)
			assert.Equal(t, tc.pid, pid)
			assert.Equal(t, key, k)
		})
	}
	t.Run("macOS leaves a browser room for its socket", func(t *testing.T) {
		// Chromium's singleton socket under its TMPDIR — the scratch
		// directory: sun_path holds 104 bytes with the NUL.
		const socket = ".org.chromium.Chromium.AbCdEf/SingletonSocket"
		dir := filepath.Join(scratchRoot("darwin"), scratchName("darwin", 99998, 1_767_225_600, "ab12"))
		assert.Less(t, len(filepath.Join(dir, socket)), 104, dir)
		old := filepath.Join("/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T", "aeat-mcp-call.99998.1234567890", socket)
		assert.GreaterOrEqual(t, len(old), 104, "the old place and name left no room")
	})
	t.Run("old names are judged by their pid", func(t *testing.T) {
		pid, _, legacy, ok := parseScratchName("linux", "aeat-mcp-call.4242.3141592653")
		assert.True(t, ok)
		assert.True(t, legacy)
		assert.Equal(t, 4242, pid)
	})
	t.Run("what is not ours is left alone", func(t *testing.T) {
		for _, name := range []string{"aeat-mcp-call.", "aeat-mcp-call.x.y", "am.zz.", "am.1.2", "aeat-mcp-call.0.a.b", "tmp123", "am.1.2.3.4"} {
			_, _, _, ok := parseScratchName("darwin", name)
			_, _, _, ok2 := parseScratchName("linux", name)
			assert.False(t, ok && ok2, name)
		}
		_, _, _, ok := parseScratchName("linux", "am.255q.t85s00.ab12")
		assert.False(t, ok, "a macOS name is not taken on another OS")
	})
	t.Run("a fresh name each time", func(t *testing.T) {
		tmp := t.TempDir()
		a, err := makeScratch(tmp)
		assert.NoError(t, err)
		b, err := makeScratch(tmp)
		assert.NoError(t, err)
		assert.NotEqual(t, a, b)
		fi, err := os.Stat(a)
		assert.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	})
}

// TestShutdownCause: a shutdown signal cuts the calls' kill grace to
// shutdownGrace on every OS, so that their answers are written before the
// host's SIGKILL (issue 22; TestE2E_StopAnswersCallsInFlight runs it).
func TestShutdownCause(t *testing.T) {
	cause := shutdownCause()
	assert.ErrorIs(t, cause, ErrShuttingDown)
	var gc *callruntime.GraceCap
	if assert.True(t, errors.As(cause, &gc)) {
		assert.Equal(t, time.Second, gc.Max)
	}
}

// TestParentGoneAtStart: launchd as the parent at start means the host is
// gone on macOS; pid 1 is a real parent in a Linux container (tini).
func TestParentGoneAtStart(t *testing.T) {
	assert.True(t, parentGoneAtStart("darwin", 1))
	assert.False(t, parentGoneAtStart("darwin", 4242))
	assert.False(t, parentGoneAtStart("linux", 1))
	assert.False(t, parentGoneAtStart("windows", 1))
}
