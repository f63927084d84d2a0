package warm

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotPython is why a CLI cannot start warm at all: it is not a Python
// script (a binary, a shell script — a pyenv shim is one).
var ErrNotPython = errors.New("warm start is for Python CLIs")

// Interpreter finds the Python that runs script, from its first line: a
// console script's "#!/path/to/python" or "#!/usr/bin/env python3" (then
// looked up on path, the PATH a call gets). A script whose interpreter is
// not Python is an error wrapping [ErrNotPython].
func Interpreter(script, path string) (string, error) {
	f, err := os.Open(script)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	line, _, _ := bytes.Cut(head[:n], []byte("\n"))
	rest, ok := bytes.CutPrefix(line, []byte("#!"))
	if !ok {
		return "", fmt.Errorf("%s is not a script (no #! line): %w (or set cli.warm.interpreter)", script, ErrNotPython)
	}
	fields := strings.Fields(string(rest))
	if len(fields) == 0 {
		return "", fmt.Errorf("%s has an empty #! line", script)
	}
	prog := fields[0]
	if filepath.Base(prog) == "env" {
		prog = ""
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
				prog = f
				break
			}
		}
		if prog == "" {
			return "", fmt.Errorf("%s: #!%s names no program", script, rest)
		}
		found, err := lookPath(prog, path)
		if err != nil {
			return "", err
		}
		prog = found
	}
	if !strings.HasPrefix(filepath.Base(prog), "python") {
		return "", fmt.Errorf("%s runs under %s, not Python: %w (a pyenv shim? give --cli the real script: pyenv which NAME)", script, prog, ErrNotPython)
	}
	return prog, nil
}

func lookPath(name, path string) (string, error) {
	if filepath.IsAbs(name) {
		return name, nil
	}
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New(name + " is not on the PATH a call gets")
}
