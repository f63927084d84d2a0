package server

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// A call's @scratch directory is named for the server that made it, so
// that a later server can remove what one killed before it could clean up
// left behind — and only that: "aeat-mcp-call.PID.KEY.RAND", where KEY is
// the server's start time (base 36), since a pid alone is reused within
// seconds on Windows and a dead server's directories would then stay, or a
// live one's go.
//
// On macOS a browser puts its Unix sockets in its TMPDIR — which is this
// directory — and a socket path holds 104 bytes: Chromium's singleton
// socket (".org.chromium.Chromium.XXXXXX/SingletonSocket", 46 bytes) does
// not fit under $TMPDIR (/var/folders/xx/…/T/, 49 bytes) plus any
// directory of ours. So there the directory is made in /tmp with a short
// name, "am.PID.KEY.RAND" with the pid in base 36 too: 72 bytes with that
// socket. It is private all the same (0700, created exclusively).
//
// "am." is a prefix anyone's directory in /tmp may have ("am.cache.v2.x"
// once parsed as base 36 and was removed as a dead server's), so every field
// has one exact length (pid and key zero-padded), and the sweep takes only
// a directory this user owns with mode 0700 (scratchOurs).
type scratchNaming struct {
	prefix   string
	pidBase  int
	pidWidth int    // digits of the pid: macOS's PID_MAX (99999) is 4 in base 36; a Windows pid is a DWORD (10)
	keyWidth int    // base-36 digits of the key: 7 hold seconds since 1970 for 2,400 years; 13 any uint64
	root     string // where the directories are made; "" is os.TempDir()
}

// scratchNamings are each OS's; the first matching prefix parses a name.
var scratchNamings = map[string]scratchNaming{
	"darwin": {prefix: "am.", pidBase: 36, pidWidth: 4, keyWidth: 7, root: "/tmp"},
	"":       {prefix: "aeat-mcp-call.", pidBase: 10, pidWidth: 10, keyWidth: 13},
}

// randomWidth is the length of a scratch name's random part (scratchRandom).
const randomWidth = 4

func namingFor(goos string) scratchNaming {
	if n, ok := scratchNamings[goos]; ok {
		return n
	}
	return scratchNamings[""]
}

// scratchRoot is where goos's scratch directories are made.
func scratchRoot(goos string) string {
	if r := namingFor(goos).root; r != "" {
		return r
	}
	return os.TempDir()
}

// scratchKey is the part of a process's start time a scratch name keeps:
// whole seconds where the platform counts finer (macOS: µs since the
// epoch; Windows: 100 ns since 1601), clock ticks after boot on Linux.
func scratchKey(goos string, start uint64) uint64 {
	switch goos {
	case "darwin":
		return start / 1e6
	case "windows":
		return start / 1e7
	}
	return start
}

// scratchName is the name of a call's scratch directory on goos, for the
// server (pid, start time key) and a random part.
func scratchName(goos string, pid int, key uint64, random string) string {
	n := namingFor(goos)
	return n.prefix + pad(strconv.FormatInt(int64(pid), n.pidBase), n.pidWidth) + "." +
		pad(strconv.FormatUint(key, 36), n.keyWidth) + "." + random
}

func pad(digits string, width int) string {
	if len(digits) >= width {
		return digits
	}
	return strings.Repeat("0", width-len(digits)) + digits
}

// parseScratchName tells whose a directory is: the pid and start-time key
// of the server that made it. Every field must have its exact length and
// only the digits of its base.
func parseScratchName(goos, name string) (pid int, key uint64, ok bool) {
	n := namingFor(goos)
	rest, found := strings.CutPrefix(name, n.prefix)
	if !found {
		return 0, 0, false
	}
	f := strings.Split(rest, ".")
	if len(f) != 3 || len(f[0]) != n.pidWidth || len(f[1]) != n.keyWidth || len(f[2]) != randomWidth ||
		!digitsOf(f[0], n.pidBase) || !digitsOf(f[1], 36) || !digitsOf(f[2], 36) {
		return 0, 0, false
	}
	p, err := strconv.ParseInt(f[0], n.pidBase, 64)
	if err != nil || p <= 0 {
		return 0, 0, false
	}
	k, err := strconv.ParseUint(f[1], 36, 64)
	if err != nil {
		return 0, 0, false
	}
	return int(p), k, true
}

// digitsOf reports whether s holds only lowercase digits of base (10 or 36).
func digitsOf(s string, base int) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || base == 36 && 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}

// dirAttrs is what the sweep reads of a directory before it removes it.
type dirAttrs struct {
	dir  bool        // a directory itself, not a link to one
	uid  int         // its owner (Unix)
	perm fs.FileMode // its permission bits (Unix)
}

