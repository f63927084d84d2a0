//go:build linux

package docs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/require"
)

// fenceCeiling bounds one fence's run: a `go run` that compiles the binary,
// a fuzz run of a minute, on a machine ten times as loaded as a developer's.
const fenceCeiling = 20 * time.Minute

// TestDocsCommands runs every shell fence of the README and docs/ that is
// not marked, as written, as a new user would: a fresh home, the release
// downloaded (the snapshot release in AEAT_MCP_DIST, which .ci/run builds
// with goreleaser), a checkout of this repository, Go and Node on PATH, and
// aeat installed and logged in — the fake aeat, which refuses what the real
// one refuses (testdata/fakeaeat). The README is followed from its top; any
// other page by a user who first followed docs/install.md. A command ends
// with the exit status its comment says (0 unless "# exits N"); a `text
// output` fence right after a fence is what that fence prints ("…" stands
// for anything). After each page, Claude Code's own CLI (npm, pinned in
// interop/) must connect to every server the page added to its
// configuration.
func TestDocsCommands(t *testing.T) {
	dist := os.Getenv("AEAT_MCP_DIST")
	if dist == "" {
		t.Skip("AEAT_MCP_DIST is set by .ci/run after goreleaser release --snapshot")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("the docs show the linux/amd64 archive; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	w := newWorld(t, dist)
	all := pages(t)
	var install page
	for _, p := range all {
		if p.name == "docs/install.md" {
			install = p
		}
	}
	require.NotEmpty(t, install.fences, "docs/install.md shows how to install")
	for _, p := range all {
		if !slices.ContainsFunc(p.fences, fence.runs) {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			u := w.newUser(t)
			if p.name != "README.md" && p.name != install.name {
				u.follow(t, install) // every other page assumes aeat-mcp installed
			}
			u.follow(t, p)
			u.claudeConnects(t)
		})
	}
}

// A world is what every user of one run shares: the checkout, the release,
// the fake aeat.
type world struct {
	checkout string // a copy: commands may write into it
	bin      string // the fake aeat, as pip would have installed it
	path     string // the system's programs: Go, Node, git, coreutils
	goEnv    []string
}

func newWorld(t *testing.T, dist string) *world {
	root := repoRoot(t)
	w := &world{checkout: t.TempDir(), bin: t.TempDir()}
	out, err := exec.Command("git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard", "-z").Output()
	require.NoError(t, err, "git ls-files")
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, f)
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		dst := filepath.Join(w.checkout, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
		raw, err := os.ReadFile(src)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(dst, raw, info.Mode().Perm()))
	}
	// The release's files, as a person downloads them beside the checkout.
	released, err := os.ReadDir(dist)
	require.NoError(t, err)
	n := 0
	for _, e := range released {
		name := e.Name()
		if e.Type().IsRegular() && (strings.HasSuffix(name, ".tar.gz") || strings.HasSuffix(name, ".zip") ||
			strings.HasSuffix(name, ".mcpb") || name == "checksums.txt" || name == "server.json") {
			abs, err := filepath.Abs(filepath.Join(dist, name))
			require.NoError(t, err)
			require.NoError(t, os.Symlink(abs, filepath.Join(w.checkout, name)))
			n++
		}
	}
	require.NotZero(t, n, "no release archives in %s", dist)

	fake, err := os.ReadFile(proctest.Build(t, "testdata/fakeaeat"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(w.bin, "aeat"), fake, 0o755))

	// PATH: the programs the docs assume (Go, Node, git) and the system's,
	// but never a directory that might hold another aeat-mcp or aeat.
	dirs := []string{}
	for _, prog := range []string{"go", "node", "git"} {
		if p, err := exec.LookPath(prog); err == nil {
			dirs = append(dirs, filepath.Dir(p))
		}
	}
	dirs = append(dirs, "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
	w.path = strings.Join(dirs, string(os.PathListSeparator))
	for _, d := range dirs {
		for _, prog := range []string{"aeat-mcp", "aeat"} {
			_, err := os.Stat(filepath.Join(d, prog))
			require.True(t, os.IsNotExist(err), "%s is in %s, on the test user's PATH: the docs' install steps would not be tested", prog, d)
		}
	}
	// Go's caches are the developer's (a fresh home would download and
	// compile everything again); GOPATH, where go install writes, is the
	// user's own.
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GOPRIVATE", "GOFLAGS"} {
		out, err := exec.Command("go", "env", v).Output()
		require.NoError(t, err)
		w.goEnv = append(w.goEnv, v+"="+strings.TrimSpace(string(out)))
	}
	w.goEnv = append(w.goEnv, "GOTOOLCHAIN=local")
	return w
}

// A user is one person with a home of their own, aeat installed and
// logged in.
type user struct {
	w    *world
	home string
	env  []string
}

