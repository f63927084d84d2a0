package warm

import (
	"bytes"
	"os"
	"strconv"
)

// rssOf is a process's resident memory in bytes (VmRSS), 0 if unknown.
func rssOf(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			f := bytes.Fields(rest)
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(string(f[0]), 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}
