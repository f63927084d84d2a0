//go:build linux || darwin

package callruntime

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// fakeMembers is a tree for waitEmpty: alive until gone is set, counting
// the walks alive stands for; with wake set it is a waker.
type fakeMembers struct {
	walks atomic.Int64
	gone  atomic.Bool
	wake  chan struct{}
}

func (f *fakeMembers) term() int   { return 0 }
func (f *fakeMembers) killAll()    {}
func (f *fakeMembers) alive() bool { f.walks.Add(1); return !f.gone.Load() }

type fakeWaker struct{ *fakeMembers }

func (f fakeWaker) exits() <-chan struct{} { return f.wake }

// TestWaitEmpty_Waker: where members' exits are reported (macOS kqueue), a
// grace in which nothing exits costs a few walks, not one every 2 ms — a
// walk of macOS's process table reads every process of the machine.
func TestWaitEmpty_Waker(t *testing.T) {
	const grace = time.Second
	polled := &fakeMembers{}
	assert.False(t, waitEmpty(polled, grace))
	woken := &fakeMembers{wake: make(chan struct{}, 1)}
	assert.False(t, waitEmpty(fakeWaker{woken}, grace))
	t.Logf("walks in a %v grace: %d polling, %d with exits reported", grace, polled.walks.Load(), woken.walks.Load())
	// 11 back-off steps to the backstop, then one walk per 100 ms; a
	// loaded machine only walks less.
	assert.LessOrEqual(t, woken.walks.Load(), int64(11+int(grace/wakeBackstop)+2))
}

// TestWaitEmpty_WokenByExit: a reported exit is looked at at once, not at
// the next backstop.
func TestWaitEmpty_WokenByExit(t *testing.T) {
	f := &fakeMembers{wake: make(chan struct{}, 1)}
	done := make(chan bool)
	go func() { done <- waitEmpty(fakeWaker{f}, time.Hour) }()
	for f.walks.Load() < 13 { // past the back-off: waiting on the backstop
		time.Sleep(time.Millisecond)
	}
	f.gone.Store(true)
	f.wake <- struct{}{}
	assert.True(t, <-done)
}