// scratchOurs reports whether name, with attrs, is a scratch directory a
// server of this user (euid) made on goos, and whose: its name parses, and
// on Unix — where the root (/tmp on macOS) is shared by every user — it is
// owned by euid with mode 0700, as makeScratch creates it. Windows' root
// is the user's own temporary directory, and its directories have no mode
// to check.
func scratchOurs(goos, name string, a dirAttrs, euid int) (pid int, key uint64, ok bool) {
	pid, key, ok = parseScratchName(goos, name)
	if !ok || !a.dir {
		return 0, 0, false
	}
	if goos != "windows" && (a.uid != euid || a.perm != 0o700) {
		return 0, 0, false
	}
	return pid, key, true
}

// scratchRandom is the random part of a scratch name: 4 base-36 digits,
// made unique by creating the directory exclusively.
func scratchRandom() string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, 4)
	for i := range b {
		b[i] = digits[rand.IntN(len(digits))]
	}
	return string(b)
}

// self is this server as scratch names know it.
var self = sync.OnceValues(func() (int, uint64) {
	start, _ := callruntime.ProcessStart(os.Getpid())
	return os.Getpid(), scratchKey(runtime.GOOS, start)
})

// makeScratch creates a fresh private scratch directory in tmp.
func makeScratch(tmp string) (string, error) {
	pid, key := self()
	var err error
	for i := 0; i < 100; i++ {
		dir := filepath.Join(tmp, scratchName(runtime.GOOS, pid, key, scratchRandom()))
		if err = os.Mkdir(dir, 0o700); err == nil {
			return dir, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", err
}

// workDir is where a call runs and with what environment: the manifest's
// directory and the server's environment, or, for cli.cwd "@scratch", a
// fresh private directory that is also the CLI's temporary directory (so
// what the CLI or its browser writes to a temp dir goes with it). cleanup
// removes the scratch directory; it does nothing otherwise. An error says
// why the CLI cannot run there.
func (s *Server) workDir() (dir string, env []string, cleanup func(), err error) {
	dir = s.cfg.Manifest.WorkDir()
	if dir != annotations.ScratchDir {
		if dir != "" {
			if fi, err := os.Stat(dir); err != nil {
				return "", nil, nil, fmt.Errorf("the working directory (cli.cwd) %s: %w", dir, err)
			} else if !fi.IsDir() {
				return "", nil, nil, fmt.Errorf("the working directory (cli.cwd) %s is not a directory", dir)
			}
		}
		return dir, s.env, func() {}, nil
	}
	scratch, err := makeScratch(scratchRoot(runtime.GOOS))
	if err != nil {
		return "", nil, nil, fmt.Errorf("creating a scratch directory (cli.cwd @scratch): %w", err)
	}
	env = make([]string, 0, len(s.env)+3)
	for _, kv := range s.env {
		if !isTempVar(kv) {
			env = append(env, kv)
		}
	}
	env = append(env, "TMPDIR="+scratch)
	if runtime.GOOS == "windows" {
		env = append(env, "TEMP="+scratch, "TMP="+scratch)
	}
	return scratch, env, func() { s.removeScratch(scratch) }, nil
}

func isTempVar(kv string) bool {
	k, _, _ := strings.Cut(kv, "=")
	switch strings.ToUpper(k) {
	case "TMPDIR", "TEMP", "TMP":
		return true
	}
	return false
}

// removeScratch removes a scratch directory. A CLI may have taken away its
// own permissions on what it wrote (a non-root server then cannot delete
// it): they are given back and the removal tried again; what still fails is
// logged, never dropped in silence.
func (s *Server) removeScratch(dir string) {
	err := os.RemoveAll(dir)
	if err == nil {
		return
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	if err = os.RemoveAll(dir); err != nil {
		s.cfg.Logger.Warn("could not remove a call's scratch directory", "dir", dir, "error", err)
	}
}

// sweepScratch removes the scratch directories that servers no longer
// alive left behind (a server that was SIGKILLed cannot clean up): those
// scratchOurs takes for this user's servers'. A directory is a live
// server's while a process with its pid and the same start time runs.
func (s *Server) sweepScratch() {
	tmp := scratchRoot(runtime.GOOS)
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	me, _ := self()
	euid := os.Geteuid()
	for _, e := range ents {
		if _, _, ok := parseScratchName(runtime.GOOS, e.Name()); !ok {
			continue // not even named as ours: no system call spent on it
		}
		path := filepath.Join(tmp, e.Name())
		attrs, err := readDirAttrs(path)
		if err != nil {
			continue
		}
		pid, key, ok := scratchOurs(runtime.GOOS, e.Name(), attrs, euid)
		if !ok || pid == me || serverAlive(runtime.GOOS, pid, key) {
			continue
		}
		s.cfg.Logger.Info("removing the scratch directory of a server that is gone", "dir", e.Name())
		s.removeScratch(path)
	}
}

// serverAlive reports whether the server a scratch name names still runs.
func serverAlive(goos string, pid int, key uint64) bool {
	start, ok := callruntime.ProcessStart(pid)
	if !ok {
		// Gone, or hidden from us (another user's, under hidepid): the
		// pid alone decides, as it did before start times were kept.
		return processAlive(pid)
	}
	return scratchKey(goos, start) == key
}
