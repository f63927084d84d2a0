package server

import (
	"context"
	"os"
	"time"
)

// parentPoll is how often the portable part of the parent watchdog looks.
const parentPoll = 500 * time.Millisecond

// watchParent calls gone once when the process that started this one has
// exited: its host died without closing our stdin (an inherited pipe can keep
// stdin open after the host is gone, which is why the original aeat server
// had a watchdog). Each platform adds its best prompt mechanism —
// parent-death signal on Linux, kqueue NOTE_EXIT on macOS, a wait on the
// parent's process handle on Windows — and Unix systems also poll getppid,
// which changes when the parent dies and this process is re-parented.
func watchParent(ctx context.Context, gone func()) {
	parent := os.Getppid()
	fired := make(chan struct{}, 1)
	notify := func() {
		select {
		case fired <- struct{}{}:
		default:
		}
	}
	stop := watchParentExit(parent, notify)
	defer stop()
	var tick <-chan time.Time
	if reparents {
		t := time.NewTicker(parentPoll)
		defer t.Stop()
		tick = t.C
		if os.Getppid() != parent {
			gone()
			return
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-fired:
			gone()
			return
		case <-tick:
			if os.Getppid() != parent {
				gone()
				return
			}
		}
	}
}
