package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// quarantineAttr is the extended attribute macOS puts on what a browser
// (or any app that asks for it) downloads. On an executable it makes
// Gatekeeper check the program when it is first started; an un-notarized
// one is then refused ("cannot be opened because Apple cannot check it for
// malicious software") — and a host that starts it shows only "Server
// disconnected".
const quarantineAttr = "com.apple.quarantine"

// qtnUserApproved is the quarantine flag a person's "Open Anyway" sets
// (QTN_FLAG_USER_APPROVED in Apple's libquarantine): the file is still
// marked, and runs.
const qtnUserApproved = 0x0040

// quarantined is one program with the quarantine mark that Gatekeeper may
// refuse to start.
type quarantined struct {
	what, path, agent string
}

// findQuarantined looks for the mark on each program (what → path) on
// goos: only macOS has it. attr reads an extended attribute (ok false
// when the file has none). A mark with the user-approved flag is not
// reported: Gatekeeper lets that file run.
func findQuarantined(goos string, programs [][2]string, attr func(path, name string) (value string, ok bool)) []quarantined {
	if goos != "darwin" {
		return nil
	}
	var found []quarantined
	seen := map[string]bool{}
	for _, p := range programs {
		what, path := p[0], p[1]
		if path == "" || seen[path] {
			continue
		}
		seen[path] = true
		v, ok := attr(path, quarantineAttr)
		if !ok {
			continue
		}
		// "0083;65a1b2c3;Safari;UUID": flags (hex), time, agent, event.
		fields := strings.Split(v, ";")
		if flags, err := strconv.ParseUint(fields[0], 16, 32); err == nil && flags&qtnUserApproved != 0 {
			continue
		}
		agent := ""
		if len(fields) > 2 {
			agent = fields[2]
		}
		found = append(found, quarantined{what: what, path: path, agent: agent})
	}
	return found
}

// reportQuarantine adds a problem, with its fix, for each quarantined
// program doctor knows of: this binary and the CLI.
func reportQuarantine(found []quarantined, problem func(fix, format string, a ...any)) {
	for _, q := range found {
		from := ""
		if q.agent != "" {
			from = fmt.Sprintf(" (downloaded by %s)", q.agent)
		}
		problem(fmt.Sprintf("if you trust it, clear the mark: xattr -d %s %s — or start it once from Finder and choose System Settings → Privacy & Security → Open Anyway", quarantineAttr, annotations.ShellQuote([]string{q.path})),
			"%s %s carries macOS's quarantine mark%s: Gatekeeper may refuse to start it, and a host then only shows the server disconnected", q.what, q.path, from)
	}
}

// selfPath is this binary's file (links followed: the mark is on the file).
func selfPath() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		return real
	}
	return exe
}
