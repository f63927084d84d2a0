package callruntime

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestJobEvents_NestedEmpty: a launcher's job nested in the call's sends
// ACTIVE_PROCESS_ZERO to the call's port when python.exe exits, while the
// launcher still runs. It wakes the waiter once, to ask its own job — and
// is not a state: a later wait blocks again (a closed channel made the stop
// loop spin a core until its deadline).
func TestJobEvents_NestedEmpty(t *testing.T) {
	e := newJobEvents(0, nil)
	e.deliver(jobMsgActiveProcessZero) // the nested job's
	e.deliver(jobMsgActiveProcessZero) // a second one coalesces
	select {
	case <-e.empty:
	default:
		t.Fatal("no wake-up")
	}
	select {
	case <-e.empty:
		t.Fatal("the wake-up stayed set: a waiter would spin")
	default:
	}
	e.deliver(jobMsgActiveProcessZero) // our own, later
	select {
	case <-e.empty:
	default:
		t.Fatal("re-armed: the next message wakes again")
	}
}

// TestWaitJobEmpty_NoSpin: the stop waits for the call's own job, which
// the nested job's message does not empty: it asks on its back-off, not
// back to back.
func TestWaitJobEmpty_NoSpin(t *testing.T) {
	e := newJobEvents(0, nil)
	var asked atomic.Int64
	active := func() uint32 { asked.Add(1); return 1 } // the launcher still runs
	e.deliver(jobMsgActiveProcessZero)
	const d = time.Second
	assert.False(t, waitJobEmpty(active, e.empty, d))
	// 7 back-off steps to 10 ms, then one question per 10 ms; a loaded
	// machine asks less.
	assert.LessOrEqual(t, asked.Load(), int64(7+int(d/(10*time.Millisecond))+3), "asked back to back")
}

// TestWaitJobEmpty_Empties: the job's own emptying ends the wait.
func TestWaitJobEmpty_Empties(t *testing.T) {
	e := newJobEvents(0, nil)
	var left atomic.Int32
	left.Store(1)
	done := make(chan bool)
	go func() { done <- waitJobEmpty(func() uint32 { return uint32(left.Load()) }, e.empty, time.Hour) }()
	left.Store(0)
	e.deliver(jobMsgActiveProcessZero)
	assert.True(t, <-done)
}

// TestJobEvents_Memory: a memory message is the call's only when it set a
// limit and its own job is over it; a nested job's limit, or a message
// without a limit of ours, must not turn a normal exit into
// resource_exceeded.
func TestJobEvents_Memory(t *testing.T) {
	const limit = 100 << 20
	for _, tc := range []struct {
		name  string
		limit int64
		peak  int64
		ok    bool
		msg   uint32
		want  bool
	}{
		{"no limit set: a nested job's message", 0, 500 << 20, true, jobMsgNotificationLimit, false},
		{"no limit set: a nested job's hard limit", 0, 500 << 20, true, jobMsgJobMemoryLimit, false},
		{"our limit, our job under it: a nested job's", limit, 20 << 20, true, jobMsgNotificationLimit, false},
		{"our limit, our job over it", limit, 150 << 20, true, jobMsgNotificationLimit, true},
		{"our limit, exactly at it", limit, limit, true, jobMsgJobMemoryLimit, true},
		{"our job cannot be read", limit, 0, false, jobMsgNotificationLimit, false},
		{"another message", limit, 150 << 20, true, 7, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newJobEvents(tc.limit, func() (int64, bool) { return tc.peak, tc.ok })
			e.deliver(tc.msg)
			e.deliver(tc.msg) // twice: closing once
			assert.Equal(t, tc.want, e.exceeded())
		})
	}
}
