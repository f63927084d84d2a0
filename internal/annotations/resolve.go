package annotations

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// ErrCLIUnavailable is wrapped by the error [Manifest.ResolveCommand]
// returns: the server still starts and explains it on every call.
var ErrCLIUnavailable = errors.New("annotations: CLI unavailable")

// unavailableError is what [Manifest.ResolveCommand] returns when the CLI
// does not resolve: a message for the person who must fix it (doctor,
// validate and every call show it), and [ErrCLIUnavailable] for errors.Is.
type unavailableError struct {
	msg string
	// given: the path was given (--cli, AEAT_MCP_CLI), not cli.command.
	given bool
}

func (e *unavailableError) Error() string { return "CLI unavailable: " + e.msg }
func (e *unavailableError) Unwrap() error { return ErrCLIUnavailable }

func unavailable(format string, a ...any) error {
	return &unavailableError{msg: fmt.Sprintf(format, a...)}
}

// CLIGiven reports whether err says that a CLI given to aeat-mcp (the
// override of [Manifest.ResolveCommand]: --cli, AEAT_MCP_CLI) does not
// resolve — a path to check, where a cli.command that does not is a CLI
// to install.
func CLIGiven(err error) bool {
	var u *unavailableError
	return errors.As(err, &u) && u.given
}

// ResolveCommand finds the CLI's executable: override (the --cli flag) if
// set, else cli.command. An absolute path is taken as it is; a path with a
// separator is relative to the manifest's directory (a flag's, to the
// working directory); a bare name is looked up first next to the running
// binary (selfDir), then on PATH — GUI hosts on macOS start servers with
// PATH=/usr/bin:/bin, so PATH alone is not enough. The result is absolute,
// exists and is executable; otherwise the error (wrapping
// [ErrCLIUnavailable]) says what was tried.
//
// On Windows only an .exe or .com program resolves
// ([callruntime.CheckRunnable]): a name without one of those extensions is
// tried with .com and .exe appended (an absolute --cli C:\x\aeat finds
// C:\x\aeat.exe), PATHEXT is not honoured, and a .cmd or .bat — npm's shims
// — is refused with the reason, since Windows would run it through
// cmd.exe. The rules of every OS run on any OS ([Resolver]).
func (m *Manifest) ResolveCommand(override, selfDir string) (string, error) {
	cwd, _ := os.Getwd()
	return HostResolver(cwd).Resolve(m, override, selfDir)
}

// A Resolver is command resolution's view of a machine: whose rules apply
// (GOOS), its PATH, the working directory, and its files. [HostResolver]
// is this machine; tests build others to run the Windows and macOS rules
// anywhere.
type Resolver struct {
	GOOS string
	PATH string
	Cwd  string
	// Stat is os.Stat on the host; a fake file system in tests.
	Stat func(path string) (fs.FileInfo, error)
}

// HostResolver resolves on this machine, relative to cwd.
func HostResolver(cwd string) Resolver {
	return Resolver{GOOS: runtime.GOOS, PATH: os.Getenv("PATH"), Cwd: cwd, Stat: os.Stat}
}

// Resolve is [Manifest.ResolveCommand] under r's rules.
func (r Resolver) Resolve(m *Manifest, override, selfDir string) (string, error) {
	p := pathRulesFor(r.GOOS)
	name := m.CLI.Command
	if override != "" {
		name = override
	}
	base := r.Cwd
	if m.Source != "" && override == "" {
		base = p.abs(r.Cwd, p.dir(m.Source))
	}
	var tried []string
	var refused error
	try := func(cand string) (string, bool) {
		cand = p.abs(r.Cwd, cand)
		if slices.Contains(tried, cand) {
			return "", false // a directory PATH names twice
		}
		tried = append(tried, cand)
		if !r.isExecutable(cand) {
			return "", false
		}
		if err := callruntime.CheckRunnable(r.GOOS, cand); err != nil {
			refused = err
			return "", false
		}
		return cand, true
	}
	// tryNames tries a path as it is, and first with the program
	// extensions Windows needs appended.
	tryNames := func(cand string) (string, bool) {
		for _, c := range p.programNames(cand) {
			if got, ok := try(c); ok {
				return got, true
			}
		}
		return "", false
	}
	switch {
	case p.isAbs(name):
		if got, ok := tryNames(name); ok {
			return got, nil
		}
	case strings.ContainsAny(name, p.seps):
		if got, ok := tryNames(p.join(base, name)); ok {
			return got, nil
		}
	default:
		if selfDir != "" {
			if got, ok := tryNames(p.join(selfDir, name)); ok {
				return got, nil
			}
		}
		searched := false
		for _, dir := range p.pathList(r.PATH) {
			if !p.isAbs(dir) {
				continue // a relative PATH entry would make the result depend on the cwd
			}
			searched = true
			if got, ok := tryNames(p.join(dir, name)); ok {
				return got, nil
			}
		}
		if !searched {
			tried = append(tried, "$PATH ("+r.PATH+")")
		}
	}
	return "", notResolved(name, override != "", tried, refused)
}

