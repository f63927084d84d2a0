//go:build unix

package warm_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// python is the real interpreter (not a pyenv shim) the test CLI runs in.
func python(t testing.TB) string { return proctest.Python(t, "click") }

// demoCLI is a copy of testdata/warmcli, with the real interpreter on the
// script's #! line: the script's path.
func demoCLI(t testing.TB) string { return proctest.WarmCLI(t) }

// stateDir is a private state directory for a Runner's ledger (the /proc
// walk's durable record of its calls' members).
func stateDir(t testing.TB) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), "state")
	require.NoError(t, os.Mkdir(d, 0o700))
	return d
}

// setup is one pool over the demo CLI.
type setup struct {
	script string
	state  string // the Runner's StateDir
	runner *callruntime.Runner
	pool   *warm.Pool
	env    []string
	dir    string
}

// baseEnv is what the demo CLI's calls get: an import of importSeconds.
func baseEnv(importSeconds string, extra ...string) []string {
	return append([]string{"PATH=/usr/bin:/bin", "WARMDEMO_IMPORT_SECONDS=" + importSeconds, "TMPDIR=" + os.TempDir()}, extra...)
}

func newSetup(t testing.TB, w annotations.Warm, env []string, disable ...callruntime.Mechanism) *setup {
	t.Helper()
	return newSetupWith(t, w, env, nil, disable...)
}

// newSetupWith is newSetup with more of the pool's Config set by more.
func newSetupWith(t testing.TB, w annotations.Warm, env []string, more func(*warm.Config), disable ...callruntime.Mechanism) *setup {
	t.Helper()
	script := demoCLI(t)
	state := stateDir(t)
	r, err := callruntime.NewRunner(callruntime.Options{Disable: disable, StateDir: state})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	if w.Entry == "" {
		w.Entry = "warmdemo:main"
	}
	if w.Preload == "" {
		w.Preload = annotations.PreloadClick
	}
	dir := t.TempDir()
	py, err := warm.Interpreter(script, "")
	require.NoError(t, err)
	cfg := warm.Config{Warm: w, Python: py, Script: script, Env: env, Dir: dir, Runner: r}
	if more != nil {
		more(&cfg)
	}
	pool := warm.Start(cfg)
	t.Cleanup(pool.Close)
	return &setup{script: script, state: state, runner: r, pool: pool, env: env, dir: dir}
}

// settleBound only catches a pool that never settles: a template's start
// is an interpreter's import, a verify call cold and warm and the fork
// canary, each a process that waits for a core on a loaded machine (at
// load 25 on 2 cores, with -count=2 of the package beside, 60 s was seen
// to pass before a pool settled).
const settleBound = 5 * time.Minute

// settled waits until the pool is on or off.
func (s *setup) settled(t testing.TB) warm.Status {
	t.Helper()
	select {
	case <-s.pool.Settled():
	case <-time.After(settleBound):
		t.Fatalf("the pool did not settle in %s: status %+v", settleBound, s.pool.Status())
	}
	return s.pool.Status()
}

// waitFor polls the pool's status until ok says so.
func (s *setup) waitFor(t testing.TB, what string, ok func(warm.Status) bool) warm.Status {
	t.Helper()
	deadline := time.After(settleBound)
	for {
		ch := s.pool.Changed()
		if st := s.pool.Status(); ok(st) {
			return st
		}
		select {
		case <-ch:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("waiting for %s: status %+v", what, s.pool.Status())
		}
	}
}

func (s *setup) spec(args ...string) callruntime.Spec {
	return callruntime.Spec{Path: s.script, Args: args, Env: s.env, Dir: s.dir, KillGrace: 500 * time.Millisecond}
}

