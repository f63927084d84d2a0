//go:build linux || darwin

package callruntime

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// The ledger is where a Runner that walks the process table (the Linux
// /proc walk, macOS) remembers, durably, every member its calls' walks have
// seen: a file in a private directory, one line per member,
//
//	+CALL PID START PGID SID
//	-CALL
//
// the second when the call ended. A cgroup or a Job Object outlives the
// server by itself; a walk's memory does not. When the server dies, its
// lifeline sweeps the ledger (kills what it lists, and what those started);
// when the lifeline died with it (pkill -9 -f aeat-mcp), the next Runner to
// start beside it does — as the cgroup mode's next start removes a dead
// server's cgroups.
//
// Only a process that is still the one recorded (same pid, same start time)
// is killed, with the groups and sessions it holds that a member led: a pid
// reused since can never be hit. A process that appeared and was orphaned
// between two walks is not in the ledger; see [followWalks] for how often
// they run.
type ledger struct {
	path string

	mu     sync.Mutex
	f      *os.File
	live   map[uint64][]string // lines of the calls in flight, to compact the file
	ended  int                 // calls ended since the file was last compacted
	failed error               // the first write that failed; the ledger then stops
}

// ledgerSeq numbers the ledgers of this process's Runners.
var ledgerSeq atomic.Uint64

// openStateLedger sweeps the ledgers that dead servers left in the state
// directory and, with own set (this Runner walks the process table), opens
// this Runner's. It reports the ledger as a line of [Report].
func openStateLedger(cfg platformConfig, owner ident, own bool, readTable func() []proc) (*ledger, MechanismStatus) {
	st := MechanismStatus{Mechanism: Ledger}
	if cfg.disabled[Ledger] {
		st.Detail = "disabled"
		return nil, st
	}
	legacy := legacyStateDir(os.TempDir(), os.Geteuid())
	candidates := []string{cfg.stateDir}
	if cfg.stateDir == "" {
		candidates = []string{defaultStateDir(runtime.GOOS, os.Getenv("HOME")), legacy}
	}
	var dir string
	var err error
	for _, c := range candidates {
		if c == "" {
			continue
		}
		if dir, err = stateDir(c); err == nil {
			break
		}
	}
	if dir == "" {
		st.Detail = "no private state directory: " + err.Error()
		return nil, st
	}
	sweepDeadLedgers(dir, readTable)
	if cfg.stateDir == "" && legacy != dir && privateDir(legacy) == nil {
		sweepDeadLedgers(legacy, readTable) // where servers of before kept theirs
	}
	st.Available = true
	if !own {
		st.Detail = "not needed here; ledgers of dead servers in " + dir + " are swept at start"
		return nil, st
	}
	l, err := openLedger(dir, owner, ledgerSeq.Add(1))
	if err != nil {
		st.Available = false
		st.Detail = err.Error()
		return nil, st
	}
	st.Used = true
	st.Detail = "members recorded in " + dir + ": the lifeline, or the next start, kills what a dead server's calls left"
	return l, st
}

// defaultStateDir is where goos keeps this user's ledgers when
// [Options.StateDir] is empty: the OS's per-user cache or state directory,
// found from the home directory alone — macOS ~/Library/Caches/aeat-mcp,
// elsewhere ~/.local/state/aeat-mcp (XDG's default state home). Every
// server of a user must find the same directory to sweep what another one
// left, whichever host started it: the temporary directory differs between
// them (a server started by Claude Desktop on macOS gets /tmp, one started
// from a terminal /var/folders/…), and so may XDG_STATE_HOME (hosts pass
// HOME and little else), so neither is used. "" when home is not an
// absolute path of its own.
func defaultStateDir(goos, home string) string {
	if !filepath.IsAbs(home) || filepath.Clean(home) == "/" {
		return ""
	}
	if goos == "darwin" {
		return filepath.Join(home, "Library", "Caches", "aeat-mcp")
	}
	return filepath.Join(home, ".local", "state", "aeat-mcp")
}

