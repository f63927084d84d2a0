package callruntime_test

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunners_SpareEachOthersChildren: two Runners in one process. The
// child subreaper is the process's, so every child of the process is in
// each Runner's sight; a Runner's orphan sweep (at each call's end, and at
// Close) must take none of the other Runner's children for orphans — its
// helper (a warm template), its call in flight, its lifeline. They were
// taken: in CI a warm template was SIGKILLed before it was ready three
// times in a second while other tests' Runners ended calls.
func TestRunners_SpareEachOthersChildren(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			other := newRunner(t, m.disable...)
			sweeper, err := callruntime.NewRunner(callruntime.Options{Disable: m.disable})
			require.NoError(t, err)
			var closeOnce sync.Once
			closeSweeper := func() error {
				err := error(nil)
				closeOnce.Do(func() { err = sweeper.Close() })
				return err
			}
			t.Cleanup(func() { _ = closeSweeper() })

			helper := exec.Command(fakecli, "hang")
			forget, err := other.StartHelper(helper)
			require.NoError(t, err)
			helperEnded := make(chan struct{})
			go func() {
				_ = helper.Wait()
				forget()
				close(helperEnded)
			}()
			t.Cleanup(func() {
				_ = helper.Process.Kill()
				<-helperEnded
			})

			g := newGate(t)
			s := spec("pid", g.await(), "exit 0")
			s.Timeout = proctest.HangAfter
			started := make(chan struct{})
			var once sync.Once
			s.OnLine = func(l callruntime.Line) {
				if strings.HasPrefix(l.Text, "pid self") {
					once.Do(func() { close(started) })
				}
			}
			type outcome struct {
				res callruntime.Result
				err error
			}
			done := make(chan outcome, 1)
			go func() {
				res, err := other.Run(context.Background(), s)
				done <- outcome{res, err}
			}()
			select {
			case <-started:
			case o := <-done:
				t.Fatalf("the other Runner's call ended before it printed its pid: %+v %v", o.res, o.err)
			}

			// The sweeper's call ends (its sweep runs), then it closes
			// (its last sweep runs).
			res := run(t, sweeper, spec("ok"))
			require.Equal(t, 0, res.ExitCode)
			require.NoError(t, closeSweeper())

			require.NoError(t, g.open())
			o := <-done
			require.NoError(t, o.err)
			assert.Equal(t, callruntime.Exited, o.res.End, "the other Runner's call ran to its end: %s", o.res.Stdout.Head)
			assert.Equal(t, 0, o.res.ExitCode)

			require.NoError(t, helper.Process.Signal(syscall.SIGTERM))
			<-helperEnded
			ws := helper.ProcessState.Sys().(syscall.WaitStatus)
			assert.Equal(t, syscall.SIGTERM, ws.Signal(), "the other Runner's helper lived until this test ended it: %s", helper.ProcessState)
		})
	}
}
