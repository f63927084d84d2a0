package proctest_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	code := m.Run()
	proctest.RemoveBuilds()
	os.Exit(code)
}

// TestBuild: a program is built once per (package, tags), under its
// program's name, and runs.
func TestBuild(t *testing.T) {
	cli := proctest.Build(t, "testdata/fakecli")
	assert.Equal(t, cli, proctest.Build(t, "testdata/fakecli"), "built once")
	out, err := exec.Command(cli, "echo", "built").Output()
	require.NoError(t, err)
	assert.Equal(t, "built\n", string(out))

	fake := proctest.Build(t, "testdata/fakeaeat")
	assert.Equal(t, "aeat", strings.TrimSuffix(filepath.Base(fake), ".exe"), "the fake aeat has the real one's name")

	plain := proctest.Build(t, "cmd/aeat-mcp")
	tagged := proctest.Build(t, "cmd/aeat-mcp", "aeatmcp_testkeychain")
	assert.NotEqual(t, plain, tagged, "another build for other tags")
	assert.Equal(t, filepath.Base(plain), filepath.Base(tagged), "under the same name")

	_, err = proctest.Built("testdata/no-such-program")
	assert.ErrorContains(t, err, "building testdata/no-such-program")
}

// TestPython: the interpreter found imports what was asked; one that
// cannot be found skips the test — or fails it where CI requires Python.
func TestPython(t *testing.T) {
	py := proctest.Python(t, "json")
	require.True(t, filepath.IsAbs(py), py)
	out, err := exec.Command(py, "-c", "import json; print(json.dumps(1))").Output()
	require.NoError(t, err)
	assert.Equal(t, "1", strings.TrimSpace(string(out)))

	t.Setenv(proctest.RequirePythonEnv, "")
	r := &recorder{TB: t}
	proctest.Python(r, "no_such_module_aeat_mcp")
	assert.Contains(t, r.skipped, "no Python that imports no_such_module_aeat_mcp")
	assert.Empty(t, r.failed)

	t.Setenv(proctest.RequirePythonEnv, "1")
	r = &recorder{TB: t}
	proctest.Python(r, "no_such_module_aeat_mcp")
	assert.Contains(t, r.failed, proctest.RequirePythonEnv+"=1")
	assert.Empty(t, r.skipped)
}

// recorder stands for a test: it records a skip or a failure instead of
// ending the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skip(args ...any)                  { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

// TestWarmCLI: a copy of the Click test CLI whose #! names the Python
// that has click.
func TestWarmCLI(t *testing.T) {
	script := proctest.WarmCLI(t)
	b, err := os.ReadFile(script)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(b), "#!"+proctest.Python(t, "click")+"\n"), "%.80s", b)
	_, err = os.Stat(filepath.Join(filepath.Dir(script), "warmdemo"))
	assert.NoError(t, err, "its package beside it")
}

// TestAeatFacts: the pinned facts, in every clone.
func TestAeatFacts(t *testing.T) {
	for _, name := range []string{"commands.json", "facts.json", "help.json"} {
		_, err := os.Stat(filepath.Join(proctest.AeatFacts(), name))
		assert.NoError(t, err, name)
	}
}
