package callruntime_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/require"
)

// fakecli is the path of testdata/fakecli, built once for the package.
var fakecli string

func TestMain(m *testing.M) {
	if os.Getenv("CALLRUNTIME_TEST_HELPER") != "" {
		os.Exit(helperMain())
	}
	var err error
	if fakecli, err = proctest.Built("testdata/fakecli"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	proctest.RemoveBuilds()
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

// steps builds a fakecli argument list from "+"-separated steps. An
// "await PATH" step keeps its path whole (a temporary directory may hold a
// space).
func steps(s ...string) []string {
	var out []string
	for i, step := range s {
		if i > 0 {
			out = append(out, "+")
		}
		if path, ok := strings.CutPrefix(step, "await "); ok {
			out = append(out, "await", path)
			continue
		}
		out = append(out, strings.Fields(step)...)
	}
	return out
}

// A gate is a file fakecli's "await" step waits for: a test opens it once
// what the program must wait for has happened (another call in flight, a
// walk that saw its tree), instead of hoping a sleep lasts long enough.
type gate string

func newGate(t *testing.T) gate { return gate(filepath.Join(t.TempDir(), "go-ahead")) }

// await is the fakecli step that waits for the gate.
func (g gate) await() string { return "await " + string(g) }

// open lets the program go on. It is safe to call from an observer.
func (g gate) open() error { return os.WriteFile(string(g), nil, 0o644) }

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
func stopWhenSeen(s *callruntime.Spec, prefix string) context.Context {
	ctx, _ := endWhenSeen(s, prefix, 1, context.Canceled)
	return ctx
}

// endWhenSeen returns a ctx that ends with cause once s's program has
// printed n lines starting with prefix, and when it did. With cause
// callruntime.ErrTimeout it is the call's timeout — the cause Spec.Timeout's
// own deadline gives, so the call ends TimedOut down the same path — that
// comes once the tree is there: a short Spec.Timeout comes before a loaded
// machine has built it.
//
// s.Timeout, proctest.HangAfter, bounds the wait for a line that never
// comes.
func endWhenSeen(s *callruntime.Spec, prefix string, n int, cause error) (ctx context.Context, endedAt func() time.Time) {
	s.Timeout = proctest.HangAfter
	ctx, end := context.WithCancelCause(context.Background())
	var mu sync.Mutex
	var seen int
	var at time.Time
	s.OnLine = func(l callruntime.Line) {
		if !strings.HasPrefix(l.Text, prefix) {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if seen++; seen == n {
			at = time.Now()
			end(cause)
		}
	}
	return ctx, func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return at
	}
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
