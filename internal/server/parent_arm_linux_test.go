package server

import (
	"log/slog"
	"os"
	"os/signal"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestWatchParent_ArmedAtTheAnswer: the parent watch is armed when the
// host has its answer to initialize, not before (arming is a signal
// handler and a locked thread a host would wait for) — or parentPoll
// after the start without an answer, so that a host that dies before it
// is still noticed. parent 1 is not this process's parent: an armed watch
// finds it gone at once.
func TestWatchParent_ArmedAtTheAnswer(t *testing.T) {
	// The runtime's signal goroutines start at the first Notify: outside
	// the bubbles, which they would outlive.
	c := make(chan os.Signal, 1)
	signal.Notify(c, parentDeathSignal)
	signal.Stop(c)
	for _, answer := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			var gone atomic.Bool
			answered := make(chan struct{})
			go watchParent(t.Context(), 1, func() { gone.Store(true) }, slog.New(slog.DiscardHandler), answered)
			synctest.Wait()
			assert.False(t, gone.Load(), "armed before the answer")
			if answer {
				close(answered)
			} else {
				time.Sleep(parentPoll)
			}
			synctest.Wait()
			assert.True(t, gone.Load(), "not armed (answered: %v)", answer)
		})
	}
}
