//go:build linux

package generate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The walk runs the CLI as a call does (issue 29 item 5): these CLIs are
// fakecli with its faults, sequenced by a script (a fixture: generate runs
// no shell; the CLI it walks may be anything, a script too).

const aHelpPage = `Run it.

Usage:
  prog [flags]

Flags:
      --x string   an x
`

// faultyCLI writes an executable script at dir/prog that runs body, with
// FAKE standing for fakecli and HELP for a file holding aHelpPage.
func faultyCLI(t *testing.T, dir, body string) string {
	t.Helper()
	help := filepath.Join(dir, "help.txt")
	require.NoError(t, os.WriteFile(help, []byte(aHelpPage), 0o644))
	body = strings.NewReplacer("FAKE", fakeCLI(t), "HELP", help).Replace(body)
	prog := filepath.Join(dir, "prog")
	require.NoError(t, os.WriteFile(prog, []byte("#!/bin/sh\n"+body), 0o755))
	return prog
}

var pidLine = regexp.MustCompile(`(?m)^pid (\S+) ([0-9]+)$`)

// pidsIn are the pids fakecli reported in text ("pid ROLE N"), by role.
func pidsIn(t *testing.T, text string) map[string]int {
	t.Helper()
	pids := map[string]int{}
	for i, m := range pidLine.FindAllStringSubmatch(text, -1) {
		pid, err := strconv.Atoi(m[2])
		require.NoError(t, err)
		pids[fmt.Sprintf("%s#%d", m[1], i)] = pid
	}
	return pids
}

// readPids are the pids fakecli reported into the file at path (none
// while it does not exist).
func readPids(t *testing.T, path string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	return pidsIn(t, string(data))
}

// TestWalk_DaemonsDie: what a CLI's help starts — a child in a new
// session, a double-forked daemon — is gone when the walk returns.
func TestWalk_DaemonsDie(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pids")
	prog := faultyCLI(t, dir, "FAKE tree setsid,daemon >>"+pidFile+"\ncat HELP\n")
	tree, err := WalkCobra(walkCtx(t), prog)
	require.NoError(t, err)
	require.Len(t, tree, 1)
	assert.Equal(t, "x", tree[0].Params[0].Name)
	pids := readPids(t, pidFile)
	require.GreaterOrEqual(t, len(pids), 2, "each run reports its setsid child and its daemon")
	proctest.RequireGone(t, pids, proctest.HangAfter)
}

// TestWalkClick_DaemonsDie: a daemon a Click CLI starts as it is imported
// is gone when the walk returns.
func TestWalkClick_DaemonsDie(t *testing.T) {
	python := clickPython(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pids")
	script := filepath.Join(dir, "daemonic")
	require.NoError(t, os.WriteFile(script, []byte("#!"+python+`
import subprocess, click
subprocess.run([`+strconv.Quote(fakeCLI(t))+`, "tree", "daemon"], stdout=open(`+strconv.Quote(pidFile)+`, "a"), check=True)

@click.command()
def main():
    """Do it."""

main()
`), 0o755))
	tree, err := WalkClick(walkCtx(t), script, "")
	require.NoError(t, err)
	require.Len(t, tree, 1)
	pids := readPids(t, pidFile)
	require.Len(t, pids, 1)
	proctest.RequireGone(t, pids, proctest.HangAfter)
}

// TestWalk_ChildKeepsStdout: a child of the help that keeps stdout open
// neither fails the walk nor outlives it.
func TestWalk_ChildKeepsStdout(t *testing.T) {
	prog := faultyCLI(t, t.TempDir(), "FAKE tree holder\ncat HELP\n")
	tree, err := WalkCobra(walkCtx(t), prog)
	require.NoError(t, err, "the help was printed: the holder is killed, not waited for")
	require.Len(t, tree, 1)
	pids := pidsIn(t, tree[0].Help)
	require.NotEmpty(t, pids, "the holder's pid line is in the page, before its usage: %q", tree[0].Help)
	proctest.RequireGone(t, pids, proctest.HangAfter)
}

// TestWalk_HangingHelp: a help that never ends is stopped with everything
// it started, when the walk is cancelled and at the step's ceiling.
func TestWalk_HangingHelp(t *testing.T) {
	t.Run("cancelled", func(t *testing.T) {
		dir := t.TempDir()
		pidFile := filepath.Join(dir, "pids")
		prog := faultyCLI(t, dir, "FAKE tree plain >>"+pidFile+"\nexec FAKE pid + hang >>"+pidFile+"\n")
		ctx, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		done := make(chan error, 1)
		go func() {
			_, err := WalkCobra(ctx, prog)
			done <- err
		}()
		var pids map[string]int
		for deadline := time.Now().Add(proctest.HangAfter); len(pids) < 2; time.Sleep(20 * time.Millisecond) {
			require.True(t, time.Now().Before(deadline), "the help never started its child")
			pids = readPids(t, pidFile)
		}
		cancel(fmt.Errorf("the person pressed ^C"))
		var err error
		select {
		case err = <-done:
		case <-time.After(time.Minute):
			t.Fatal("the walk did not return once cancelled")
		}
		assert.ErrorContains(t, err, "prog --help: stopped: the person pressed ^C")
		proctest.RequireGone(t, pids, proctest.HangAfter)
	})
	t.Run("ceiling", func(t *testing.T) {
		old := stepTimeout
		stepTimeout = time.Second // the help never answers: any ceiling is reached
		t.Cleanup(func() { stepTimeout = old })
		prog := faultyCLI(t, t.TempDir(), "exec FAKE hang\n")
		_, err := WalkCobra(walkCtx(t), prog)
		assert.ErrorContains(t, err, "prog --help did not answer within 1s: stopped, with every process it started")
	})
}

// TestWalk_FloodedHelp: a help of 64 MiB is refused, not read whole (a 1
// GiB one took generate to 4.1 GB).
func TestWalk_FloodedHelp(t *testing.T) {
	const size = 64 << 20
	prog := faultyCLI(t, t.TempDir(), "exec FAKE flood stdout "+strconv.Itoa(size)+"\n")
	_, err := WalkCobra(walkCtx(t), prog)
	assert.ErrorContains(t, err, fmt.Sprintf("prog --help printed %d bytes, more than a help page (4 MiB): not read", size))
}
