package generate

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	proctest.RemoveBuilds()
	os.Exit(code)
}

// testProgram is testdata/NAME (a Go main package), built once.
func testProgram(t testing.TB, name string) string {
	return proctest.Build(t, "internal/generate/testdata/"+name)
}

// fakeCLI is the repository's testdata/fakecli: the fake CLI whose steps
// make any fault a test needs (daemons, a hang, a flood).
func fakeCLI(t testing.TB) string { return proctest.Build(t, "testdata/fakecli") }

func cobraCLI(t testing.TB) string { return testProgram(t, "cobracli") }

// clickPython is a Python 3 with click, as its real executable (not a
// shim); the test skips, saying so, when there is none.
func clickPython(t testing.TB) string { return proctest.Python(t, "click") }

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
