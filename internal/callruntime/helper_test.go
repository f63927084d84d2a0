package callruntime_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// The test binary re-executes itself as a helper process (os/exec's
// TestHelperProcess pattern) when a test needs a supervising process of its
// own: to measure its peak memory, or to SIGKILL it mid-call.

func helperMain() int {
	fakecli = os.Getenv("FAKECLI")
	if dir := os.Getenv("JOIN_CGROUP"); dir != "" {
		// Into the test's cgroup before anything starts (0: this process).
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte("0"), 0); err != nil {
			panic(err)
		}
	}
	switch os.Getenv("CALLRUNTIME_TEST_HELPER") {
	case "flood":
		return helperFlood()
	case "serve-tree":
		return helperServeTree()
	case "report-tree":
		return helperReportTree()
	case "new-runner":
		// What every server does at start: make a Runner (which sweeps
		// the homes of dead servers beside it) and close it.
		r, err := callruntime.NewRunner(callruntime.Options{StateDir: os.Getenv("STATE_DIR")})
		if err != nil {
			panic(err)
		}
		_ = r.Close()
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown helper")
	return 2
}

func helperFlood() int {
	// The assertion is about what the capture keeps, not about how far the
	// collector lags behind garbage: on a loaded machine (and under -race)
	// a starved GC let the peak drift past the bound while nothing was
	// retained. A soft limit keeps the collector at work; a capture that
	// retained the flood would still exceed any bound by gigabytes.
	debug.SetMemoryLimit(32 << 20)
	r, err := callruntime.NewRunner(callruntime.Options{})
	if err != nil {
		panic(err)
	}
	defer r.Close()
	lines := 0
	s := callruntime.Spec{Path: fakecli, Args: []string{"flood", "both", strconv.Itoa(1 << 30)},
		OnLine: func(callruntime.Line) { lines++ }, Filter: callruntime.RedactPrivateKeys}
	res, err := r.Run(context.Background(), s)
	if err != nil {
		panic(err)
	}
	s = callruntime.Spec{Path: fakecli, Args: []string{"flood", "stdout", strconv.Itoa(100 << 20), "nonl"},
		OnLine: func(callruntime.Line) { lines++ }, Filter: callruntime.RedactPrivateKeys}
	line, err := r.Run(context.Background(), s)
	if err != nil {
		panic(err)
	}
	_ = json.NewEncoder(os.Stdout).Encode(map[string]any{
		"StdoutTotal": res.Stdout.Total, "StderrTotal": res.Stderr.Total,
		"LineTotal": line.Stdout.Total, "PeakRSSKiB": peakRSSKiB(), "Lines": lines,
	})
	return 0
}

// peakRSSKiB reads VmHWM, the process's peak resident set, from /proc.
func peakRSSKiB() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return -1
}

// helperServeTree runs a tree that never ends and relays fakecli's pid lines
// to its stdout, so the test can SIGKILL this process mid-call.
func helperServeTree() int {
	var disable []callruntime.Mechanism
	for _, m := range strings.Fields(os.Getenv("DISABLE")) {
		disable = append(disable, callruntime.Mechanism(m))
	}
	r, err := callruntime.NewRunner(callruntime.Options{Disable: disable, StateDir: os.Getenv("STATE_DIR")})
	if err != nil {
		panic(err)
	}
	out := bufio.NewWriter(os.Stdout)
	lines := make(chan string, 16)
	go func() {
		for l := range lines {
			fmt.Fprintln(out, l)
			out.Flush()
		}
	}()
	tree := os.Getenv("TREE")
	if tree == "" {
		tree = "plain,setsid,daemon"
	}
	s := callruntime.Spec{Path: fakecli, Args: steps("pid", "tree "+tree, "hang"),
		OnLine: func(l callruntime.Line) { lines <- l.Text }}
	if g, err := time.ParseDuration(os.Getenv("KILL_GRACE")); err == nil {
		s.KillGrace = g
	}
	if os.Getenv("UNTIL_EOF") == "" {
		_, _ = r.Run(context.Background(), s)
		time.Sleep(time.Hour)
		return 0
	}
	// As a server does when its host closes stdin: stop the calls (their
	// grace included) and exit — unless the host's SIGKILL comes first.
	go func() { _, _ = r.Run(context.Background(), s) }()
	_, _ = io.Copy(io.Discard, os.Stdin)
	_ = r.Close()
	return 0
}

// helperReportTree makes a Runner where it was started (inside a host's
// job, without a console...), says which mechanism it picked and what it
// reports, runs ARGS ("+"-separated fakecli steps) and prints the output
// and whether the tree was confirmed dead.
func helperReportTree() int {
	r, err := callruntime.NewRunner(callruntime.Options{})
	if err != nil {
		panic(err)
	}
	defer r.Close()
	fmt.Printf("tree %s\n", r.Tree())
	for _, l := range r.Mechanisms().Limits {
		fmt.Printf("limit %s\n", l)
	}
	res, err := r.Run(context.Background(), callruntime.Spec{Path: fakecli, Args: strings.Fields(os.Getenv("ARGS")), KillGrace: 300 * time.Millisecond})
	if err != nil {
		fmt.Printf("error %v\n", err)
		return 0
	}
	fmt.Print(res.Stdout.Text(nil))
	fmt.Printf("outcome %s tree_dead %v\n", res.End, res.TreeDead)
	return 0
}
