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
// name, "am.PID.KEY.RAND" with the pid in base 36 too: 70 bytes with that
// socket. It is private all the same (0700, created exclusively).
type scratchNaming struct {
	prefix  string
	pidBase int
	root    string // where the directories are made; "" is os.TempDir()
}

// scratchNamings are each OS's; the first matching prefix parses a name.
var scratchNamings = map[string]scratchNaming{
	"darwin": {prefix: "am.", pidBase: 36, root: "/tmp"},
	"":       {prefix: "aeat-mcp-call.", pidBase: 10},
}

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
	return n.prefix + strconv.FormatInt(int64(pid), n.pidBase) + "." + strconv.FormatUint(key, 36) + "." + random
}

// parseScratchName tells whose a directory is: the pid and start-time key
// of the server that made it. legacy is a name of the old form
// ("aeat-mcp-call.PID.RAND"), which only the pid identifies.
func parseScratchName(goos, name string) (pid int, key uint64, legacy, ok bool) {
	n := namingFor(goos)
	rest, found := strings.CutPrefix(name, n.prefix)
	if !found {
		return 0, 0, false, false
	}
	f := strings.Split(rest, ".")
	p, err := strconv.ParseInt(f[0], n.pidBase, 64)
	if err != nil || p <= 0 {
		return 0, 0, false, false
	}
	switch len(f) {
	case 2:
		return int(p), 0, true, n.pidBase == 10 // MkdirTemp's old names; never on macOS
	case 3:
		k, err := strconv.ParseUint(f[1], 36, 64)
		return int(p), k, false, err == nil
	}
	return 0, 0, false, false
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
// alive left behind (a server that was SIGKILLed cannot clean up). A
// directory is a live server's while a process with its pid and the same
// start time runs.
func (s *Server) sweepScratch() {
	tmp := scratchRoot(runtime.GOOS)
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	me, _ := self()
	for _, e := range ents {
		pid, key, legacy, ok := parseScratchName(runtime.GOOS, e.Name())
		if !ok || !e.IsDir() || pid == me || serverAlive(runtime.GOOS, pid, key, legacy) {
			continue
		}
		s.cfg.Logger.Info("removing the scratch directory of a server that is gone", "dir", e.Name())
		s.removeScratch(filepath.Join(tmp, e.Name()))
	}
}

// serverAlive reports whether the server a scratch name names still runs.
func serverAlive(goos string, pid int, key uint64, legacy bool) bool {
	if legacy {
		return processAlive(pid)
	}
	start, ok := callruntime.ProcessStart(pid)
	if !ok {
		// Gone, or hidden from us (another user's, under hidepid): the
		// pid alone decides, as it did before start times were kept.
		return processAlive(pid)
	}
	return scratchKey(goos, start) == key
}
