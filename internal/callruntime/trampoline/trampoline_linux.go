package trampoline

import "syscall"

// Env is the environment entry, first in the trampoline's environment,
// that makes a process a trampoline: AEAT_MCP_CALLRUNTIME_HELPER, as for
// callruntime's other helpers.
const Env = "AEAT_MCP_CALLRUNTIME_HELPER=trampoline"

// The trampoline finds the go pipe's read end on GoFD and the report
// pipe's write end on ReportFD (exec.Cmd.ExtraFiles).
const (
	GoFD     = 3
	ReportFD = 4
)

// Arg0 is the trampoline's argv[0]; argv[1] is the program's path and the
// rest its argv.
const Arg0 = "aeat-mcp-exec"

// ExecFailed is the trampoline's exit code when the program was not
// executed; the server has the reason from the report pipe.
const ExecFailed = 127

func init() {
	env := syscall.Environ()
	if len(env) == 0 || env[0] != Env {
		return
	}
	syscall.Exit(run(env[1:]))
}

// run waits for the go byte on GoFD, then executes the program its
// command line names with environment env. It returns only when it
// cannot: the server gave up on it (EOF instead of the byte), or exec
// failed, whose errno it writes to ReportFD for the server to report as
// Start would have.
func run(env []string) int {
	// Neither descriptor may reach the program: the report pipe's close
	// at exec is what tells the server the program runs.
	syscall.CloseOnExec(GoFD)
	syscall.CloseOnExec(ReportFD)
	var b [1]byte
	for {
		n, err := syscall.Read(GoFD, b[:])
		if err == syscall.EINTR {
			continue
		}
		if n != 1 {
			return ExecFailed // the server could not place us, or is gone
		}
		break
	}
	args := cmdline()
	if len(args) < 3 || args[0] != Arg0 {
		return report(syscall.EINVAL)
	}
	return report(syscall.Exec(args[1], args[2:], env))
}

// report writes err's errno to ReportFD.
func report(err error) int {
	errno, ok := err.(syscall.Errno)
	if !ok {
		errno = syscall.EINVAL
	}
	v := uint32(errno)
	b := [4]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}
	_, _ = syscall.Write(ReportFD, b[:])
	return ExecFailed
}

// cmdline reads this process's argv from /proc/self/cmdline: os.Args is
// not set until package os is initialized, which this package does not
// wait for.
func cmdline() []string {
	fd, err := syscall.Open("/proc/self/cmdline", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	var buf []byte
	chunk := make([]byte, 4096)
	for {
		n, err := syscall.Read(fd, chunk)
		if err == syscall.EINTR {
			continue
		}
		if n <= 0 {
			break
		}
		buf = append(buf, chunk[:n]...)
	}
	var args []string
	for len(buf) > 0 {
		i := 0
		for i < len(buf) && buf[i] != 0 {
			i++
		}
		args = append(args, string(buf[:i]))
		if i == len(buf) {
			break
		}
		buf = buf[i+1:]
	}
	return args
}

// ErrnoOf reads what report wrote.
func ErrnoOf(b [4]byte) syscall.Errno {
	return syscall.Errno(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
}
