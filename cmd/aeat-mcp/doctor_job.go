package main

import (
	"fmt"
	"io"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// doctorHostJob says whether the server runs inside a Windows Job Object
// and with which limits — a host's job decides whether each call can have
// one of its own — and what the calls get when they cannot. Elsewhere it
// prints nothing.
func doctorHostJob(w io.Writer, rep *callruntime.Report) {
	if rep.Platform != "windows" {
		return
	}
	if rep.Host == nil {
		fmt.Fprintf(w, "  ok       the server runs in no job of a host's\n")
	} else {
		fmt.Fprintf(w, "  note     %s\n", rep.Host)
	}
	if !rep.Uses(callruntime.JobObject) {
		fmt.Fprintf(w, "  note     calls cannot have a Job Object here: their trees are found by walking the process table and stopped with TerminateProcess; tree_dead stays false, and a killed server leaves them running\n")
		fmt.Fprintf(w, "           fix: start aeat-mcp from a host whose job has no UI restrictions (or allows breakaway)\n")
	}
}
