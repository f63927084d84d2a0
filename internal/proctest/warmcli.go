package proctest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WarmCLI copies testdata/warmcli — the Click test CLI that warm start is
// tested with — into a fresh directory of the test's, with the real
// interpreter of [Python] (click) on its script's #! line, and returns the
// script's path (warmdemo-cli; its package warmdemo beside it). A copy,
// so that a run writes nothing into the checkout (__pycache__ is left
// behind).
func WarmCLI(tb testing.TB) string {
	tb.Helper()
	py := Python(tb, "click")
	root, err := Root()
	if err != nil {
		tb.Fatal(err)
	}
	src := filepath.Join(root, "testdata", "warmcli")
	dst := tb.TempDir()
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if rel == "warmdemo-cli" {
			b = []byte("#!" + py + strings.TrimPrefix(string(b), "#!/usr/bin/env python3"))
			mode = 0o755
		}
		return os.WriteFile(filepath.Join(dst, rel), b, mode)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(dst, "warmdemo-cli")
}
