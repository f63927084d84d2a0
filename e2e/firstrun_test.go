//go:build linux

package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readmeFirstRun is the user documentation's first run of the real aeat
// (docs/real-aeat.md, which the README links as "a first run").
func readmeFirstRun(t *testing.T) string {
	raw, err := os.ReadFile("../docs/real-aeat.md")
	require.NoError(t, err)
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	require.Contains(t, string(readme), "[a first run](docs/real-aeat.md)", "the README's first screen leads there")
	sec, _, _ := strings.Cut(string(raw), "**What goes wrong")
	return sec
}

// fenced are the lines of the section's fenced blocks of the given kind
// ("sh", whatever its mark — docs/'s "not-run: …" —, or "text output").
func fenced(sec, kind string) []string {
	var out []string
	in, this := false, false
	for _, line := range strings.Split(sec, "\n") {
		switch {
		case !in && strings.HasPrefix(line, "```"):
			in, this = true, line == "```"+kind || strings.HasPrefix(line, "```"+kind+" ")
		case in && line == "```":
			in = false
		case in && this:
			out = append(out, line)
		}
	}
	return out
}

// shellWords splits a shell command line the README shows: blanks separate,
// double quotes group.
func shellWords(line string) []string {
	var out []string
	var cur strings.Builder
	quoted, some := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, some = !quoted, true
		case r == ' ' && !quoted:
			if some {
				out = append(out, cur.String())
			}
			cur.Reset()
			some = false
		default:
			cur.WriteRune(r)
			some = true
		}
	}
	if some {
		out = append(out, cur.String())
	}
	return out
}

// firstRunUser is a person following the README on a machine of their
// own: a home (the store in ~/.local/share), and the fake aeat as `aeat`.
type firstRunUser struct {
	t    *testing.T
	home string
}

// aeat runs the fake aeat as the person does in a terminal; env stands in
// for what the terminal has (the passphrase a prompt would read: the fake
// has no terminal).
func (u firstRunUser) aeat(env []string, stdin string, args ...string) (int, string) {
	cmd := exec.Command(fakeaeat, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + u.home}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	return exitCode(u.t, cmd.Run(), out.String()), out.String()
}

// aeatMCP runs the built aeat-mcp on the example manifest, as the host
// would start it with env (its env block).
func (u firstRunUser) aeatMCP(bin string, env []string, stdin string, args ...string) (int, string) {
	cmd := exec.Command(bin, append([]string{"--manifest", exampleManifest, "--cli", fakeaeat}, args...)...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + u.home, "XDG_RUNTIME_DIR=" + u.t.TempDir()}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	return exitCode(u.t, cmd.Run(), out.String()), out.String()
}

func exitCode(t *testing.T, err error, out string) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	require.NoError(t, err, out)
	return 0
}

// TestE2E_READMEFirstRun is issue 28's item 3: the README's first run,
// step by step, against the built binary and the fake aeat (its rules from
// the facts and the port) — the profile created with the README's own
// command line, then each way of unlocking the README's table names, each
// ending in doctor's ok and an answer to a first call; and the dead ends it
// warns of (a login on a machine whose CLI gets no bus) are what doctor
// says, with the way that works there.
func TestE2E_READMEFirstRun(t *testing.T) {
	sec := readmeFirstRun(t)
	var create []string
	for _, line := range fenced(sec, "sh") {
		if strings.HasPrefix(line, "aeat config profile create ") {
			create = shellWords(line)[1:]
		}
	}
	require.NotEmpty(t, create, "the README shows the command that creates the profile")
	for _, says := range []string{"`aeat config login`", "`aeat-mcp secret set CADRUMO_SECRET_PASSPHRASE`",
		"`\"CADRUMO_SECRET_PASSPHRASE\": \"…\"` in the server's `env` block", "call ledger_list"} {
		require.Contains(t, sec, says, "the README names this step")
	}
	const bus = "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus"
	passphrase := []string{"CADRUMO_SECRET_PASSPHRASE=" + firstRunPass}

	// A person who created the profile as the README says; before that,
	// doctor says to create one.
	newUser := func(t *testing.T) firstRunUser {
		u := firstRunUser{t: t, home: t.TempDir()}
		code, report := u.aeatMCP(binary, []string{bus}, "", "doctor")
		require.Equal(t, 1, code, report)
		require.Contains(t, report, "fix: run `aeat config profile create NAME --tax-id <TAX_ID> --activity <ACTIVITY>` in a terminal")
		code, out := u.aeat(passphrase, "", create...)
		require.Equal(t, 0, code, "the README's command line: %s", out)
		return u
	}
	// answers: doctor is ok, and prints what the README shows; a first call
	// answers.
	answers := func(t *testing.T, u firstRunUser, bin string, host []string) {
		t.Helper()
		code, report := u.aeatMCP(bin, host, "", "doctor")
		require.Equal(t, 0, code, report)
		for _, line := range fenced(sec, "text output") {
			if strings.Contains(line, "CADRUMO 0.2.2") || strings.Contains(line, "config auth status") {
				assert.Contains(t, report, line, "doctor prints what the README shows")
			}
		}
		code, out := u.aeatMCP(bin, host, "", "--log-level", "error", "call", "ledger_list")
		assert.Equal(t, 0, code, out)
		assert.Contains(t, out, `"rows"`, "the first call ends in an answer")
	}

	t.Run("a desktop: aeat config login", func(t *testing.T) {
		u := newUser(t)
		code, out := u.aeat(append(passphrase, bus), "", "config", "login")
		require.Equal(t, 0, code, out)
		answers(t, u, binary, []string{bus})
		// The host started without the session's bus address: doctor says
		// so, as the call would.
		code, report := u.aeatMCP(binary, nil, "", "doctor")
		assert.Equal(t, 1, code, report)
		assert.Contains(t, report, "failed (keychain_unavailable)")
	})
	t.Run("any machine with a keychain: aeat-mcp secret set", func(t *testing.T) {
		u := newUser(t)
		kc := []string{"AEAT_MCP_TEST_KEYCHAIN=" + filepath.Join(t.TempDir(), "keychain.json")}
		code, out := u.aeatMCP(keychainBinary(t), kc, firstRunPass+"\n", "secret", "set", "CADRUMO_SECRET_PASSPHRASE")
		require.Equal(t, 0, code, out)
		answers(t, u, keychainBinary(t), kc)
	})
	t.Run("a headless Linux box: the env block", func(t *testing.T) {
		u := newUser(t)
		// A login there lasts one command: doctor says so, and what lasts.
		code, out := u.aeat(passphrase, "", "config", "login")
		require.Equal(t, 0, code, out)
		assert.Contains(t, out, "this login applies to the current command only")
		code, report := u.aeatMCP(binary, nil, "", "doctor")
		assert.Equal(t, 1, code, report)
		assert.Contains(t, report, "failed (login_required)")
		assert.Contains(t, report, "a login it keeps there lasts one command, and serves no call a host makes. What lasts: give aeat-mcp CADRUMO_SECRET_PASSPHRASE in the host's \"env\" block (no keychain in this session).")
		answers(t, u, binary, passphrase)
	})
}
