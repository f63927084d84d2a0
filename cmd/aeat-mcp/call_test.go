//go:build linux

package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCall_ArgumentErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"call"}, "call needs a tool name (aeat-mcp tools lists them)"},
		{[]string{"call", "ledger_list", "extra", "words"}, "call takes one tool name, then --arg NAME=VALUE flags; unexpected: extra words"},
		{[]string{"call", "ledger_lst"}, `no tool "ledger_lst" in the manifest; did you mean ledger_list? (aeat-mcp tools lists them)`},
		{[]string{"call", "ledger_list", "--arg", "limit=dos"}, `--arg limit (integer): expected an integer, got "dos"`},
		{[]string{"call", "ledger_list", "--arg", "limit=1", "--arg", "limit=2"}, "--arg limit given twice: it takes one value (only arrays repeat)"},
		{[]string{"call", "ledger_list", "--arg", "limt=1"}, `--arg limt: ledger_list has no parameter "limt"; it takes tags, limit`},
		{[]string{"call", "ledger_list", "--arg", "limit"}, `--arg "limit": want NAME=VALUE`},
		{[]string{"call", "modelo_303_pull"}, "modelo_303_pull needs year (integer), period (string): give --arg NAME=VALUE for each"},
		{[]string{"--read-only", "call", "modelo_303_submit"}, `tool "modelo_303_submit" is hidden by --read-only: it changes state`},
		{[]string{"--tools", "ledger_*", "call", "profile_show"}, `tool "profile_show" is not among the tools --tools selects`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := runCmd(t, "", append([]string{"--demo", "--log-level", "error"}, tc.args...)...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tc.want)
		})
	}
	// Arrays repeat; a later element is appended.
	code, out, _ := runCmd(t, "", "--demo", "--log-level", "error", "call", "ledger_list", "--arg", "tags=venta", "--arg", "tags=gasto", "--arg", "limit=5")
	assert.Equal(t, exitOK, code, out)
}

func TestCall_DryRun(t *testing.T) {
	t.Setenv("CADRUMO_STORAGE_ROOT", "/srv/aeat-secret-path")
	code, out, _ := runCmd(t, "", "--manifest", example, "--cli", "/bin/true", "--log-level", "error",
		"call", "ledger_remove", "--arg", "transaction_id=-7", "--arg", "reason=it's a dup", "--arg", "profile=casa", "--dry-run")
	require.Equal(t, exitOK, code, out)
	assert.Contains(t, out, `would run: /bin/true --format json --profile=casa app ledger remove '--reason=it'\''s a dup' --yes -- -7`)
	assert.Contains(t, out, "a person is asked first; --yes is added only after a yes")
	assert.Contains(t, out, "CADRUMO_STORAGE_ROOT")
	assert.NotContains(t, out, "/srv/aeat-secret-path", "names, never values")
	assert.Contains(t, out, "nothing was run")

	code, out, _ = runCmd(t, "", "--manifest", example, "--cli", "/bin/true", "--log-level", "error",
		"call", "ledger_remove", "--arg", "transaction_id=-7", "--arg", "dry_run=true", "--dry-run")
	require.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "app ledger remove --dry-run -- -7\n", "a dry run: no question, no --yes")
	assert.NotContains(t, out, "asked")

	code, _, errOut := runCmd(t, "", "--manifest", example, "--cli", "/bin/true", "--log-level", "error",
		"call", "ledger_list", "--arg", "year=2025", "--dry-run")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `argument "year": requires "period"`)
}

// startCall starts aeat-mcp --demo call … with its stderr read line by
// line.
func startCall(t *testing.T, args ...string) (cmd *exec.Cmd, stdin io.WriteCloser, stderr <-chan string) {
	t.Helper()
	cmd = exec.Command(binaryPath(t), append([]string{"--demo", "--lang", "en", "call"}, args...)...)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	errPipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(errPipe)
		sc.Split(scanPrompts)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, stdin, lines
}

