package generate

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Programs of testdata, built once for the package.
var (
	buildMu  sync.Mutex
	built    = map[string]string{}
	buildDir string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// testProgram builds testdata/NAME (a Go main package) once.
func testProgram(t testing.TB, name string) string { return buildOnce(t, name, "./testdata/"+name) }

// fakeCLI builds the repository's testdata/fakecli: the fake CLI whose
// steps make any fault a test needs (daemons, a hang, a flood).
func fakeCLI(t testing.TB) string { return buildOnce(t, "fakecli", "../../testdata/fakecli") }

// buildOnce builds the Go main package at pkg once, as name.
func buildOnce(t testing.TB, name, pkg string) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if bin, ok := built[name]; ok {
		return bin
	}
	if buildDir == "" {
		dir, err := os.MkdirTemp("", "generate-test")
		if err != nil {
			t.Fatal(err)
		}
		buildDir = dir
	}
	bin := filepath.Join(buildDir, name)
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("building testdata/%s: %v\n%s", name, err, out)
	}
	built[name] = bin
	return bin
}

func cobraCLI(t testing.TB) string { return testProgram(t, "cobracli") }

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
	// A copy of the package stands for the installed one: whatever runs it
	// writes nothing into the checkout.
	lib := filepath.Join(dir, "lib")
	if _, err := os.Stat(lib); os.IsNotExist(err) {
		if err := os.CopyFS(lib, os.DirFS("testdata/clickcli")); err != nil {
			t.Fatal(err)
		}
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
	head += "import sys; sys.path.insert(0, " + strconv.Quote(lib) + ")\n"
	path := filepath.Join(dir, "clickdemo")
	if err := os.WriteFile(path, []byte(head+string(body)), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}
