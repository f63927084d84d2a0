package proctest

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// Root is the module's root directory: the tests of every package find
// the repository's testdata and main packages from it, whatever their
// depth (and e2e's is not internal/x's).
func Root() (string, error) { return root() }

var root = sync.OnceValues(func() (string, error) {
	// This file's own directory, internal/proctest, when the test binary
	// was built from the source tree (not -trimpath).
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		d := filepath.Join(filepath.Dir(file), "..", "..")
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
	}
	// Else up from the working directory: go test runs a package's tests
	// in its directory.
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", errors.New("proctest: no go.mod above the working directory")
		}
		d = up
	}
})

// AeatFacts is testdata/aeat-cli: the pinned facts of the real aeat CLI
// (commands.json, facts.json, help.json, facts.md), in every clone — the
// tests read these, never a copy beside the checkout.
func AeatFacts() string {
	r, err := Root()
	if err != nil {
		panic(err) // go test runs inside the module: there is always one
	}
	return filepath.Join(r, "testdata", "aeat-cli")
}