// legacyStateDir is where ledgers were kept before, and still are when
// there is no home directory to use: "aeat-mcp-UID" under the temporary
// directory.
func legacyStateDir(tmp string, uid int) string {
	return filepath.Join(tmp, "aeat-mcp-"+strconv.Itoa(uid))
}

// ledgerSuffix names ledger files; the name before it is the owner's
// "PID.START.SEQ" (see ledgerName).
const ledgerSuffix = ".members"

// compactAfter is how many ended calls a ledger file holds before it is
// rewritten with only the calls in flight.
const compactAfter = 512

// stateDir creates dir (and its parents) if needed and checks that it is
// ours alone: a directory another user can write would let them choose
// which processes we kill.
func stateDir(dir string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return "", err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	if err := privateDir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// privateDir checks that dir is a directory (not a link to one) that only
// we own and can write.
func privateDir(dir string) error {
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil {
		return err
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFDIR:
		return fmt.Errorf("%s is not a directory", dir)
	case int(st.Uid) != os.Geteuid():
		return fmt.Errorf("%s belongs to uid %d, not to us", dir, st.Uid)
	case st.Mode&0o077 != 0:
		return fmt.Errorf("%s is open to other users (mode %o)", dir, st.Mode&0o777)
	}
	return nil
}

// ledgerName is the file name of a Runner's ledger.
func ledgerName(owner ident, seq uint64) string {
	return fmt.Sprintf("%d.%s.%d%s", owner.pid, strconv.FormatUint(owner.start, 36), seq, ledgerSuffix)
}

// ledgerOwner parses a ledger's file name back into its owner.
func ledgerOwner(name string) (ident, bool) {
	rest, ok := strings.CutSuffix(name, ledgerSuffix)
	if !ok {
		return ident{}, false
	}
	f := strings.Split(rest, ".")
	if len(f) != 3 {
		return ident{}, false
	}
	pid, err1 := strconv.Atoi(f[0])
	start, err2 := strconv.ParseUint(f[1], 36, 64)
	if err1 != nil || err2 != nil || pid <= 0 {
		return ident{}, false
	}
	return ident{pid, start}, true
}

func openLedger(dir string, owner ident, seq uint64) (*ledger, error) {
	path := filepath.Join(dir, ledgerName(owner, seq))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	return &ledger{path: path, f: f, live: map[uint64][]string{}}, nil
}

// add records members of call.
func (l *ledger) add(call uint64, ps ...proc) {
	if l == nil || len(ps) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	for _, p := range ps {
		line := fmt.Sprintf("+%d %d %d %d %d\n", call, p.pid, p.start, p.pgid, p.sid)
		b.WriteString(line)
		l.live[call] = append(l.live[call], line)
	}
	l.write(b.String())
}

// end records that call ended: its members are gone.
func (l *ledger) end(call uint64) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.live[call]; !ok {
		return
	}
	delete(l.live, call)
	l.ended++
	if l.ended >= compactAfter {
		l.compact()
		return
	}
	l.write("-" + strconv.FormatUint(call, 10) + "\n")
}

func (l *ledger) write(s string) {
	if l.f == nil || l.failed != nil {
		return
	}
	if _, err := l.f.WriteString(s); err != nil {
		l.failed = err
	}
}

// compact rewrites the file with only the calls in flight, through a
// rename, so a reader never sees half of it.
func (l *ledger) compact() {
	var b strings.Builder
	for _, lines := range l.live {
		for _, line := range lines {
			b.WriteString(line)
		}
	}
	tmp := l.path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o600); err != nil {
		return // keep appending to the old file
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		os.Remove(tmp)
		return
	}
	if err := os.Rename(tmp, l.path); err != nil {
		f.Close()
		os.Remove(tmp)
		return
	}
	l.f.Close()
	l.f = f
	l.ended = 0
}

