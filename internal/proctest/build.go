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
	args := []string{"build", "-o", bin}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	cmd := exec.Command("go", append(args, "./"+pkg)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s (tags %v): %v\n%s", pkg, tags, err, out)
	}
	return bin, nil
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
