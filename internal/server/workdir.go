package server

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// scratchPrefix names the @scratch directories of calls: the prefix, the
// server's pid, a dot and a random part. The pid lets a later server find
// and remove the directories of one that was killed before it could.
const scratchPrefix = "aeat-mcp-call."

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
	scratch, err := os.MkdirTemp("", scratchPrefix+strconv.Itoa(os.Getpid())+".")
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
// alive left behind (a server that was SIGKILLed cannot clean up).
func (s *Server) sweepScratch() {
	tmp := os.TempDir()
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), scratchPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, ".")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		s.cfg.Logger.Info("removing the scratch directory of a server that is gone", "dir", e.Name())
		s.removeScratch(filepath.Join(tmp, e.Name()))
	}
}
