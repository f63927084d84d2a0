//go:build !unix

package warm

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"time"

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

// adoptee is never made here.
type adoptee struct{ inCgroup, spare bool }

func (a *adoptee) Pid() int                       { return 0 }
func (a *adoptee) Parent() int                    { return 0 }
func (a *adoptee) Start() error                   { return errUnsupported }
func (a *adoptee) Exited() <-chan struct{}        { return nil }
func (a *adoptee) Close() callruntime.ExitStatus  { return callruntime.ExitStatus{} }
func (a *adoptee) lost(callruntime.Result) string { return "" }
func (a *adoptee) used() childUsage               { return childUsage{} }

var errThreads = errors.New("warm: the template has more than one thread")

func startTemplate(context.Context, *callruntime.Runner, *Config, *slog.Logger, time.Duration, *yielding) (*template, error) {
	return nil, errUnsupported
}

// holdGroup: no template starts here (no fork), so none is held.
func holdGroup(int, bool) {}

func (t *template) close()            {}
func (t *template) alive() bool       { return false }
func (t *template) killedFor() string { return "" }
func (t *template) fork(context.Context, forkRequest, *os.File, *os.File, *os.File, *os.File, *berths) (*adoptee, error) {
	return nil, errUnsupported
}

func exitText(*exec.Cmd, <-chan struct{}) string { return "" }

// No template runs here, so none holds a berth.
func (t *template) takeBerth() *callruntime.Berth { return nil }
func (t *template) settleBerths(*berths)          {}
