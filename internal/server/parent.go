package server

import (
	"context"
	"log/slog"
	"os"
	"runtime"
	"time"
)

// parentPoll is how often the portable part of the parent watchdog looks.
const parentPoll = 500 * time.Millisecond

// watchParent calls gone once when parent, the process that started this
// one, has exited: its host died without closing our stdin (an inherited
// pipe can keep stdin open after the host is gone, which is why the original
// aeat server had a watchdog). Each platform adds its best prompt mechanism
// — parent-death signal on Linux, kqueue NOTE_EXIT on macOS, a wait on the
// parent's process handle on Windows — and Unix systems also poll getppid,
// which changes when the parent dies and this process is re-parented. A
// mechanism that cannot be set up is logged: the server then relies on the
// poll, or (Windows) on stdin alone.
//
// parent is read first thing in main, so a host that died while this
// process started is seen here as a changed parent — or, where nothing can
// be the host but a parent that was re-parented (macOS: launchd, pid 1, as
// parent), as gone at once.
//
// The watch is armed once answered is closed — the host has its answer to
// initialize — or parentPoll after the start without it: arming it (a
// signal handler and the thread the runtime locks for it on Linux, a
// kqueue on macOS) is work a host would wait for, and before the answer
// nothing has been started that its death could leave behind.
func watchParent(ctx context.Context, parent int, gone func(), logger *slog.Logger, answered <-chan struct{}) {
	if parentGoneAtStart(runtime.GOOS, parent) {
		logger.Info("the host is gone already: stopping", "parent", parent)
		gone()
		return
	}
	if !awaitArming(ctx, answered) {
		return
	}
	fired := make(chan struct{}, 1)
	notify := func() {
		select {
		case fired <- struct{}{}:
		default:
		}
	}
	stop, err := watchParentExit(parent, notify)
	if err != nil {
		logger.Warn("cannot watch the host process; if it dies without closing stdin, this server notices only by polling its parent pid (never on Windows)",
			"parent", parent, "error", err)
	}
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

// awaitArming waits until answered is closed or parentPoll passes; false
// if ctx ends first.
func awaitArming(ctx context.Context, answered <-chan struct{}) bool {
	wait := time.NewTimer(parentPoll)
	defer wait.Stop()
	select {
	case <-answered:
	case <-wait.C:
	case <-ctx.Done():
		return false
	}
	return true
}

// parentGoneAtStart reports whether, on goos, a parent pid read at start
// already means the host is gone. On macOS an orphan's parent is launchd
// (pid 1), which never starts a stdio server. On Linux pid 1 can be a real
// host — tini or docker --init in a container is the parent of everything
// it starts — and an orphan may go to a subreaper instead, so the poll of
// getppid decides there. Windows never re-parents.
func parentGoneAtStart(goos string, parent int) bool {
	return goos == "darwin" && parent == 1
}
