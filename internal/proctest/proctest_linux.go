package proctest

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

func exists(pid int) bool { return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// parentOfZombie is the parent pid of pid when it is a zombie, else 0.
func parentOfZombie(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 || f[0] != "Z" {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

func describe(pid int) string {
	stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return "stat: " + string(stat)
}

// Running lists the live processes running the program at path, by pid
// (as text) — a zombie is not running.
func Running(path string) map[string]int {
	out := map[string]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if exe, err := os.Readlink("/proc/" + e.Name() + "/exe"); err == nil && exe == path && !Gone(pid) {
			out[e.Name()] = pid
		}
	}
	return out
}

// Kill sends SIGKILL to pid; cleanup after a failed test.
func Kill(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
