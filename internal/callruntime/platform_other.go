//go:build !linux && !darwin && !windows

package callruntime

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
)

func newPlatform(platformConfig) (platform, error) {
	return nil, errors.New("callruntime: no supervision for " + runtime.GOOS)
}

func isExecutable(fi fs.FileInfo) bool   { return fi.Mode()&0o111 != 0 }
func signalName(*os.ProcessState) string { return "" }

// ProcessStart is unknown here.
func ProcessStart(int) (uint64, bool) { return 0, false }
