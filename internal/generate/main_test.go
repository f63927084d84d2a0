package generate

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// cobracli is testdata/cobracli, built once for the package.
var (
	cobraOnce sync.Once
	cobraBin  string
	cobraErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

func cobraCLI(t testing.TB) string {
	t.Helper()
	cobraOnce.Do(func() {
		buildDir, cobraErr = os.MkdirTemp("", "generate-test")
		if cobraErr != nil {
			return
		}
		cobraBin = filepath.Join(buildDir, "cobracli")
		if runtime.GOOS == "windows" {
			cobraBin += ".exe"
		}
		out, err := exec.Command("go", "build", "-o", cobraBin, "./testdata/cobracli").CombinedOutput()
		if err != nil {
			cobraErr = fmt.Errorf("building testdata/cobracli: %v\n%s", err, out)
		}
	})
	if cobraErr != nil {
		t.Fatal(cobraErr)
	}
	return cobraBin
}

// clickPython is a Python 3 with click, as its real executable (not a
// shim); the test skips, saying so, when there is none.
func clickPython(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("python3", "-c", "import sys, click; print(sys.executable)").Output()
	if err != nil {
		t.Skipf("no Python 3 with click on this machine (python3 -c 'import click': %v): the click walk is not tested", err)
	}
	return strings.TrimSpace(string(out))
}

// ClickScript writes the test CLI's console script as pip would — with
// a #! line naming python, or pip's /bin/sh trampoline — into dir.
func clickScript(t testing.TB, dir, python, form string) string {
	t.Helper()
	lib, err := filepath.Abs("testdata/clickcli")
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join(lib, "clickdemo-script"))
	if err != nil {
		t.Fatal(err)
	}
	var head string
	switch form {
	case "shebang":
		head = "#!" + python + "\n"
	case "trampoline":
		head = "#!/bin/sh\n'''exec' \"" + python + "\" \"$0\" \"$@\"\n' '''\n"
	case "none":
	}
	// The checkout's copy stands for the installed package.
	head += fmt.Sprintf("import sys; sys.path.insert(0, %q)\n", lib)
	path := filepath.Join(dir, "clickdemo")
	if err := os.WriteFile(path, []byte(head+string(body)), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}