func (w *world) newUser(t *testing.T) *user {
	home := t.TempDir()
	u := &user{w: w, home: home}
	// aeat, logged in from a terminal: its store in the default place, a
	// session in the keyring the desktop session offers.
	store := filepath.Join(home, ".local", "share", "cadrumo", "storage")
	require.NoError(t, os.MkdirAll(store, 0o700))
	st, err := json.Marshal(map[string]any{
		"active":   "casa",
		"profiles": map[string]any{"casa": map[string]any{"passphrase": "pw", "complete": true}},
		"session":  map[string]any{"profile": "casa", "backend": "keyring", "last_used": time.Now().UTC()},
	})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(store, "fake-store.json"), st, 0o600))
	u.env = append([]string{
		"HOME=" + home,
		"USER=docs", "LOGNAME=docs",
		"PATH=" + strings.Join([]string{filepath.Join(home, ".local", "bin"), filepath.Join(home, "go", "bin"), w.bin, w.path}, string(os.PathListSeparator)),
		"LANG=C.UTF-8",
		"TERM=dumb",
		// A desktop session's bus address, where no keychain answers: the
		// fake's login session lives in "the keyring"; aeat-mcp's own
		// look-ups fail fast instead of starting a bus.
		"DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(home, ".no-bus"),
		"TMPDIR=" + os.TempDir(),
	}, w.goEnv...)
	return u
}

// follow runs the page's fences in order; a `text output` fence right
// after one is checked against what it printed.
func (u *user) follow(t *testing.T, p page) {
	t.Helper()
	for i, f := range p.fences {
		if !f.runs() {
			continue
		}
		require.NotEqual(t, "powershell", f.lang, "%s: a PowerShell fence is marked not-run (no Windows here)", f)
		stdout := u.run(t, f)
		if i+1 < len(p.fences) && p.fences[i+1].lang == "text" && p.fences[i+1].mark == "output" {
			requireOutput(t, p.fences[i+1], stdout)
		}
	}
}

// run runs one fence in bash, in the checkout, each command checked
// against the exit status its comment says.
func (u *user) run(t *testing.T, f fence) string {
	t.Helper()
	var script strings.Builder
	script.WriteString("set -o pipefail\n")
	for _, c := range f.commands() {
		fmt.Fprintf(&script, "%s\n__rc=$?; if [ $__rc -ne %d ]; then echo \"docs: %s:%d exited $__rc, the page says %d: \"%q >&2; exit 97; fi\n",
			c.text, c.wantExit(), f.page, c.line, c.wantExit(), c.text)
	}
	ctx, cancel := context.WithTimeout(context.Background(), fenceCeiling)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir = u.w.checkout
	cmd.Env = u.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	t.Logf("%s: %d commands in %s", f, len(f.commands()), time.Since(start).Round(time.Millisecond))
	require.NoError(t, err, "%s, as a new user runs it:\n%s\n--- stdout:\n%s\n--- stderr:\n%s", f, strings.Join(f.lines, "\n"), stdout.String(), stderr.String())
	return stdout.String()
}

// requireOutput: what the fence before printed is the output fence, line
// for line — a line "…" stands for any number of lines, a "…" within a line
// for any text in it.
func requireOutput(t *testing.T, want fence, got string) {
	t.Helper()
	require.Regexp(t, outputPattern(want.lines), got, "%s is not what the fence before it printed", want)
}

// claudeConnects: every server the page put in Claude Code's configuration
// connects, as Claude Code's own CLI sees it (`claude mcp list`).
func (u *user) claudeConnects(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(u.home, ".claude.json")); err != nil {
		return
	}
	if _, err := exec.LookPath("node"); err != nil {
		// As ./scripts/interop does on a machine with only Go.
		t.Log("not checked that Claude Code connects: its CLI needs Node.js, which is not installed")
		return
	}
	wrapper := filepath.Join(repoRoot(t), "interop", "node_modules", "@anthropic-ai", "claude-code", "cli-wrapper.cjs")
	if _, err := os.Stat(wrapper); err != nil {
		t.Fatalf("the page configured Claude Code, and its CLI is not installed: npm ci --prefix interop (./scripts/interop does it)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", wrapper, "mcp", "list")
	cmd.Dir = u.home
	cmd.Env = append(u.env, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "claude mcp list:\n%s", out)
	t.Logf("claude mcp list, in %s:\n%s", time.Since(start).Round(time.Millisecond), out)
	var servers int
	for _, l := range strings.Split(string(out), "\n") {
		if name, rest, ok := strings.Cut(l, ": "); ok && !strings.Contains(name, " ") && strings.Contains(rest, " - ") {
			servers++
			require.Contains(t, rest, "Connected", "Claude Code does not connect to %s:\n%s", name, out)
		}
	}
	require.NotZero(t, servers, "claude mcp list shows no server:\n%s", out)
}
