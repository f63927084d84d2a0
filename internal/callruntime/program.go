package callruntime

import (
	"errors"
	"strings"
)

// ErrNeedsShell is wrapped by the error [CheckRunnable] returns for a file
// that the operating system would run through a shell.
var ErrNeedsShell = errors.New("callruntime: would run through cmd.exe")

// windowsPrograms are the only kinds of file Windows starts by itself.
// CreateProcess runs .bat and .cmd files through cmd.exe, which parses the
// command line again by its own rules, so no quoting of the arguments is
// safe (the BatBadBut class, CVE-2024-24576; Go documents it and does not
// fix it: golang/go#27199). npm installs its CLIs as .cmd shims; pip's and
// uv's console scripts are real .exe launchers.
var windowsPrograms = []string{"exe", "com"}

// CheckRunnable reports whether path can be started on goos without a
// shell. Only Windows refuses anything: a program there must be an .exe or
// a .com, its extension compared case-insensitively after dropping the
// trailing dots and spaces Windows ignores ("x.cmd." and "x.cmd " run as
// x.cmd: the CVE-2024-43402 bypass of the first fixes), and its name must
// not reach into an alternate data stream ("x.bat:y.exe"). The error wraps
// [ErrNeedsShell] and says what to do instead.
func CheckRunnable(goos, path string) error {
	if goos != "windows" {
		return nil
	}
	base := path[strings.LastIndexAny(path, `\/`)+1:]
	trimmed := strings.TrimRight(base, ". ")
	ext := ""
	if i := strings.LastIndexByte(trimmed, '.'); i >= 0 {
		ext = strings.ToLower(trimmed[i+1:])
	}
	stream := strings.Contains(trimmed, ":")
	if !stream {
		for _, ok := range windowsPrograms {
			if ext == ok {
				return nil
			}
		}
	}
	what := "is not an .exe or .com program"
	switch {
	case stream:
		what = "names an alternate data stream"
	case ext == "bat" || ext == "cmd":
		what = "is a batch file, which Windows runs through cmd.exe (cmd.exe re-parses the arguments, so none is safe to pass)"
	}
	return &runnableError{path: path, what: what}
}

type runnableError struct{ path, what string }

func (e *runnableError) Error() string {
	return e.path + " " + e.what + ": give the real program's .exe instead"
}

func (e *runnableError) Unwrap() error { return ErrNeedsShell }

// WindowsProgramNames lists the file names Windows may start for a name
// given without a known extension, in the order they are tried (.com first,
// as cmd.exe and libuv do).
func WindowsProgramNames(name string) []string {
	return []string{name + ".com", name + ".exe"}
}
