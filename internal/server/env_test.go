package server

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The CLI's environment, for each OS, on any OS: the target OS is a
// parameter of the pure logic (STYLE 29).

// aUser is a server's environment on a desktop, with what must never reach
// the CLI mixed in.
func aUser(extra ...string) func() []string {
	return func() []string {
		return append([]string{
			"PATH=/usr/bin:/bin", "HOME=/home/ana", "USER=ana", "LANG=es_ES.UTF-8", "LC_TERMINAL=iTerm2",
			"XDG_DATA_HOME=/home/ana/.local/share", "XDG_CONFIG_HOME=/home/ana/.config", "XDG_CACHE_HOME=/home/ana/.cache",
			"XDG_STATE_HOME=/home/ana/.local/state", "XDG_RUNTIME_DIR=/run/user/1000",
			"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus",
			"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI", "LD_PRELOAD=/tmp/evil.so", "BASH_ENV=/tmp/evil.sh", "GITHUB_TOKEN=ghp_x",
			"CADRUMO_LOCAL_STORAGE_ROOT=/srv/aeat", "SSH_AUTH_SOCK=/tmp/ssh",
		}, extra...)
	}
}

func envOf(list []string) map[string]string {
	m := map[string]string{}
	for _, kv := range list {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

var aeatCLI = annotations.CLI{Pass: []string{"CADRUMO_*", "PLAYWRIGHT_BROWSERS_PATH"},
	Keychain: []annotations.KeychainVar{{Name: "CADRUMO_SECRET_PASSPHRASE", Optional: true}}}

func TestBuildEnv_Linux(t *testing.T) {
	env := envOf(BuildEnv("linux", aeatCLI, nil, aUser()))
	for _, name := range []string{"PATH", "HOME", "USER", "LANG", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
		"XDG_STATE_HOME", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "CADRUMO_LOCAL_STORAGE_ROOT"} {
		assert.Contains(t, env, name, "the CLI finds its user's data and keychain")
	}
	for _, name := range []string{"AWS_SECRET_ACCESS_KEY", "LD_PRELOAD", "BASH_ENV", "GITHUB_TOKEN", "SSH_AUTH_SOCK", "LC_TERMINAL"} {
		assert.NotContains(t, env, name, "never passed")
	}
	assert.Equal(t, "/home/ana/.local/share", env["XDG_DATA_HOME"])
}

func TestBuildEnv_Darwin(t *testing.T) {
	env := envOf(BuildEnv("darwin", aeatCLI, nil, aUser("TMPDIR=/var/folders/x/T/")))
	for _, name := range []string{"PATH", "HOME", "USER", "LANG", "TMPDIR", "CADRUMO_LOCAL_STORAGE_ROOT"} {
		assert.Contains(t, env, name)
	}
	// macOS keeps user data under ~/Library, and the keychain answers
	// through the user's security session: XDG and D-Bus are not its.
	for _, name := range []string{"XDG_DATA_HOME", "DBUS_SESSION_BUS_ADDRESS", "AWS_SECRET_ACCESS_KEY", "LD_PRELOAD", "BASH_ENV"} {
		assert.NotContains(t, env, name)
	}
}

func TestBuildEnv_Windows(t *testing.T) {
	windows := func() []string {
		return []string{
			`Path=C:\Windows\system32;C:\Python312`, `PATHEXT=.COM;.EXE;.BAT`, `SystemRoot=C:\Windows`, `SystemDrive=C:`,
			`windir=C:\Windows`, `ComSpec=C:\Windows\system32\cmd.exe`, `HOMEDRIVE=C:`, `HOMEPATH=\Users\ana`,
			`USERPROFILE=C:\Users\ana`, `USERNAME=ana`, `USERDOMAIN=CASA`, `LOGONSERVER=\\CASA`,
			`APPDATA=C:\Users\ana\AppData\Roaming`, `LOCALAPPDATA=C:\Users\ana\AppData\Local`, `ProgramData=C:\ProgramData`,
			`ProgramFiles=C:\Program Files`, `ProgramFiles(x86)=C:\Program Files (x86)`, `ProgramW6432=C:\Program Files`,
			`TEMP=C:\Users\ana\AppData\Local\Temp`, `TMP=C:\Users\ana\AppData\Local\Temp`,
			`PROCESSOR_ARCHITECTURE=AMD64`, `NUMBER_OF_PROCESSORS=8`,
			`cadrumo_local_storage_root=D:\aeat`, `AWS_SECRET_ACCESS_KEY=x`, `OneDrive=C:\Users\ana\OneDrive`,
		}
	}
	cli := aeatCLI
	cli.Set = map[string]string{"PATH": `C:\aeat\bin`}
	list := BuildEnv("windows", cli, []string{"onedrive"}, windows)
	env := envOf(list)
	// libuv's required set, the folders, what Python asks of the machine.
	for _, name := range []string{"HOMEDRIVE", "HOMEPATH", "LOGONSERVER", "SystemDrive", "SystemRoot", "TEMP", "USERDOMAIN",
		"USERNAME", "USERPROFILE", "windir", "APPDATA", "LOCALAPPDATA", "ProgramData", "ProgramFiles", "ProgramFiles(x86)",
		"PROCESSOR_ARCHITECTURE", "NUMBER_OF_PROCESSORS", "PATHEXT", "ComSpec", "TMP"} {
		assert.Contains(t, env, name)
	}
	// One PATH, whatever its spelling: cli.env.set's value and spelling win.
	var paths []string
	for _, kv := range list {
		if k, _, _ := strings.Cut(kv, "="); strings.EqualFold(k, "PATH") {
			paths = append(paths, kv)
		}
	}
	assert.Equal(t, []string{`PATH=C:\aeat\bin`}, paths)
	assert.Equal(t, `D:\aeat`, env["cadrumo_local_storage_root"], "a prefix matches whatever the case")
	assert.Equal(t, `C:\Users\ana\OneDrive`, env["OneDrive"], "--pass-env names match whatever the case")
	assert.NotContains(t, env, "AWS_SECRET_ACCESS_KEY")
	// On Linux, case matters: "Path" is not PATH.
	linux := envOf(BuildEnv("linux", cli, nil, windows))
	assert.NotContains(t, linux, "Path")
	assert.NotContains(t, linux, "cadrumo_local_storage_root")
}

func TestBuildEnv_KeychainNames(t *testing.T) {
	// The server's own value of a keychain variable (a host's env block)
	// passes; withVars adds the keychain's only where none passed.
	env := BuildEnv("linux", aeatCLI, nil, aUser("CADRUMO_SECRET_PASSPHRASE=from-env"))
	assert.Equal(t, "from-env", envOf(withVars("linux", env, map[string]string{"CADRUMO_SECRET_PASSPHRASE": "from-keychain"}))["CADRUMO_SECRET_PASSPHRASE"])
	cli := annotations.CLI{Keychain: []annotations.KeychainVar{{Name: "UNLOCK"}}}
	env = BuildEnv("windows", cli, nil, func() []string { return []string{"unlock=from-env"} })
	out := withVars("windows", env, map[string]string{"UNLOCK": "from-keychain"})
	assert.Equal(t, []string{"PYTHONUTF8=1", "unlock=from-env"}, out, "one variable whatever the case (and Windows' default PYTHONUTF8)")
	out = withVars("linux", BuildEnv("linux", cli, nil, func() []string { return nil }), map[string]string{"UNLOCK": "k"})
	assert.Equal(t, []string{"UNLOCK=k"}, out)
}

func TestPlatformBasics(t *testing.T) {
	assert.Equal(t, Basics("linux"), Basics("freebsd"), "other Unix systems follow the XDG conventions")
	for _, goos := range []string{"linux", "darwin", "windows"} {
		seen := map[string]bool{}
		for _, n := range Basics(goos) {
			k := platformOf(goos).key(n)
			assert.False(t, seen[k], "%s: %s twice", goos, n)
			seen[k] = true
			for _, r := range riskyVars {
				assert.NotEqual(t, platformOf(goos).key(r), k, "%s: a basic is never a risky variable", goos)
			}
		}
	}
}

func TestPassWarnings(t *testing.T) {
	w := PassWarnings("linux", []string{"CADRUMO_*", "PLAYWRIGHT_BROWSERS_PATH", "A*", "LD_*", "PYTHON*", "*"}, []string{"LD_PRELOAD", "HTTPS_PROXY"})
	joined := strings.Join(w, "\n")
	assert.NotContains(t, joined, "CADRUMO_*")
	assert.NotContains(t, joined, "PLAYWRIGHT")
	assert.NotContains(t, joined, "HTTPS_PROXY")
	assert.Contains(t, joined, `cli.env.pass "A*" is a very short prefix`)
	assert.Contains(t, joined, `cli.env.pass "LD_*" passes LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT`)
	assert.Contains(t, joined, `cli.env.pass "PYTHON*" passes PYTHONPATH, PYTHONHOME, PYTHONSTARTUP, PYTHONINSPECT`)
	assert.Contains(t, joined, `cli.env.pass "*" passes the server's whole environment`)
	assert.Contains(t, joined, `--pass-env "LD_PRELOAD" passes LD_PRELOAD`)
	assert.Contains(t, strings.Join(PassWarnings("windows", []string{"ld_*"}, nil), ""), "LD_PRELOAD", "Windows compares names without case")
	assert.Empty(t, PassWarnings("linux", []string{"ld_*"}, nil)[1:], "Linux does not: only the short prefix warns")
}

func TestCheckPassEnvName(t *testing.T) {
	for _, bad := range []string{"*", "AWS_*", "A*B", "A=B", " "} {
		assert.Error(t, CheckPassEnvName(bad), bad)
	}
	for _, good := range []string{"HTTPS_PROXY", "ProgramFiles(x86)", "LD_PRELOAD"} {
		require.NoError(t, CheckPassEnvName(good), good)
	}
	assert.ErrorContains(t, CheckPassEnvName("*"), "names only")
}

// TestDocsListTheBasics: docs/environment.md lists each
// platform's basics exactly — a person deciding what to put in a host's
// env block reads that list.
func TestDocsListTheBasics(t *testing.T) {
	raw, err := os.ReadFile("../../docs/environment.md")
	require.NoError(t, err)
	section := string(raw)
	bullet := func(label string) []string {
		_, rest, ok := strings.Cut(section, "- **"+label+"**")
		require.True(t, ok, label)
		rest, _, _ = strings.Cut(rest, "\n- ")
		var names []string
		for _, m := range regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_()]*)`").FindAllStringSubmatch(rest, -1) {
			if !slices.Contains(names, m[1]) && m[1] != "aeat" {
				names = append(names, m[1])
			}
		}
		return names
	}
	locale := bullet("everywhere")
	assert.Equal(t, localeVars, locale)
	without := func(goos string) []string {
		var out []string
		for _, n := range Basics(goos) {
			if !slices.Contains(localeVars, n) {
				out = append(out, n)
			}
		}
		return out
	}
	assert.Equal(t, without("linux"), bullet("Linux"))
	assert.Equal(t, without("darwin"), bullet("macOS"))
	assert.Equal(t, without("windows"), bullet("Windows")[:len(without("windows"))])
}

// TestBuildEnv_WindowsPythonUTF8: a Python CLI on Windows writes to its
// pipe in UTF-8, not the ANSI code page: PYTHONUTF8=1 unless the person's
// own PYTHONUTF8 or PYTHONIOENCODING (set machine-wide) says otherwise —
// those pass — and a manifest's cli.env.set wins over both. Not elsewhere.
func TestBuildEnv_WindowsPythonUTF8(t *testing.T) {
	none := func() []string { return []string{"Path=C:\\Windows"} }
	assert.Equal(t, "1", envOf(BuildEnv("windows", annotations.CLI{}, nil, none))["PYTHONUTF8"])

	own := func() []string { return []string{"PythonUtf8=0", "PYTHONIOENCODING=utf-8:replace"} }
	env := envOf(BuildEnv("windows", annotations.CLI{}, nil, own))
	assert.Equal(t, "0", env["PythonUtf8"], "the person's own setting passes and wins")
	assert.NotContains(t, env, "PYTHONUTF8", "one variable whatever the case")
	assert.Equal(t, "utf-8:replace", env["PYTHONIOENCODING"])

	set := annotations.CLI{Set: map[string]string{"PYTHONUTF8": "0"}}
	assert.Equal(t, "0", envOf(BuildEnv("windows", set, nil, none))["PYTHONUTF8"], "cli.env.set wins")

	for _, goos := range []string{"linux", "darwin"} {
		assert.NotContains(t, envOf(BuildEnv(goos, annotations.CLI{}, nil, none)), "PYTHONUTF8", goos)
	}
}
