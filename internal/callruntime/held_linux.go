package callruntime

import (
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime/trampoline"
)

// A held start: where clone3 is refused (a container runtime's seccomp
// profile answers ENOSYS, a kernel before 5.7 has no CLONE_INTO_CGROUP),
// the program cannot be forked straight into its cgroup, and a program
// moved there after it started may fork before the move — leaving a child
// outside the tree, in the server's own cgroup, that cgroup.kill never
// reaches. So the child is held before its program runs: what is forked is
// this binary, re-executed as a trampoline that waits for a go byte; the
// server moves it into its cgroup, sends the byte, and the trampoline
// executes the program in place — same pid, same process group, the same
// Pdeathsig, file descriptors, working directory and environment the
// program would have had. Nothing the program runs is ever outside the
// cgroup.
//
// The price is one start of this binary per call in this mode only
// (BenchmarkHeldStart measures it against the clone3 start and a raw
// exec); the clone3 path does not pay it. The trampoline is a package of
// its own (callruntime/trampoline), initialized before almost every other
// package of the binary, so a held start skips their initialization.

// held is a program started held: its trampoline runs, waiting for the go
// byte.
type held struct {
	path   string   // the program's
	goW    *os.File // the go pipe's write end
	report *os.File // the report pipe's read end: EOF once the program runs
}

// startHeld starts cmd through the trampoline. Only this start needs the
// spawner thread (spawn_linux.go); the trampoline's own start-up runs on
// while [held.run] places it, outside.
func startHeld(cmd *exec.Cmd) (*held, error) {
	goR, goW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		goR.Close()
		goW.Close()
		return nil, err
	}
	path, argv, env := cmd.Path, cmd.Args, cmd.Env
	cmd.Path = selfExe()
	cmd.Args = append([]string{trampoline.Arg0, path}, argv...)
	cmd.Env = append([]string{trampoline.Env}, env...)
	cmd.ExtraFiles = []*os.File{goR, repW}
	err = cmd.Start()
	cmd.Path, cmd.Args, cmd.Env, cmd.ExtraFiles = path, argv, env, nil
	goR.Close()
	repW.Close()
	if err != nil {
		goW.Close()
		repR.Close()
		return nil, err
	}
	return &held{path: path, goW: goW, report: repR}, nil
}

// run calls place with the held process's pid and lets it execute cmd's
// program only if place succeeds. Like exec.Cmd.Start it returns once the
// program runs, or with the error that kept it from running (then the
// process is reaped).
func (h *held) run(cmd *exec.Cmd, place func(pid int) error) error {
	defer h.report.Close()
	if err := place(cmd.Process.Pid); err != nil {
		h.goW.Close() // the trampoline reads EOF and exits without running anything
		_ = cmd.Wait()
		return err
	}
	_, err := h.goW.Write([]byte{1})
	h.goW.Close()
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return fmt.Errorf("releasing the held program: %w", err)
	}
	// EOF: the report pipe closed at exec, the program runs.
	var report [4]byte
	if n, _ := io.ReadFull(h.report, report[:]); n == len(report) {
		_ = cmd.Wait()
		return &os.PathError{Op: "fork/exec", Path: h.path, Err: trampoline.ErrnoOf(report)}
	}
	return nil
}
