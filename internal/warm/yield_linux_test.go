package warm_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWarmPreparationYieldsToACall: while a call of the user's runs cold
// (no template serves yet), the template still starting is stopped (state
// T) and the cold verify run in progress is given up — then both carry on
// once the call ended: the verify run is made again, and warm start turns
// on. Everything waits on events: the template's warm-up, the verify run
// and the call each wait for a file the test makes. The call runs through
// the pool, or beside it as a server runs a tier the pool does not serve
// (Pool.Yield).
func TestWarmPreparationYieldsToACall(t *testing.T) {
	for name, run := range map[string]func(*testing.T, *setup, callruntime.Spec) callruntime.Result{
		"through the pool": func(t *testing.T, s *setup, spec callruntime.Spec) callruntime.Result {
			return s.run(t, context.Background(), spec)
		},
		"beside it": func(t *testing.T, s *setup, spec callruntime.Spec) callruntime.Result {
			defer s.pool.Yield()()
			res, err := s.runner.Run(context.Background(), spec)
			require.NoError(t, err)
			return res
		},
	} {
		t.Run(name, func(t *testing.T) { yieldsToACall(t, run) })
	}
}

func yieldsToACall(t *testing.T, run func(*testing.T, *setup, callruntime.Spec) callruntime.Result) {
	dir := t.TempDir()
	file := func(name string) string { return filepath.Join(dir, name) }
	s := newSetup(t, annotations.Warm{
		Warmup: [][]string{{"wait", file("warmup-gate"), file("template-pid")}},
		Verify: [][]string{{"wait", file("verify-gate"), file("verify-pids")}},
	}, baseEnv("0"))
	template := waitPids(t, file("template-pid"), 1)[0]
	verify := waitPids(t, file("verify-pids"), 1)[0]

	spec := s.spec("gate", file("call-gate"))
	running := make(chan struct{})
	var once sync.Once
	spec.OnLine = func(l callruntime.Line) {
		if l.Stream == callruntime.Stdout && strings.HasPrefix(l.Text, `{"pid"`) {
			once.Do(func() { close(running) })
		}
	}
	done := make(chan callruntime.Result, 1)
	go func() { done <- run(t, s, spec) }()
	select {
	case <-running:
	case <-time.After(proctest.HangAfter):
		t.Fatal("the call did not start")
	}

	waitUntil(t, "the starting template stopped", func() bool { return procState(template) == "T" })
	waitUntil(t, "the cold verify run given up", func() bool { return !runs(verify, "verify-gate") })
	assert.Len(t, readPids(t, file("verify-pids")), 1, "no verify run starts while the call runs")
	assert.Equal(t, warm.Starting, s.pool.Status().State)

	require.NoError(t, os.WriteFile(file("call-gate"), nil, 0o600))
	res := <-done
	assert.Equal(t, callruntime.Exited, res.End)
	assert.Equal(t, 0, res.ExitCode)

	waitUntil(t, "the template continued", func() bool { return procState(template) != "T" })
	waitPids(t, file("verify-pids"), 2) // the verify run, made again
	require.NoError(t, os.WriteFile(file("verify-gate"), nil, 0o600))
	require.NoError(t, os.WriteFile(file("warmup-gate"), nil, 0o600))
	st := s.settled(t)
	require.Equal(t, warm.On, st.State, st.Reason)
	assert.Equal(t, 1, st.Verified)
	assert.Equal(t, template, st.TemplatePID)
	w := parseWhoami(t, s.run(t, context.Background(), s.spec("whoami")))
	assert.True(t, w.Warm)
	assert.NotEqual(t, "T", procState(template), "a template that serves is never held")
}

// procState is the state letter of pid (R, S, T, Z…) from /proc, "" when it
// is gone.
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+3 > len(b) {
		return ""
	}
	return string(b[i+2 : i+3])
}

// runs reports whether pid is alive (not a zombie) with arg in its command
// line: a number reused by another process does not count.
func runs(pid int, arg string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || procState(pid) == "Z" {
		return false
	}
	return bytes.Contains(b, []byte(arg))
}

// readPids are the pids the demo CLI's wait verb wrote to path.
func readPids(t testing.TB, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		n, err := strconv.Atoi(f)
		require.NoError(t, err)
		pids = append(pids, n)
	}
	return pids
}

// waitPids waits until path holds at least n pids.
func waitPids(t testing.TB, path string, n int) []int {
	t.Helper()
	var pids []int
	waitUntil(t, "pid "+strconv.Itoa(n)+" in "+filepath.Base(path), func() bool {
		pids = readPids(t, path)
		return len(pids) >= n
	})
	return pids
}

// waitUntil waits until ok holds (proctest.Eventually: the hang bound only
// catches what never happens).
func waitUntil(t testing.TB, what string, ok func() bool) {
	t.Helper()
	if !proctest.Eventually(ok) {
		t.Fatalf("waiting for %s: not within %v", what, proctest.HangAfter)
	}
}
