//go:build !unix

package warm

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// Supported reports whether warm start can run on this platform. Windows
// has no fork: a Python CLI starts cold there, every call.
const Supported = false

type template struct {
	cmd       *exec.Cmd
	pid       int
	ready     readyMsg
	dead      chan struct{}
	onThreads func(int)
}

type readyMsg struct {
	Threads  int
	Commands int
	ImportMS int
	Files    []string
	Runs     string
}

var errThreads = errors.New("the template has more than one thread")

func startTemplate(context.Context, *callruntime.Runner, *Config, *slog.Logger) (*template, error) {
	return nil, errUnsupported
}

func (t *template) close()      {}
func (t *template) alive() bool { return false }
func (t *template) fork([]string, string, []string, *os.File, *os.File, *os.File, *os.File) (callruntime.Adoptee, bool, error) {
	return nil, false, errUnsupported
}

func exitText(*exec.Cmd, <-chan struct{}) string { return "" }