// close removes the ledger: every call ended.
func (l *ledger) close() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
	os.Remove(l.path)
}

// ledgerCalls parses a ledger: the members of every call that had not
// ended, each call's first member its leader. Malformed lines (a write cut
// short by the server's death) are skipped.
func ledgerCalls(b []byte) map[uint64][]proc {
	calls := map[uint64][]proc{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 2 {
			continue
		}
		f := strings.Fields(line[1:])
		if len(f) == 0 {
			continue
		}
		call, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			continue
		}
		switch line[0] {
		case '-':
			delete(calls, call)
		case '+':
			if len(f) != 5 {
				continue
			}
			var n [4]int64
			ok := true
			for i := range n {
				v, err := strconv.ParseInt(f[i+1], 10, 64)
				ok = ok && err == nil && v >= 0
				n[i] = v
			}
			if ok && n[0] > 1 {
				calls[call] = append(calls[call], proc{pid: int(n[0]), start: uint64(n[1]), pgid: int(n[2]), sid: int(n[3])})
			}
		}
	}
	return calls
}

// sweepLedger kills what the calls of one ledger left: every member still
// the recorded process, what they started, and the groups and sessions
// they hold that a member led. With leaderGroups (the lifeline, which runs
// the moment the server dies) each call's leader's process group is killed
// too even if the leader is already gone — Pdeathsig killed it an instant
// ago — unless its pid names another process now (see leaderGroupIsCalls).
// It stops everything first (SIGSTOP, until a walk finds nothing new),
// then kills.
func sweepLedger(b []byte, self int, leaderGroups bool, readTable func() []proc) {
	calls := ledgerCalls(b)
	if len(calls) == 0 {
		return
	}
	var table []proc
	if leaderGroups {
		table = readTable()
	}
	var ms []*membership
	for _, members := range calls {
		leader := members[0]
		m := newMembership(ident{leader.pid, leader.start}, self)
		for _, p := range members[1:] {
			m.known[p.pid] = record{start: p.start, pgid: p.pgid, sid: p.sid}
		}
		ms = append(ms, m)
		if leaderGroups && leaderGroupIsCalls(leader, table) {
			_ = unix.Kill(-leader.pid, unix.SIGKILL)
		}
	}
	walk := func() []proc {
		table := readTable()
		var all []proc
		for _, m := range ms {
			members, _ := m.walk(table, nil)
			all = append(all, members...)
		}
		return all
	}
	signalMembers(freeze(walk), unix.SIGKILL)
}

// leaderGroupIsCalls reports whether the process group whose id is the
// recorded leader's pid can still be its call's: the leader is that pid
// still (same start time), or no process has that pid — a group outlives
// its leader, and the kernel gives no new process a pid that still names a
// group. A pid that names a younger process was reused once the leader and
// its group were gone (a call that ended with survivors is not ended in
// the ledger): the group with that id now is the newcomer's, never killed
// for the call. Seen only in a table read before the kill; the membership
// walk that follows kills the recorded members by identity.
func leaderGroupIsCalls(leader proc, table []proc) bool {
	for _, p := range table {
		if p.pid == leader.pid {
			return p.start == leader.start
		}
	}
	return true
}

// sweepDeadLedgers sweeps the ledgers in dir whose owner is no longer
// alive, and removes them. A ledger whose owner's pid is alive as the same
// process is another server's, and left alone.
func sweepDeadLedgers(dir string, readTable func() []proc) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	var table []proc
	alive := func(id ident) bool {
		if table == nil {
			table = readTable()
		}
		for _, p := range table {
			if p.pid == id.pid {
				return p.start == id.start && !p.zombie
			}
		}
		return false
	}
	self := os.Getpid()
	for _, e := range ents {
		owner, ok := ledgerOwner(e.Name())
		if !ok || !e.Type().IsRegular() || owner.pid == self || alive(owner) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		sweepLedger(b, self, false, readTable)
		os.Remove(path)
	}
}
