package warm

import (
	"encoding/binary"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// The line protocol between the server and template.py, the Go side of it
// in one place (the Python side: template.py's head comment and its _line_*,
// _send and _read_request). protocol_test.go runs template.py's own
// encoders through python3 and decodes every message kind here.
//
//   - argv[1]: the template's configuration, [templateConfig] as JSON.
//   - control socket, server → template: the byte [msgFork] carrying the
//     template's end of a socket pair made for one call and, where the
//     template keeps a spare in a berth (berth.go), the directory of the
//     next spare's berth: the template forks every spare from then on into
//     it, and into none when the request brings none.
//     Template → server: one JSON line, [readyMsg] ("ready" or "error").
//   - call socket, server → template: the byte [msgCall] carrying the
//     call's descriptors; then nothing until the server closes it.
//     Template and child → server: lines, [callMsg].
//   - go pipe, server → child: the call's [forkRequest], framed by
//     [goPipeFrame].
//   - record file, child → server: [Recording] as JSON.

// templateConfig is the template's configuration (template.py's _CFG).
type templateConfig struct {
	Script  string     `json:"script"`
	Entry   string     `json:"entry"`
	Preload string     `json:"preload"`
	Modules []string   `json:"modules"`
	Reset   []string   `json:"reset"`
	Warmup  [][]string `json:"warmup"`
	OS      string     `json:"os"`
	Canary  []string   `json:"canary"`
	// CanarySeconds is how long the fork canary may take (0: 30 s).
	CanarySeconds float64 `json:"canary_seconds"`
	// Unset names the variables the server added to the template's
	// environment for its interpreter alone (templateEnv): the template
	// removes them from os.environ before it imports the CLI.
	Unset []string `json:"unset"`
	// Spare has the template keep a child forked ahead of the next call
	// (template.py, _Spares); nil: none.
	Spare *spareConfig `json:"spare,omitempty"`
}

// spareConfig is how a template's spare learns which of its pages calls
// write (template.py, _Spares.report_pipe and _learn).
type spareConfig struct {
	// LearnFirst calls' children report the pages they wrote, then one
	// call in LearnEvery: a report costs its call a read of the child's
	// page map once its output is out.
	LearnFirst int `json:"learn_first"`
	LearnEvery int `json:"learn_every"`
	// MaxPages bounds the pages a spare copies ahead: the memory each
	// spare holds of its own.
	MaxPages int `json:"max_pages"`
	// ReportOver: a child reports only when its call faulted at least
	// this many pages — fewer cost less than the report itself.
	ReportOver int `json:"report_over"`
}

// The bytes that carry descriptors (SCM_RIGHTS) to the template.
const (
	msgFork = 'F' // on the control socket: a call socket[, the next spare's berth]
	msgCall = 'C' // on a call socket: stdin, stdout, stderr, the go pipe[, a cgroup]
)

// readyMsg is the template's first line once it imported the CLI.
type readyMsg struct {
	Ready   bool `json:"ready"`
	Pid     int  `json:"pid"`
	Threads int  `json:"threads"`
	// ThreadCount is how Threads was counted (/proc/self/task, or on
	// macOS pthread_is_threaded_np).
	ThreadCount string `json:"thread_count"`
	// Open are the descriptors the template holds besides its own, that
	// every call would share with it (template.py, _open_files).
	Open []openFile `json:"open"`
	// Canary is why the fork canary failed; "" when it passed, nil when
	// it did not run (a threaded template).
	Canary *string `json:"canary"`
	// CanaryTimedOut: the canary did not end within its wait — on a
	// loaded machine that says nothing about the CLI (not a verdict).
	CanaryTimedOut bool     `json:"canary_timed_out"`
	Commands       int      `json:"commands"`
	Modules        int      `json:"modules"`
	PreloadFailed  []string `json:"preload_failed"`
	ImportMS       int      `json:"import_ms"`
	PreloadMS      int      `json:"preload_ms"`
	Files          []string `json:"files"`
	// Runs is what a call runs: "script" (the console script as
	// __main__) or "entry" (the entry point: the script is not Python).
	Runs  string `json:"runs"`
	Error string `json:"error"`
	Trace string `json:"trace"`
}

// openFile is one descriptor the template holds that a call would share.
type openFile struct {
	FD   int    `json:"fd"`
	What string `json:"what"`
}

// forkRequest is what a warm child is told on its go pipe, and only it:
// the call's argv, working directory and whole environment (a secret
// loaded at call time among them), and where to record what it loaded
// (aeat-mcp warm record; "" for a call).
type forkRequest struct {
	Argv   []string `json:"argv"`
	Cwd    string   `json:"cwd"`
	Env    []string `json:"env"`
	Record string   `json:"record,omitempty"`
}

// goPipeFrame is req as the child reads it: a 4-byte big-endian length,
// then that many bytes of JSON.
func goPipeFrame(req forkRequest) []byte {
	body, _ := json.Marshal(req) // strings and lists of them: cannot fail
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(body))), body...)
}

