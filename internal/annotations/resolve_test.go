package annotations_test

import (
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeFS is a file system of paths and modes, for a Resolver of any OS.
type fakeFS map[string]fs.FileMode

func (f fakeFS) stat(path string) (fs.FileInfo, error) {
	mode, ok := f[path]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return fakeInfo{name: path, mode: mode}, nil
}

type fakeInfo struct {
	name string
	mode fs.FileMode
}

func (i fakeInfo) Name() string       { return i.name }
func (i fakeInfo) Size() int64        { return 0 }
func (i fakeInfo) Mode() fs.FileMode  { return i.mode }
func (i fakeInfo) ModTime() time.Time { return time.Time{} }
func (i fakeInfo) IsDir() bool        { return i.mode.IsDir() }
func (i fakeInfo) Sys() any           { return nil }

// TestResolver runs command resolution under each OS's rules, whatever OS
// runs the test: the Windows rules (only .exe and .com; .cmd shims refused;
// an extension-less name tried with .exe) are proven here, not only on a
// Windows machine.
func TestResolver(t *testing.T) {
	const exe, file, dir = 0o755, 0o644, fs.ModeDir | 0o755
	manifest := func(command, source string) *annotations.Manifest {
		return &annotations.Manifest{Source: source, CLI: annotations.CLI{Command: command}}
	}
	tests := []struct {
		name     string
		goos     string
		files    fakeFS
		path     string
		command  string
		source   string
		override string
		selfDir  string
		want     string // "" for an error
		errHas   string
		shell    bool // the error is a refusal to run through cmd.exe
	}{
		{name: "unix absolute", goos: "linux", files: fakeFS{"/opt/aeat": exe}, command: "/opt/aeat", want: "/opt/aeat"},
		{name: "unix absolute, not executable", goos: "darwin", files: fakeFS{"/opt/aeat": file}, command: "/opt/aeat", errHas: "/opt/aeat"},
		{name: "unix directory", goos: "linux", files: fakeFS{"/opt/aeat": dir}, command: "/opt/aeat", errHas: "not an executable file"},
		{name: "unix relative to the manifest", goos: "linux", files: fakeFS{"/etc/aeat/bin/aeat": exe}, command: "bin/../bin/./aeat", source: "/etc/aeat/m.json", want: "/etc/aeat/bin/aeat"},
		{name: "unix relative manifest path", goos: "linux", files: fakeFS{"/home/me/cfg/bin/aeat": exe}, command: "bin/aeat", source: "cfg/m.json", want: "/home/me/cfg/bin/aeat"},
		{name: "unix --cli relative to the working directory", goos: "darwin", files: fakeFS{"/home/me/aeat": exe}, command: "x", source: "/etc/m.json", override: "./aeat", want: "/home/me/aeat"},
		{name: "unix next to the binary before PATH", goos: "darwin", files: fakeFS{"/self/aeat": exe, "/usr/bin/aeat": exe}, path: "/usr/bin", command: "aeat", selfDir: "/self", want: "/self/aeat"},
		{name: "unix on PATH", goos: "linux", files: fakeFS{"/usr/local/bin/aeat": exe}, path: "/usr/bin:/usr/local/bin", command: "aeat", want: "/usr/local/bin/aeat"},
		{name: "unix relative PATH entries are skipped", goos: "linux", files: fakeFS{"/home/me/aeat": exe}, path: ".::bin", command: "aeat", errHas: "$PATH"},
		{name: "unix missing lists what was tried", goos: "linux", files: fakeFS{}, path: "/usr/bin", command: "aeat", selfDir: "/self", errHas: "/self/aeat, /usr/bin/aeat"},

		{name: "windows .exe next to the binary", goos: "windows", files: fakeFS{`C:\aeat-mcp\aeat.exe`: file}, command: "aeat", selfDir: `C:\aeat-mcp`, want: `C:\aeat-mcp\aeat.exe`},
		{name: "windows .exe on PATH", goos: "windows", files: fakeFS{`C:\Python\Scripts\aeat.exe`: file}, path: `C:\Windows;C:\Python\Scripts`, command: "aeat", want: `C:\Python\Scripts\aeat.exe`},
		{name: "windows .com before .exe, as cmd.exe", goos: "windows", files: fakeFS{`C:\t\aeat.exe`: file, `C:\t\aeat.com`: file}, path: `C:\t`, command: "aeat", want: `C:\t\aeat.com`},
		{name: "windows quoted PATH entry", goos: "windows", files: fakeFS{`C:\Program Files\aeat\aeat.exe`: file}, path: `"C:\Program Files\aeat";C:\x`, command: "aeat", want: `C:\Program Files\aeat\aeat.exe`},
		{name: "windows npm's .cmd shim is refused", goos: "windows", files: fakeFS{`C:\npm\aeat.cmd`: file}, path: `C:\npm`, command: "aeat", errHas: "cmd.exe", shell: true},
		{name: "windows a .cmd earlier on PATH is passed over for an .exe", goos: "windows", files: fakeFS{`C:\npm\aeat.cmd`: file, `C:\py\aeat.exe`: file}, path: `C:\npm;C:\py`, command: "aeat", want: `C:\py\aeat.exe`},
		{name: "windows PATHEXT's .bat is found only to be refused", goos: "windows", files: fakeFS{`C:\t\aeat.bat`: file}, path: `C:\t`, command: "aeat", errHas: `C:\t\aeat.bat is a batch file`, shell: true},
		{name: "windows missing", goos: "windows", files: fakeFS{}, path: `C:\t`, command: "aeat", errHas: "not an executable file"},
		{name: "windows absolute --cli without .exe is tried with it", goos: "windows", files: fakeFS{`C:\tools\aeat.exe`: file}, command: "aeat", override: `C:\tools\aeat`, want: `C:\tools\aeat.exe`},
		{name: "windows absolute .cmd refused", goos: "windows", files: fakeFS{`C:\tools\aeat.cmd`: file}, command: `C:\tools\aeat.cmd`, errHas: "aeat.cmd", shell: true},
		{name: "windows x.cmd. refused", goos: "windows", files: fakeFS{`C:\t\x.cmd.`: file}, command: `C:\t\x.cmd.`, shell: true},
		{name: "windows x.cmd with a space refused", goos: "windows", files: fakeFS{`C:\t\x.cmd `: file}, command: `C:\t\x.cmd `, shell: true},
		{name: "windows .BAT refused", goos: "windows", files: fakeFS{`C:\t\X.BAT`: file}, command: `C:\t\X.BAT`, shell: true},
		{name: "windows upper-case .EXE runs", goos: "windows", files: fakeFS{`C:\t\AEAT.EXE`: file}, command: `C:\t\AEAT.EXE`, want: `C:\t\AEAT.EXE`},
		{name: "windows relative to the manifest, forward slashes", goos: "windows", files: fakeFS{`C:\cfg\bin\aeat.exe`: file}, command: "bin/aeat", source: `C:\cfg\m.json`, want: `C:\cfg\bin\aeat.exe`},
		{name: "windows UNC", goos: "windows", files: fakeFS{`\\srv\share\aeat.exe`: file}, command: `\\srv\share\aeat.exe`, want: `\\srv\share\aeat.exe`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cwd := "/home/me"
			if tc.goos == "windows" {
				cwd = `C:\Users\me`
			}
			r := annotations.Resolver{GOOS: tc.goos, PATH: tc.path, Cwd: cwd, Stat: tc.files.stat}
			got, err := r.Resolve(manifest(tc.command, tc.source), tc.override, tc.selfDir)
			if tc.want != "" {
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)
				return
			}
			require.ErrorIs(t, err, annotations.ErrCLIUnavailable)
			assert.Equal(t, tc.shell, strings.Contains(err.Error(), "give the real program's .exe"), err.Error())
			if tc.errHas != "" {
				assert.Contains(t, err.Error(), tc.errHas)
			}
		})
	}
}
