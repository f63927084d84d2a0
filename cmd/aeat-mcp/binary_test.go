//go:build !windows

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

var (
	buildOnce sync.Once
	buildErr  error
)

// binaryPath builds aeat-mcp once for the tests that need a real process
// (signals).
func binaryPath(t *testing.T) string {
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "aeat-mcp-cmd-test")
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "aeat-mcp")
		out, err := exec.Command("go", "build", "-o", built, ".").CombinedOutput()
		if err != nil {
			buildErr = &exitError{exitFailure, errorString(string(out))}
		}
	})
	require.NoError(t, buildErr)
	return built
}

type errorString string

func (e errorString) Error() string { return string(e) }
