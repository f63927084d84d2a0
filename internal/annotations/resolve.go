package annotations

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// ErrCLIUnavailable is wrapped by the error [Manifest.ResolveCommand]
// returns: the server still starts and explains it on every call.
var ErrCLIUnavailable = errors.New("CLI unavailable")

// ResolveCommand finds the CLI's executable: override (the --cli flag) if
// set, else cli.command. An absolute path is taken as it is; a path with a
// separator is relative to the manifest's directory; a bare name is looked
// up first next to the running binary (selfDir), then on PATH — GUI hosts
// on macOS start servers with PATH=/usr/bin:/bin, so PATH alone is not
// enough. The result is absolute, exists and is executable; otherwise the
// error (wrapping [ErrCLIUnavailable]) says what was tried.
func (m *Manifest) ResolveCommand(override, selfDir string) (string, error) {
	name := m.CLI.Command
	if override != "" {
		name = override
	}
	base := "."
	if m.Source != "" {
		base = filepath.Dir(m.Source)
	}
	var tried []string
	try := func(p string) (string, bool) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", false
		}
		tried = append(tried, abs)
		return abs, isExecutableFile(abs)
	}
	switch {
	case filepath.IsAbs(name):
		if p, ok := try(name); ok {
			return p, nil
		}
	case strings.ContainsAny(name, `/\`):
		if override != "" {
			base = "." // a flag's relative path is relative to where it was typed
		}
		if p, ok := try(filepath.Join(base, name)); ok {
			return p, nil
		}
	default:
		if selfDir != "" {
			for _, cand := range exeNames(filepath.Join(selfDir, name)) {
				if p, ok := try(cand); ok {
					return p, nil
				}
			}
		}
		if p, err := exec.LookPath(name); err == nil {
			if abs, ok := try(p); ok {
				return abs, nil
			}
		} else {
			tried = append(tried, "$PATH ("+os.Getenv("PATH")+")")
		}
	}
	return "", fmt.Errorf("%w: %q is not an executable file (tried %s)", ErrCLIUnavailable, name, strings.Join(tried, ", "))
}

func exeNames(p string) []string {
	if runtime.GOOS == "windows" && filepath.Ext(p) == "" {
		return []string{p + ".exe", p}
	}
	return []string{p}
}

func isExecutableFile(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() {
		return false
	}
	if runtime.GOOS == "windows" {
		return true
	}
	return fi.Mode()&0o111 != 0
}

// WorkDir is the directory calls run in, as cli.cwd says: "" for the
// server's own, ScratchDir for a fresh one per call (the caller makes it),
// or an absolute path (relative ones are anchored at the manifest).
func (m *Manifest) WorkDir() string {
	switch cwd := m.CLI.Cwd; {
	case cwd == "" || cwd == ScratchDir || filepath.IsAbs(cwd):
		return cwd
	case m.Source != "":
		return filepath.Join(filepath.Dir(m.Source), cwd)
	default:
		abs, _ := filepath.Abs(cwd)
		return abs
	}
}
