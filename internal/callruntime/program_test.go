package callruntime

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckRunnable(t *testing.T) {
	tests := []struct {
		goos, path string
		ok         bool
	}{
		{"windows", `C:\tools\aeat.exe`, true},
		{"windows", `C:\tools\AEAT.EXE`, true},
		{"windows", `C:\tools\aeat.Com`, true},
		{"windows", `C:\tools\aeat.exe.`, true}, // Windows drops the dot: it is the .exe
		{"windows", `\\server\share\aeat.exe`, true},
		{"windows", `C:/tools/aeat.exe`, true},
		{"windows", `C:\Users\me\AppData\Roaming\npm\aeat.cmd`, false},
		{"windows", `C:\tools\aeat.bat`, false},
		{"windows", `C:\tools\aeat.CMD`, false},
		{"windows", `C:\tools\x.cmd.`, false},
		{"windows", `C:\tools\x.cmd `, false},
		{"windows", `C:\tools\x.cmd . .`, false},
		{"windows", `C:\tools\x.bat:y.exe`, false},
		{"windows", `C:\tools\aeat`, false},
		{"windows", `C:\tools\aeat.ps1`, false},
		{"windows", `C:\tools.exe\aeat`, false},
		{"linux", "/usr/bin/aeat.cmd", true},
		{"darwin", "/usr/local/bin/aeat", true},
	}
	for _, tc := range tests {
		t.Run(tc.goos+" "+tc.path, func(t *testing.T) {
			err := CheckRunnable(tc.goos, tc.path)
			if tc.ok {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, ErrNeedsShell)
			assert.Contains(t, err.Error(), tc.path)
			assert.Contains(t, err.Error(), ".exe")
		})
	}
	err := CheckRunnable("windows", `C:\npm\aeat.cmd`)
	assert.Contains(t, err.Error(), "cmd.exe", "a batch file's refusal says why")
	assert.True(t, errors.Is(err, ErrNeedsShell))
}

// TestCheckProgram_WindowsRulesBeforeEachStart: Run checks the program
// against the OS's rules before every start, so a .cmd put where the
// resolved .exe was is refused there too.
func TestCheckProgram_WindowsRulesBeforeEachStart(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"aeat.cmd", "aeat.bat", "aeat.cmd.", "aeat.exe"} {
		path := dir + "/" + name
		assert.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755))
		err := checkProgram("windows", path)
		if name == "aeat.exe" {
			assert.NoError(t, err)
			continue
		}
		var se *StartError
		assert.ErrorAs(t, err, &se, name)
		assert.ErrorIs(t, err, ErrNeedsShell, name)
		assert.ErrorIs(t, err, ErrNotExecutable, name)
		assert.NoError(t, checkProgram("linux", path), "only Windows refuses %s", name)
	}
}