// The kinds of line on a call socket.
const (
	// lineForked: "P pid ppid c|f[ s]", from the child once it leads a
	// session of its own (c: born in the call's cgroup, or a spare in its
	// berth; f: forked in the template's; s: it was the template's spare,
	// forked before the call).
	lineForked = 'P'
	// lineExited: "X e CODE" or "X s SIGNUM", from the template once the
	// child exited (it stays a zombie until the call socket closes); where
	// the template could read the zombie's resource use (Linux), followed
	// by "r MINFLT MAJFLT USER_US SYS_US" ([childUsage]).
	lineExited = 'X'
	// lineThreads: "T N", no fork: the template has N threads.
	lineThreads = 'T'
	// lineRefused: "E why", no fork.
	lineRefused = 'E'
)

// childUsage is what one warm child used, from its birth at the fork to
// its exit, with the children it reaped (getrusage's RUSAGE_BOTH, read by
// the template from the zombie: waitid with WNOWAIT fills a struct rusage
// on Linux). It is what page faults and CPU a call cost, where a cold
// call's would also count its interpreter's start and imports.
type childUsage struct {
	// Reported: the template read it (Linux); else the rest is zero.
	Reported bool
	// Spare: the child was the template's spare, forked and made ready
	// before the call; what it used until it was handed the call is not
	// counted.
	Spare bool
	// MinFlt and MajFlt are ru_minflt and ru_majflt: pages first touched
	// or copied on write, and pages read from disk.
	MinFlt, MajFlt int64
	// User and Sys are ru_utime and ru_stime.
	User, Sys time.Duration
}

// callMsg is one line of a call socket, read.
type callMsg struct {
	kind byte // one of the line kinds; 0 for a line of no kind
	// lineForked
	pid      int
	inCgroup bool
	spare    bool
	// lineExited: the child's exit code, or the signal that ended it, and
	// what it used (zero when not reported).
	code     int
	signaled bool
	signum   int
	usage    childUsage
	// lineThreads
	threads int
	// lineRefused
	why string
}

// parseCallMsg reads one line of a call socket. A field missing or not a
// number reads as zero, as the template never writes one.
func parseCallMsg(line string) callMsg {
	f := strings.Fields(line)
	if len(f) == 0 || len(f[0]) != 1 {
		return callMsg{}
	}
	num := func(i int) int {
		if i >= len(f) {
			return 0
		}
		n, _ := strconv.Atoi(f[i])
		return n
	}
	m := callMsg{kind: f[0][0]}
	switch m.kind {
	case lineForked:
		m.pid, m.inCgroup, m.spare = num(1), len(f) >= 4 && f[3] == "c", len(f) >= 5 && f[4] == "s"
	case lineExited:
		switch {
		case len(f) < 3:
		case f[1] == "e":
			m.code = num(2)
		case f[1] == "s":
			m.signaled, m.signum = true, num(2)
		default:
			return callMsg{}
		}
		if len(f) >= 8 && f[3] == "r" {
			m.usage = childUsage{Reported: true, MinFlt: int64(num(4)), MajFlt: int64(num(5)),
				User: time.Duration(num(6)) * time.Microsecond, Sys: time.Duration(num(7)) * time.Microsecond}
		}
	case lineThreads:
		m.threads = num(1)
	case lineRefused:
		m.why = strings.Join(f[1:], " ")
	default:
		return callMsg{}
	}
	return m
}
