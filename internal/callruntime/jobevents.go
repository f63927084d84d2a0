package callruntime

import (
	"sync"
	"time"
)

// What a Windows Job Object's completion port tells a call's tree, kept
// apart from the Windows calls that read it so that its rules run in Linux
// CI (jobevents_test.go).
//
// A job nested under the call's — pip's and uv's aeat.exe launcher puts
// python.exe in a job of its own — has its messages delivered to every
// completion port up the chain (Microsoft Learn, "Nested Jobs"), under the
// key of each port's own job. So the call's port hears the launcher's job
// empty while its own still runs the launcher, and hears about memory
// limits it never set. Neither may be taken for news of the call's own job.

// JOB_OBJECT_MSG_* (winnt.h) read from the completion port.
const (
	jobMsgActiveProcessZero = 4
	jobMsgJobMemoryLimit    = 10
	jobMsgNotificationLimit = 11
)

// jobEvents are one call's news from its port.
type jobEvents struct {
	// empty is a wake-up, not a state: an ACTIVE_PROCESS_ZERO may be a
	// nested job's, so it only tells the waiter to ask its own job again
	// (waitJobEmpty). One pending wake-up at most; taking it re-arms it.
	empty chan struct{}
	// over is closed once the call's own job is confirmed over the memory
	// limit the call set (limit > 0).
	over     chan struct{}
	overOnce sync.Once
	limit    int64
	// peak reads the call's own job's peak committed memory; false when
	// it cannot be read.
	peak func() (int64, bool)
}

func newJobEvents(limit int64, peak func() (int64, bool)) *jobEvents {
	return &jobEvents{empty: make(chan struct{}, 1), over: make(chan struct{}), limit: limit, peak: peak}
}

// deliver acts on one message the port delivered under this call's key.
// A memory message counts only when the call set a limit and its own job
// is over it: a nested job's limit, or a message without any limit of
// ours, would otherwise turn a normal exit into resource_exceeded.
func (e *jobEvents) deliver(msg uint32) {
	switch msg {
	case jobMsgActiveProcessZero:
		select {
		case e.empty <- struct{}{}:
		default:
		}
	case jobMsgNotificationLimit, jobMsgJobMemoryLimit:
		if e.limit <= 0 {
			return
		}
		if peak, ok := e.peak(); ok && peak >= e.limit {
			e.overOnce.Do(func() { close(e.over) })
		}
	}
}

// exceeded reports whether the job was confirmed over its limit.
func (e *jobEvents) exceeded() bool {
	select {
	case <-e.over:
		return true
	default:
		return false
	}
}

// waitJobEmpty waits until active reports no process of the job, or d
// passes: woken by an ACTIVE_PROCESS_ZERO (which may be a nested job's, so
// it asks again) and otherwise asking on a back-off from 100µs to 10ms
// (messages other than notification limits may be lost).
func waitJobEmpty(active func() uint32, empty <-chan struct{}, d time.Duration) bool {
	deadline := time.Now().Add(d)
	pause := 100 * time.Microsecond
	for active() > 0 {
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		timer := time.NewTimer(min(pause, left))
		select {
		case <-empty:
		case <-timer.C:
		}
		timer.Stop()
		pause = min(2*pause, 10*time.Millisecond)
	}
	return true
}
