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
		{"linux", 4242, 987654, 987654, "aeat-mcp-call.0000004242.000000000l62u.ab12"},
		{"windows", 13972, 134_012_345_678_901_234, 13_401_234_567, "aeat-mcp-call.0000013972.00000065mqyrr.ab12"},
		{"darwin", 99998, 1_767_225_600_123_456, 1_767_225_600, "am.255q.0t85s00.ab12"},
		{"darwin", 7, 1_767_225_600_123_456, 1_767_225_600, "am.0007.0t85s00.ab12"},
	}
	for _, tc := range tests {
		t.Run(tc.goos, func(t *testing.T) {
			key := scratchKey(tc.goos, tc.start)
			assert.Equal(t, tc.key, key)
			name := scratchName(tc.goos, tc.pid, key, "ab12")
			assert.Equal(t, tc.name, name)
			pid, k, ok := parseScratchName(tc.goos, name)
			assert.True(t, ok)
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
	t.Run("what is not ours is left alone", func(t *testing.T) {
		for _, name := range []string{
			"aeat-mcp-call.", "aeat-mcp-call.x.y", "am.zz.", "am.1.2", "aeat-mcp-call.0.a.b", "tmp123", "am.1.2.3.4",
			"am.cache.v2.x",                               // a user's own directory: it once parsed as base 36
			"am.255Q.0t85s00.ab12",                        // uppercase is not ours
			"am.255q.0t85s00.ab1",                         // the random part is 4
			"am.255q.t85s00.ab12",                         // the key is padded to 7
			"aeat-mcp-call.4242.3141592653",               // MkdirTemp's names of long ago
			"aeat-mcp-call.4242.l62u.ab12",                // unpadded
			"aeat-mcp-call.000000424a.000000000l62u.ab12", // a base-10 pid with a letter
		} {
			for _, goos := range []string{"darwin", "linux", "windows"} {
				_, _, ok := parseScratchName(goos, name)
				assert.False(t, ok, "%s: %s", goos, name)
			}
		}
		_, _, ok := parseScratchName("linux", "am.255q.0t85s00.ab12")
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

// TestScratchOurs: the start-up sweep removes only what this user's
// servers made — on macOS in /tmp, which every user shares and where
// "am.*" is a prefix anyone's directory may have. Run on any OS.
func TestScratchOurs(t *testing.T) {
	const me = 501
	name := scratchName("darwin", 99998, 1_767_225_600, "ab12")
	ours := dirAttrs{dir: true, uid: me, perm: 0o700}
	lookalike := "am.cach.v2xxxxx.wxyz" // every field of its length and base
	for _, tc := range []struct {
		name  string
		goos  string
		entry string
		attrs dirAttrs
		want  bool
	}{
		{"a scratch directory of ours", "darwin", name, ours, true},
		{"a user's directory named like one, mode 0755", "darwin", lookalike, dirAttrs{dir: true, uid: me, perm: 0o755}, false},
		{"another user's", "darwin", name, dirAttrs{dir: true, uid: 502, perm: 0o700}, false},
		{"open to others", "darwin", name, dirAttrs{dir: true, uid: me, perm: 0o777}, false},
		{"a symbolic link to a directory", "darwin", name, dirAttrs{dir: false, uid: me, perm: 0o700}, false},
		{"a user's cache directory, private", "darwin", "am.cache.v2.x", ours, false},
		{"linux: the same rules", "linux", scratchName("linux", 4242, 987654, "ab12"), dirAttrs{dir: true, uid: me, perm: 0o750}, false},
		{"windows: no owner or mode to read", "windows", scratchName("windows", 13972, 13_401_234_567, "ab12"), dirAttrs{dir: true, uid: -1}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, ok := scratchOurs(tc.goos, tc.entry, tc.attrs, me)
			assert.Equal(t, tc.want, ok)
		})
	}
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
