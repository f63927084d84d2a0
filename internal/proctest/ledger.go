package proctest

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// WaitLedger waits until the ledger of the Runner in process owner — the
// /proc walk's durable record of its calls' members, callruntime's
// OWNER.START.SEQ.members files in the state directory state, one
// "+call pid start pgid sid" line per member — records every pid of pids
// (by role, for the message), or fails tb after [HangAfter]: the walks
// that follow a call have seen them all.
func WaitLedger(tb testing.TB, state string, owner int, pids map[string]int) {
	tb.Helper()
	deadline := time.Now().Add(HangAfter)
	for {
		files, _ := filepath.Glob(filepath.Join(state, strconv.Itoa(owner)+".*.members"))
		recorded := map[int]bool{}
		for _, f := range files {
			b, _ := os.ReadFile(f)
			for _, line := range strings.Split(string(b), "\n") {
				if fs := strings.Fields(line); len(fs) == 5 && strings.HasPrefix(line, "+") {
					pid, _ := strconv.Atoi(fs[1])
					recorded[pid] = true
				}
			}
		}
		var missing []string
		for role, pid := range pids {
			if !recorded[pid] {
				missing = append(missing, role)
			}
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			slices.Sort(missing)
			tb.Fatalf("the ledger of %d never recorded %v of %v (files %v)", owner, missing, pids, files)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
