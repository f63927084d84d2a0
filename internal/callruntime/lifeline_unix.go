//go:build linux || darwin

package callruntime

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The lifeline is this same binary, re-executed once per Runner. It holds
// the read end of a pipe whose only write end is the server's: when the
// server dies — exits, panics, or is SIGKILLed — the kernel closes that end,
// the lifeline reads EOF and kills what the server's calls left: the whole
// cgroup home (Linux, cgroup mode), or the process groups of the calls'
// leaders it was told about and every member the server's ledger lists
// (the /proc walk, macOS). Pdeathsig alone covers only each call's leader,
// and macOS has no Pdeathsig at all.
//
// It costs one process start per Runner (not per call), and lives in a
// process group of its own so a terminal's Ctrl-C meant for the server does
// not take it first.
type lifeline struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	w   *os.File
}

const (
	helperEnv      = "AEAT_MCP_CALLRUNTIME_HELPER"
	helperLifeline = "lifeline"
	helperProbe    = "probe"
	lifelineCgroup = "AEAT_MCP_LIFELINE_CGROUP"
	lifelineLedger = "AEAT_MCP_LIFELINE_LEDGER"
)

// init turns this process into a helper when it was started as one. It runs
// before main (and before a test binary's TestMain), so every binary that
// links callruntime can serve as its own lifeline.
func init() {
	switch os.Getenv(helperEnv) {
	case "":
		return
	case helperProbe:
		os.Exit(0)
	case helperLifeline:
		os.Exit(lifelineMain(os.Stdin, os.Getenv(lifelineCgroup), os.Getenv(lifelineLedger)))
	}
}

func startLifeline(cgroupDir, ledgerPath string) (*lifeline, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd := &exec.Cmd{
		Path:        selfExe(),
		Args:        []string{"aeat-mcp-lifeline"},
		Env:         []string{helperEnv + "=" + helperLifeline, lifelineCgroup + "=" + cgroupDir, lifelineLedger + "=" + ledgerPath},
		Stdin:       r,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, fmt.Errorf("starting lifeline: %w", err)
	}
	return &lifeline{cmd: cmd, w: w}, nil
}

// selfExe is this binary's path, so that ps shows the lifeline by the
// binary's name (aeat-mcp) and its arguments (aeat-mcp-lifeline), not as
// "exe"; on Linux /proc/self/exe when the path is gone (the binary was
// replaced).
func selfExe() string {
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil && !fi.IsDir() {
			return exe
		}
	}
	return selfExeFallback
}

func (l *lifeline) send(op byte, pid int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w != nil {
		_, _ = fmt.Fprintf(l.w, "%c%d\n", op, pid)
	}
}

// watch asks the lifeline to kill process group pgid if the server dies.
// A nil lifeline (none could be started) watches nothing, so callers need
// no guard.
func (l *lifeline) watch(pgid int) {
	if l != nil {
		l.send('+', pgid)
	}
}

func (l *lifeline) unwatch(pgid int) {
	if l != nil {
		l.send('-', pgid)
	}
}

// close ends the lifeline the way the server's death would, and reaps it.
func (l *lifeline) close() error {
	l.mu.Lock()
	w := l.w
	l.w = nil
	l.mu.Unlock()
	if w == nil {
		return nil
	}
	w.Close()
	done := make(chan error, 1)
	go func() { done <- l.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(killWait):
		_ = l.cmd.Process.Kill()
		return <-done
	}
}

// lifelineMain waits for EOF on in, then kills everything left.
func lifelineMain(in *os.File, cgroupDir, ledgerPath string) int {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	groups := map[int]bool{}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 2 {
			continue
		}
		pgid, err := strconv.Atoi(line[1:])
		if err != nil || pgid <= 1 {
			continue
		}
		switch line[0] {
		case '+':
			groups[pgid] = true
		case '-':
			delete(groups, pgid)
		}
	}
	for pgid := range groups {
		_ = unix.Kill(-pgid, unix.SIGKILL)
	}
	if ledgerPath != "" {
		if b, err := os.ReadFile(ledgerPath); err == nil {
			// The server is gone: its calls' leaders lost their parent
			// an instant ago, so their groups are still theirs.
			sweepLedger(b, os.Getpid(), true, readTable)
		}
		os.Remove(ledgerPath)
	}
	if cgroupDir != "" {
		removeCgroupHome(cgroupDir)
	}
	return 0
}
