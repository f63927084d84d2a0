package warm

import (
	"errors"
	"fmt"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/stretchr/testify/assert"
)

// Verify runs that a ceiling ended say the machine is loaded, never that
// warm start is wrong — also a warm run whose ceiling passed while the
// template was forking it, so that it never started (seen at load 16:
// warm start turned off, "the warm run did not start: … timed out").
// Every other difference is a verdict.
func TestCompareRuns(t *testing.T) {
	argv := []string{"hello"}
	exited := func(out string) verifyRun {
		return verifyRun{argv: argv, res: callruntime.Result{End: callruntime.Exited, Stdout: callruntime.Output{Head: []byte(out), Total: int64(len(out))}}}
	}
	notStarted := func(err error) verifyRun {
		return verifyRun{argv: argv, err: &callruntime.AdoptError{Err: err}}
	}
	forkTimedOut := fmt.Errorf("the call ended before the template forked it: %w", callruntime.ErrTimeout)
	for _, tc := range []struct {
		name       string
		cold, warm verifyRun
		why        string // "" when they agree
		again      bool
	}{
		{"agree", exited("hi\n"), exited("hi\n"), "", false},
		{"stdout differs", exited("hi\n"), exited("ho\n"), "stdout differs", false},
		{"cold timed out", verifyRun{argv: argv, res: callruntime.Result{End: callruntime.TimedOut}}, exited("hi\n"), "cold timed_out, warm exited", true},
		{"warm timed out", exited("hi\n"), verifyRun{argv: argv, res: callruntime.Result{End: callruntime.TimedOut}}, "warm timed_out", true},
		{"warm timed out before the fork", exited("hi\n"), notStarted(forkTimedOut), "warm not started", true},
		{"warm refused", exited("hi\n"), notStarted(errors.New("the template refused the call: E")), "the warm run did not start", false},
		{"cold not started", notStarted(errors.New("no such file")), exited("hi\n"), "the cold run did not start", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			why, again := compareRuns([]verifyRun{tc.cold}, []verifyRun{tc.warm})
			if tc.why == "" {
				assert.Empty(t, why)
			} else {
				assert.Contains(t, why, tc.why)
			}
			assert.Equal(t, tc.again, again, why)
		})
	}
}
