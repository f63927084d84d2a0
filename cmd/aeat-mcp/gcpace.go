package main

import (
	"runtime/debug"
	"sync"
)

// connectGCPercent is the garbage collector's pace while a host connects.
// A start that loads the whole aeat (300 tools, a 575 KB tools/list)
// allocates ~1.5 MB more than the curated manifest's and so crosses the
// runtime's first heap goal (4 MB at GOGC=100): one collection the host
// waits for, ~14 CPU-ms on catalog and ~20 on all at this VM's fault
// cost (issue 32, measured with GOGC=off). At 400 the first goal is
// 16 MB, which no start reaches, and a heap that kept growing would still
// be collected at five times what it holds.
const connectGCPercent = 400

// paceGCForConnect slows the collector until the first call (the
// server's Config.FirstCall) and returns what puts it back, which is
// safe to call more than once. A GOGC the person set is theirs: then
// nothing changes.
func paceGCForConnect(has func(name string) bool) (restore func()) {
	if has("GOGC") {
		return func() {}
	}
	prev := debug.SetGCPercent(connectGCPercent)
	return sync.OnceFunc(func() { debug.SetGCPercent(prev) })
}