// notResolved is why name did not resolve: a program the OS refused to
// run (refused), a path given with --cli to check, or a CLI to install.
func notResolved(name string, given bool, tried []string, refused error) error {
	switch {
	case refused != nil:
		return unavailable("%q: %v (pass --cli with its path)", name, refused)
	case given:
		return &unavailableError{given: true, msg: fmt.Sprintf("--cli %q (or AEAT_MCP_CLI): no such executable file (tried %s): check the path", name, strings.Join(tried, ", "))}
	}
	return unavailable("%q is not an executable file (tried %s)", name, strings.Join(tried, ", "))
}

func (r Resolver) isExecutable(path string) bool {
	fi, err := r.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if r.GOOS == "windows" {
		return true // what may run is decided by the extension
	}
	return fi.Mode()&0o111 != 0
}

// pathRules are one OS's path syntax, kept apart from the host's
// path/filepath so that every OS's rules run on any OS.
type pathRules struct {
	sep     string // the separator joins use
	seps    string // every separator a path may contain
	listSep string // PATH's
	windows bool
}

func pathRulesFor(goos string) pathRules {
	if goos == "windows" {
		return pathRules{sep: `\`, seps: `\/`, listSep: ";", windows: true}
	}
	return pathRules{sep: "/", seps: "/", listSep: ":"}
}

func (p pathRules) isSep(c byte) bool { return strings.IndexByte(p.seps, c) >= 0 }

func (p pathRules) isAbs(path string) bool {
	if !p.windows {
		return strings.HasPrefix(path, "/")
	}
	if len(path) >= 2 && p.isSep(path[0]) && p.isSep(path[1]) {
		return true // \\server\share, \\?\C:\...
	}
	letter := path != "" && 'a' <= path[0]|0x20 && path[0]|0x20 <= 'z'
	return letter && len(path) >= 3 && path[1] == ':' && p.isSep(path[2])
}

func (p pathRules) join(dir, name string) string {
	if dir == "" {
		return name
	}
	if p.isSep(dir[len(dir)-1]) {
		return dir + name
	}
	return dir + p.sep + name
}

func (p pathRules) dir(path string) string {
	i := strings.LastIndexAny(path, p.seps)
	switch {
	case i < 0:
		return "."
	case i == 0 || p.windows && i == 2 && path[1] == ':':
		return path[:i+1]
	}
	return path[:i]
}

// abs makes path absolute against cwd and resolves "." and ".." in it.
func (p pathRules) abs(cwd, path string) string {
	if !p.isAbs(path) {
		path = p.join(cwd, path)
	}
	prefix, rest := "", path
	switch {
	case p.windows && len(path) >= 3 && path[1] == ':':
		prefix, rest = path[:3], path[3:]
	default:
		i := 0
		for i < len(path) && p.isSep(path[i]) {
			i++
		}
		prefix, rest = path[:i], path[i:]
	}
	var out []string
	for _, el := range strings.FieldsFunc(rest, func(r rune) bool { return r < 0x80 && p.isSep(byte(r)) }) {
		switch el {
		case ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, el)
		}
	}
	return prefix + strings.Join(out, p.sep)
}

// pathList splits PATH; a Windows entry may be quoted.
func (p pathRules) pathList(env string) []string {
	var out []string
	for _, d := range strings.Split(env, p.listSep) {
		if p.windows {
			d = strings.Trim(d, `"`)
		}
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// programNames is what a path may name as a program: itself; on Windows,
// when it lacks an .exe or .com extension, first itself with .com and .exe
// appended (CreateProcess assumes no extension for a program's path), then
// with .cmd and .bat — never to run them, only to say why a shim that is
// there does not resolve.
func (p pathRules) programNames(path string) []string {
	if !p.windows || callruntime.CheckRunnable("windows", path) == nil {
		return []string{path}
	}
	return append(callruntime.WindowsProgramNames(path), path, path+".cmd", path+".bat")
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
