package callruntime_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/stretchr/testify/require"
)

// fakecli is the path of testdata/fakecli, built once for the package.
var fakecli string

func TestMain(m *testing.M) {
	if os.Getenv("CALLRUNTIME_TEST_HELPER") != "" {
		os.Exit(helperMain())
	}
	dir, err := os.MkdirTemp("", "callruntime-test")
	if err != nil {
		panic(err)
	}
	fakecli = filepath.Join(dir, "fakecli")
	if runtime.GOOS == "windows" {
		fakecli += ".exe" // CheckRunnable: only .exe and .com run there
	}
	build := exec.Command("go", "build", "-o", fakecli, "../../testdata/fakecli")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building fakecli:", err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// mode is one way of tracking a tree, forced through Options.Disable.
type mode struct {
	name    string
	disable []callruntime.Mechanism
	tree    string
}

// modes lists every tree mechanism this machine offers of this OS's
// (osModes), best first, so each guarantee is proven on every path, not
// just the one a machine picks.
func modes(t *testing.T) []mode {
	t.Helper()
	var out []mode
	for _, m := range osModes {
		r, err := callruntime.NewRunner(callruntime.Options{Disable: m.disable})
		require.NoError(t, err)
		tree := r.Tree()
		require.NoError(t, r.Close())
		if tree == m.tree {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		t.Fatal("no tree mechanism available")
	}
	return out
}

func newRunner(t *testing.T, disable ...callruntime.Mechanism) *callruntime.Runner {
	t.Helper()
	r, err := callruntime.NewRunner(callruntime.Options{Disable: disable})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, r.Close()) })
	return r
}

// steps builds a fakecli argument list from "+"-separated steps.
func steps(s ...string) []string {
	var out []string
	for i, step := range s {
		if i > 0 {
			out = append(out, "+")
		}
		out = append(out, strings.Fields(step)...)
	}
	return out
}

func spec(args ...string) callruntime.Spec {
	return callruntime.Spec{Path: fakecli, Args: steps(args...), KillGrace: 500 * time.Millisecond}
}

var pidLine = regexp.MustCompile(`(?m)^pid (\S+) (\d+)$`)

// reportedPids returns the pids fakecli reported, by role.
func reportedPids(out string) map[string]int {
	pids := map[string]int{}
	for _, m := range pidLine.FindAllStringSubmatch(out, -1) {
		pid, _ := strconv.Atoi(m[2])
		pids[m[1]] = pid
	}
	return pids
}

func run(t *testing.T, r *callruntime.Runner, s callruntime.Spec) callruntime.Result {
	t.Helper()
	res, err := r.Run(context.Background(), s)
	require.NoError(t, err)
	return res
}

// stopWhenSeen returns a ctx that ends when s's program prints a line
// starting with prefix: a test stops a tree once it is what the test needs,
// not after a time a loaded machine may not honour.
//
// A minute's timeout bounds the wait for a line that never comes.
func stopWhenSeen(s *callruntime.Spec, prefix string) context.Context {
	s.Timeout = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	s.OnLine = func(l callruntime.Line) {
		if strings.HasPrefix(l.Text, prefix) {
			cancel()
		}
	}
	return ctx
}

// except returns the pids of every role but the given ones.
func except(pids map[string]int, roles ...string) map[string]int {
	out := map[string]int{}
	for r, pid := range pids {
		out[r] = pid
	}
	for _, r := range roles {
		delete(out, r)
	}
	return out
}

// privateStateDir is a StateDir of the test's own. t.TempDir is open to
// other users (0755), which a Runner refuses for its ledger; a directory
// it creates itself inside is its own (0700).
func privateStateDir(t *testing.T) string {
	return filepath.Join(t.TempDir(), "state")
}
