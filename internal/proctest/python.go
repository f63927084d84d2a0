package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// RequirePythonEnv, set to 1, makes [Python] fail a test it would skip:
// CI sets it, so that a machine without the Python its tests need fails
// the run rather than passing it untested.
const RequirePythonEnv = "AEAT_MCP_TEST_REQUIRE_PYTHON"

// PythonEnv names the interpreter to try first (CI's setup-python), before
// python3 and python on PATH.
const PythonEnv = "AEAT_MCP_TEST_PYTHON"

var pythons sync.Map // modules → func() (string, error)

// Python is the real executable (sys.executable: not a pyenv shim) of the
// first of $AEAT_MCP_TEST_PYTHON, python3 and python that imports every
// one of modules. When there is none the test skips, saying what it
// lacks — or fails, where AEAT_MCP_TEST_REQUIRE_PYTHON=1.
func Python(tb testing.TB, modules ...string) string {
	tb.Helper()
	key := strings.Join(modules, ",")
	once, _ := pythons.LoadOrStore(key, sync.OnceValues(func() (string, error) { return findPython(modules) }))
	py, err := once.(func() (string, error))()
	if err == nil {
		return py
	}
	if os.Getenv(RequirePythonEnv) == "1" {
		tb.Fatalf("%v, and %s=1", err, RequirePythonEnv)
		return ""
	}
	tb.Skip(err)
	return ""
}

func findPython(modules []string) (string, error) {
	code := "import sys"
	for _, m := range modules {
		code += ", " + m
	}
	code += "; print(sys.executable)"
	var tried []string
	for _, cand := range []string{os.Getenv(PythonEnv), "python3", "python"} {
		if cand == "" {
			continue
		}
		out, err := exec.Command(cand, "-c", code).Output()
		if err == nil && strings.TrimSpace(string(out)) != "" {
			return strings.TrimSpace(string(out)), nil
		}
		tried = append(tried, fmt.Sprintf("%s: %v", cand, err))
	}
	what := "Python"
	if len(modules) > 0 {
		what = "Python that imports " + strings.Join(modules, ", ")
	}
	return "", fmt.Errorf("no %s on this machine (tried %s)", what, strings.Join(tried, "; "))
}
