//go:build linux

package warm

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Where clone3 into the call's cgroup is refused (a seccomp filter, an old
// kernel, a descriptor that is no cgroup), the template forks instead, from
// then on, and says so in its log: the server moves each child (Run checks
// where it is either way). Here the "cgroup" is the null device.
func TestTemplateForksWhenClone3IsRefused(t *testing.T) {
	script := proctest.WarmCLI(t)
	r, err := callruntime.NewRunner(callruntime.Options{StateDir: t.TempDir()})
	require.NoError(t, err)
	defer r.Close()
	log := &proctest.SyncBuffer{}
	logger := slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cfg := &Config{Warm: annotations.Warm{Entry: "warmdemo:main"}, Python: proctest.Python(t, "click"), Script: script,
		Env: []string{"PATH=/usr/bin:/bin", "WARMDEMO_IMPORT_SECONDS=0"}, Dir: t.TempDir()}
	tpl, err := startTemplate(context.Background(), r, cfg, logger, answerWait, newYielding())
	require.NoError(t, err)
	defer tpl.close()

	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	for i := 0; i < 2; i++ {
		a, err := tpl.fork(context.Background(), forkRequest{Argv: []string{"hello"}, Cwd: cfg.Dir, Env: cfg.Env}, null, null, null, null, &berths{})
		require.NoError(t, err, "the template forked instead")
		assert.False(t, a.inCgroup, "not born in a cgroup")
		require.NotZero(t, a.Pid())
		a.Close() // never started: it reads EOF and leaves
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(log.String(), "clone3 into the call's cgroup refused") {
		require.True(t, time.Now().Before(deadline), "the template did not say it: %s", log.String())
		time.Sleep(10 * time.Millisecond)
	}
	assert.Equal(t, 1, strings.Count(log.String(), "clone3 into the call's cgroup refused"), "once, then it forks")
}