// scanPrompts splits at newlines and after a "[y/N] " prompt, which has
// none.
func scanPrompts(data []byte, atEOF bool) (int, []byte, error) {
	if i := strings.IndexByte(string(data), '\n'); i >= 0 {
		return i + 1, data[:i], nil
	}
	if i := strings.Index(string(data), "[y/N] "); i >= 0 {
		return i + 6, data[:i+5], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

func waitLine(t *testing.T, lines <-chan string, want string, within time.Duration) []string {
	t.Helper()
	var seen []string
	deadline := time.After(within)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stderr ended before %q; saw %q", want, seen)
			}
			seen = append(seen, l)
			if strings.Contains(l, want) {
				return seen
			}
		case <-deadline:
			t.Fatalf("no %q within %v; saw %q", want, within, seen)
		}
	}
}

func exitCode(t *testing.T, cmd *exec.Cmd, within time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		return cmd.ProcessState.ExitCode()
	case <-time.After(within):
		t.Fatalf("still running after %v", within)
	}
	return -1
}

// demoCLIs are the live processes of the demo CLI run by this test's binary.
func demoCLIs(t *testing.T) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.HasPrefix(string(cmdline), binaryPath(t)+"\x00demo-cli") {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestCall_CtrlC: Ctrl-C cancels the call, its tree is gone before the
// process says "cancelled", and it exits 130.
func TestCall_CtrlC(t *testing.T) {
	cmd, _, lines := startCall(t, "modelo_390_pull", "--arg", "year=2025")
	waitLine(t, lines, "abriendo la sede", proctest.HangAfter)
	require.NotEmpty(t, demoCLIs(t), "the demo CLI runs")
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	rest := waitLine(t, lines, "modelo_390_pull was cancelled; its whole process tree was stopped.", proctest.HangAfter)
	assert.NotContains(t, strings.Join(rest, "\n"), "context canceled")
	assert.Equal(t, exitInterrupted, exitCode(t, cmd, proctest.HangAfter))
	assert.Empty(t, demoCLIs(t), "no process of the call is left")
}

// TestCall_CtrlCAtPrompt: Ctrl-C while asked to confirm is a no, at once:
// the question waits five minutes for a person (the server's confirmation
// wait), past the hang bound, so a "cancelled" within it is the SIGINT's.
func TestCall_CtrlCAtPrompt(t *testing.T) {
	cmd, _, lines := startCall(t, "modelo_303_submit", "--arg", "year=2025", "--arg", "period=1T")
	seen := waitLine(t, lines, "[y/N]", proctest.HangAfter)
	all := strings.Join(seen, "\n")
	assert.Contains(t, all, "Submit a modelo 303 (demo)", "the prompt shows the title")
	assert.Contains(t, all, "modelo 303 submit --year=2025 --period=1T", "and what will run")
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	waitLine(t, lines, "was cancelled", proctest.HangAfter)
	assert.Equal(t, exitInterrupted, exitCode(t, cmd, proctest.HangAfter))
	assert.Empty(t, demoCLIs(t), "nothing ran")
}

// TestCall_ArgsJSONNumbersExact: --args-json passes numbers as written, as
// a host's call and --arg do: no rounding through float64.
func TestCall_ArgsJSONNumbersExact(t *testing.T) {
	manifest := filepath.Join(t.TempDir(), "m.json")
	require.NoError(t, os.WriteFile(manifest, []byte(`{"version":1,"cli":{"command":"/bin/echo"},"tools":[{"name":"nums","title":"Nums","description":"Echoes numbers.","command":["nums"],
"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false},
"params":[{"name":"n","type":"integer","flag":"--n"},{"name":"x","type":"number","flag":"--x"},{"name":"xs","type":"array","items":"number","flag":"--xs"}]}]}`), 0o644))
	want := "nums --n=9007199254740993 --x=1e-400 --xs=0.10000000000000000001 --xs=-12345678901234567890\n"
	code, out, errOut := runCmd(t, "", "--manifest", manifest, "--log-level", "error", "call", "nums",
		"--args-json", `{"n": 9007199254740993, "x": 1e-400, "xs": [0.10000000000000000001, -12345678901234567890]}`)
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, want, out)
	code, out, errOut = runCmd(t, "", "--manifest", manifest, "--log-level", "error", "call", "nums",
		"--arg", "n=9007199254740993", "--arg", "x=1e-400", "--arg", "xs=0.10000000000000000001", "--arg", "xs=-12345678901234567890")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, want, out, "the same as --arg")
	code, _, errOut = runCmd(t, "", "--manifest", manifest, "--log-level", "error", "call", "nums", "--args-json", `{"n": 1} }`)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "--args-json: one JSON object, and nothing after it")
}
