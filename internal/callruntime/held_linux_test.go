package callruntime_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStartHeld: where clone3 is refused, a call's program is held by a
// trampoline (this binary) while the server moves it into its cgroup, and
// only then executed — in place: the same pid, exactly its own environment,
// no descriptor of the hold left open.
func TestStartHeld(t *testing.T) {
	var stdout bytes.Buffer
	cmd := &exec.Cmd{Path: fakecli, Args: []string{fakecli, "pid", "+", "env", "+", "fds"}, Env: []string{"A=1", "B=two words"}, Stdout: &stdout}
	var held string
	err := callruntime.StartHeld(cmd, func(pid int) error {
		// Start returns once exec is past its point of no return, a
		// moment before the new argv is in place: until then cmdline
		// reads empty. The trampoline then waits for its go byte.
		deadline := time.Now().Add(time.Minute)
		for held == "" && time.Now().Before(deadline) {
			b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
			if err != nil {
				return err
			}
			held = string(b)
			time.Sleep(time.Millisecond)
		}
		return nil
	})
	require.NoError(t, err)
	require.NoError(t, cmd.Wait())
	assert.True(t, strings.HasPrefix(held, "aeat-mcp-exec\x00"+fakecli+"\x00"), "while it was placed, the process was the trampoline: %q", held)
	out := stdout.String()
	assert.Contains(t, out, "pid self "+strconv.Itoa(cmd.Process.Pid)+"\n", "the program runs in the trampoline's process")
	assert.Contains(t, out, `{"A":"1","B":"two words"}`, "exactly the environment it was given")
	// What a plain start passes on (descriptors this test inherited
	// without close-on-exec), and nothing more.
	plain, err := exec.Command(fakecli, "fds").Output()
	require.NoError(t, err)
	assert.Contains(t, out, string(plain), "no descriptor of the hold reaches the program")
}

// TestStartHeld_PlaceFails: a program that could not be placed never runs.
func TestStartHeld_PlaceFails(t *testing.T) {
	var stdout bytes.Buffer
	cmd := &exec.Cmd{Path: fakecli, Args: []string{fakecli, "echo", "ran"}, Stdout: &stdout}
	placing := errors.New("no cgroup for you")
	err := callruntime.StartHeld(cmd, func(int) error { return placing })
	require.ErrorIs(t, err, placing)
	require.NotNil(t, cmd.ProcessState, "the trampoline was reaped")
	assert.Empty(t, stdout.String(), "the program never ran")
}

// TestRun_HeldExecFails: an exec that fails after the hold is the start
// error the clone3 path gives, not an exit of the trampoline.
func TestRun_HeldExecFails(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "not-a-program")
	require.NoError(t, os.WriteFile(bad, []byte("\x00\x01\x02 no magic here"), 0o755))
	for _, disable := range [][]callruntime.Mechanism{nil, {callruntime.CloneIntoCgroup}} {
		r := newRunner(t, disable...)
		_, err := r.Run(context.Background(), callruntime.Spec{Path: bad})
		var se *callruntime.StartError
		require.ErrorAs(t, err, &se, "disabled %v", disable)
		assert.ErrorIs(t, err, syscall.ENOEXEC, "disabled %v", disable)
	}
}

// TestCloneRefusedMode runs under .ci/run's seccomp filter that refuses
// clone3 (testdata/noclone3, CALLRUNTIME_CLONE3_REFUSED=1): the Runner must
// have noticed, and hold every cold call until it is in its cgroup. Without
// the filter it checks the report says clone3 works.
func TestCloneRefusedMode(t *testing.T) {
	r := newRunner(t)
	if r.Tree() != "cgroup" {
		t.Skip("no writable cgroup v2 here: the clone3 path is not taken")
	}
	var st callruntime.MechanismStatus
	for _, m := range r.Mechanisms().Mechanisms {
		if m.Mechanism == callruntime.CloneIntoCgroup {
			st = m
		}
	}
	refused := os.Getenv("CALLRUNTIME_CLONE3_REFUSED") == "1"
	assert.Equal(t, !refused, st.Used, "%+v", st)
	if refused {
		assert.Contains(t, st.Detail, "clone3 is refused here")
	}
	// A program that forks at once, in this mode or the other: nothing it
	// started survives the call.
	s := spec("tree daemon,setsid", "exit 0")
	res := run(t, r, s)
	assert.True(t, res.TreeDead)
	proctest.RequireGone(t, reportedPids(res.Stdout.Text(nil)), 0)
}