func (s *setup) run(t testing.TB, ctx context.Context, spec callruntime.Spec) callruntime.Result {
	t.Helper()
	res, err := s.pool.Run(ctx, spec)
	require.NoError(t, err)
	if len(res.Stdout.Head) == 0 {
		// Said whenever a call printed nothing: what the test then finds
		// missing came back empty once in a while under load.
		t.Logf("%v printed nothing: end %s, exit %d, signal %s, tree %s, stderr %q", spec.Args, res.End, res.ExitCode, res.Signal, res.Tree, res.Stderr.Head)
	}
	return res
}

// whoami is the demo CLI's report of one call.
type whoami struct {
	Pid       int    `json:"pid"`
	Ppid      int    `json:"ppid"`
	ImportPid int    `json:"import_pid"`
	Warm      bool   `json:"warm"`
	Sid       int    `json:"sid"`
	Pgid      int    `json:"pgid"`
	Cwd       string `json:"cwd"`
	Argv0     string `json:"argv0"`
	Cgroup    string `json:"cgroup"`
	Tmp       string `json:"tmp"`
	Threads   int    `json:"threads"`
}

func parseWhoami(t testing.TB, res callruntime.Result) whoami {
	t.Helper()
	var w whoami
	require.NoError(t, json.Unmarshal(res.Stdout.Head, &w), "stdout %q stderr %q", res.Stdout.Head, res.Stderr.Head)
	return w
}

// pidLines reads the JSON lines of pids a verb printed.
func pidLines(t testing.TB, out []byte) []int {
	t.Helper()
	var pids []int
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m map[string]int
		if json.Unmarshal([]byte(line), &m) != nil {
			continue
		}
		for _, k := range []string{"pid", "grandchild"} {
			if p, ok := m[k]; ok {
				pids = append(pids, p)
			}
		}
	}
	return pids
}

// modes are the tree mechanisms this machine offers, each tested: a cgroup
// the child is forked into (clone3), a cgroup it is moved into (the
// fallback where clone3 is refused), the /proc walk.
func modes(t *testing.T) map[string][]callruntime.Mechanism {
	t.Helper()
	out := map[string][]callruntime.Mechanism{}
	for name, dis := range map[string][]callruntime.Mechanism{
		"cgroup": nil, "cgroup-moved": {callruntime.CloneIntoCgroup}, "procwalk": {callruntime.CgroupV2},
	} {
		r, err := callruntime.NewRunner(callruntime.Options{Disable: dis})
		require.NoError(t, err)
		if tree, _, _ := strings.Cut(name, "-"); r.Tree() == tree {
			out[name] = dis
		}
		r.Close()
	}
	if len(out) == 0 {
		// macOS: the one mechanism there is (the process-table walk).
		r, err := callruntime.NewRunner(callruntime.Options{})
		require.NoError(t, err)
		out[r.Tree()] = nil
		r.Close()
	}
	return out
}

// treeDead checks a result's tree_dead: confirmed where the mechanism sees
// the whole tree (treesConfirmed), never claimed where it cannot.
func treeDead(t testing.TB, res callruntime.Result) {
	t.Helper()
	assert.Equal(t, treesConfirmed, res.TreeDead, "tree_dead (%s)", res.Tree)
}

// ceilingAtPid is the context of a call that reaches its ceiling once its
// child reported its pid (the demo CLI's first line, written once the verb
// is set up as the test needs): a ceiling a test means to hit comes after
// the call runs, not after a time a loaded machine outlasts before it does.
// proctest.HangAfter bounds a call that never reports.
func ceilingAtPid(t testing.TB, spec *callruntime.Spec) context.Context {
	t.Helper()
	ctx, ceiling := context.WithCancelCause(context.Background())
	t.Cleanup(func() { ceiling(nil) })
	spec.Timeout = proctest.HangAfter
	spec.OnLine = func(l callruntime.Line) {
		if l.Stream == callruntime.Stdout && strings.HasPrefix(l.Text, `{"pid"`) {
			ceiling(callruntime.ErrTimeout)
		}
	}
	return ctx
}
