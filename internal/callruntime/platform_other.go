//go:build !linux && !darwin && !windows

package callruntime

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
)

func newPlatform(map[Mechanism]bool) (platform, error) {
	return nil, errors.New("callruntime: no supervision for " + runtime.GOOS)
}

func isExecutable(fi fs.FileInfo) bool   { return fi.Mode()&0o111 != 0 }
func signalName(*os.ProcessState) string { return "" }
