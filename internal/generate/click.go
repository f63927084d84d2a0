package generate

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
)

//go:embed click_walk.py
var clickWalker []byte

// WalkClick walks a Click or Typer CLI from inside: the introspection
// script shipped in this binary runs with the CLI's own Python — python
// when given, else the interpreter on the program's #! line — and writes
// the CLI's command tree. program is a path or a name on PATH.
func WalkClick(ctx context.Context, program, python string) ([]Command, error) {
	path, err := lookProgram(program)
	if err != nil {
		return nil, err
	}
	interp := []string{python}
	if python == "" {
		if interp, err = shebangOf(path); err != nil {
			return nil, err
		}
	}
	if interp[0], err = lookProgram(interp[0]); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "aeat-mcp-click-walk")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	script, out := filepath.Join(dir, "click_walk.py"), filepath.Join(dir, "tree.json")
	if err := os.WriteFile(script, clickWalker, 0o600); err != nil {
		return nil, err
	}
	st := step{program: interp[0], args: append(interp[1:], script, out, path),
		// No .pyc files written into the CLI's installation (or a checkout).
		env:     []string{"PYTHONDONTWRITEBYTECODE=1"},
		timeout: clickTimeout,
		// A CLI may print as it imports; the tree goes to a file.
		maxStdout: 64 << 10}
	res, err := st.run(ctx)
	if err == nil && res.exitCode != 0 {
		err = fmt.Errorf("exit status %d%s", res.exitCode, quoteErr(res.stderr))
	}
	if err != nil {
		return nil, fmt.Errorf("walking %s with %s: %w", program, strings.Join(interp, " "), err)
	}
	data, err := readBounded(out, maxTreeBytes)
	if err != nil {
		return nil, fmt.Errorf("walking %s: the walker wrote no tree: %w", program, err)
	}
	return ParseTree(data)
}

// lookProgram is program's path, found by the server's own command
// resolution ([annotations.Resolver]): a path as given (relative to the
// working directory), a bare name on PATH. On Windows that means only an
// .exe or .com: exec.LookPath honours PATHEXT and would find npm's .cmd
// shims, which Windows runs through cmd.exe, where the verb names read
// from the CLI's own help become shell syntax.
func lookProgram(program string) (string, error) {
	cwd, _ := os.Getwd()
	path, err := annotations.HostResolver(cwd).Resolve(&annotations.Manifest{}, program, "")
	if err != nil {
		return "", fmt.Errorf("program %s: %w: give its path", program, err)
	}
	return path, nil
}

// shebangOf reads the interpreter from a console script's first lines.
func shebangOf(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	interp, err := Shebang(head[:n])
	if err != nil {
		return nil, fmt.Errorf("%s: %w; pass --python with the interpreter that runs it", path, err)
	}
	return interp, nil
}

// pipTrampoline is the second line of the console script pip writes when
// the interpreter's path is too long (or has spaces) for a #! line:
// #!/bin/sh, then ”'exec' "/path/to/python" "$0" "$@".
var pipTrampoline = lazyre.New(`^'''exec' (?:"([^"]+)"|(\S+)) "\$0" "\$@"`)

// Shebang is the interpreter a script's #! line names, with its argument
// ("/usr/bin/env python3" is two words); for pip's /bin/sh trampoline,
// the Python it execs.
func Shebang(head []byte) ([]string, error) {
	first, rest, _ := bytes.Cut(head, []byte("\n"))
	line := strings.TrimSpace(strings.TrimSuffix(string(first), "\r"))
	if !strings.HasPrefix(line, "#!") {
		return nil, errors.New("no #! line naming its Python (a Windows launcher .exe has none either)")
	}
	fields := strings.Fields(strings.TrimPrefix(line, "#!"))
	if len(fields) == 0 {
		return nil, errors.New("an empty #! line")
	}
	if base := filepath.Base(fields[0]); base == "sh" || base == "bash" {
		second, _, _ := bytes.Cut(rest, []byte("\n"))
		m := pipTrampoline.Get().FindSubmatch(bytes.TrimSpace(second))
		if m == nil {
			return nil, fmt.Errorf("its #! line runs %s, not Python", fields[0])
		}
		return []string{string(m[1]) + string(m[2])}, nil
	}
	if len(fields) > 2 {
		// Linux passes everything after the interpreter as one argument.
		fields = []string{fields[0], strings.Join(fields[1:], " ")}
	}
	return fields, nil
}

// maxTreeBytes bounds the tree a click walk writes: the real aeat's, 300
// verbs, is under 1 MiB.
const maxTreeBytes = 64 << 20

// readBounded reads a file of at most max bytes.
func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than %d MiB", path, max>>20)
	}
	return data, nil
}
