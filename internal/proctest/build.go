package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// builtAs names the programs built under another name than their
// package's: the fake aeat is built as aeat, the name of the program it
// stands for — the server shows a person the CLI by its file name (the
// gate's question: "aeat --format json …").
var builtAs = map[string]string{"testdata/fakeaeat": "aeat"}

// builds holds one build per (package, tags) for this test process: a
// sync.OnceValues each, so that tests asking at once wait for the one
// build.
var builds sync.Map // key string → func() (string, error)

// buildDir is this test process's directory of built programs, made at
// the first build and removed by [RemoveBuilds].
var (
	buildDirMu sync.Mutex
	buildDir   string
)

// Build is the program of the Go main package pkg — a path from the
// module's root, as "cmd/aeat-mcp" or "testdata/fakecli" — built with the
// given build tags once per test binary, or fails tb. Call [RemoveBuilds]
// at the end of TestMain.
func Build(tb testing.TB, pkg string, tags ...string) string {
	tb.Helper()
	bin, err := Built(pkg, tags...)
	if err != nil {
		tb.Fatal(err)
	}
	return bin
}

// Built is [Build] for TestMain, before any test runs: the program's path,
// or why it could not be built.
func Built(pkg string, tags ...string) (string, error) {
	key := pkg + "\x00" + strings.Join(tags, ",")
	once, _ := builds.LoadOrStore(key, sync.OnceValues(func() (string, error) { return build(pkg, tags) }))
	return once.(func() (string, error))()
}

func build(pkg string, tags []string) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	dir, err := buildDirFor(pkg, tags)
	if err != nil {
		return "", err
	}
	name := builtAs[pkg]
	if name == "" {
		name = path.Base(pkg)
	}
	if runtime.GOOS == "windows" {
		name += ".exe" // only .exe and .com run there
	}
	bin := filepath.Join(dir, name)
	linked := bin + ".linked"
	args := []string{"build", "-o", linked}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	cmd := exec.Command("go", append(args, "./"+pkg)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s (tags %v): %v\n%s", pkg, tags, err, out)
	}
	if err := install(linked, bin); err != nil {
		return "", err
	}
	return bin, os.Remove(linked)
}

// install writes the program src to dst as an installer does (tar, unzip,
// cp): read, and written with write(2) into a new file. The Go linker
// writes its output through a shared mapping of the file, and a binary
// still in that state starts slower on Linux than the same bytes written
// plainly — about 45 more page faults and 1.5–2 CPU-ms a start of
// aeat-mcp, measured (BENCHMARKS.md, issue 32, ninth round). No user runs
// a binary in that state, and a start-up benchmark that compared one with
// a binary installed otherwise would measure the difference.
func install(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o755)
}

// Installed is the program at path as an installer writes it (install),
// in this process's directory of builds: what a benchmark starts beside
// the programs it built, so that all are in the same state. Once per path.
func Installed(tb testing.TB, path string) string {
	tb.Helper()
	once, _ := builds.LoadOrStore("installed\x00"+path, sync.OnceValues(func() (string, error) {
		dir, err := buildDirFor("installed", nil)
		if err != nil {
			return "", err
		}
		dst := filepath.Join(dir, filepath.Base(path))
		return dst, install(path, dst)
	}))
	bin, err := once.(func() (string, error))()
	if err != nil {
		tb.Fatal(err)
	}
	return bin
}

// buildDirFor is a directory of its own for one (package, tags) build, in
// this process's directory of builds: two builds of one program (with
// and without a tag) keep their name.
func buildDirFor(pkg string, tags []string) (string, error) {
	buildDirMu.Lock()
	defer buildDirMu.Unlock()
	if buildDir == "" {
		d, err := os.MkdirTemp("", "aeat-mcp-test-build")
		if err != nil {
			return "", err
		}
		buildDir = d
	}
	return os.MkdirTemp(buildDir, strings.NewReplacer("/", "_", "\\", "_").Replace(pkg)+"-")
}

// RemoveBuilds removes every program this test process built. Call it at
// the end of TestMain, after m.Run.
func RemoveBuilds() {
	buildDirMu.Lock()
	defer buildDirMu.Unlock()
	if buildDir != "" {
		os.RemoveAll(buildDir)
		buildDir = ""
	}
}
