package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFindQuarantined: on macOS a downloaded binary or CLI that still
// carries the quarantine mark is a problem with its fix; one a person
// approved ("Open Anyway") is not, nor is anything elsewhere.
func TestFindQuarantined(t *testing.T) {
	// The attributes as macOS writes them (flags;time;agent;event).
	attrs := map[string]string{
		"/Users/me/Downloads/aeat-mcp": "0083;674f1a2b;Safari;0B1E9A6C-0A4B-4F66-9E0E-6C1D0B5D2E11",
		"/Users/me/bin/approved":       "00c3;674f1a2b;Safari;0B1E9A6C-0A4B-4F66-9E0E-6C1D0B5D2E12",
		"/Users/me/bin/odd":            "garbage",
	}
	attr := func(path, name string) (string, bool) {
		assert.Equal(t, "com.apple.quarantine", name)
		v, ok := attrs[path]
		return v, ok
	}
	programs := [][2]string{
		{"aeat-mcp", "/Users/me/Downloads/aeat-mcp"},
		{"the CLI", "/Users/me/.local/bin/aeat"},
		{"the CLI", "/Users/me/bin/approved"},
		{"the CLI", "/Users/me/bin/odd"},
		{"the CLI", ""},
	}
	found := findQuarantined("darwin", programs, attr)
	assert.Equal(t, []quarantined{
		{what: "aeat-mcp", path: "/Users/me/Downloads/aeat-mcp", agent: "Safari"},
		{what: "the CLI", path: "/Users/me/bin/odd"},
	}, found)
	for _, goos := range []string{"linux", "windows"} {
		assert.Empty(t, findQuarantined(goos, programs, attr), goos)
	}

	var out strings.Builder
	reportQuarantine(found[:1], func(fix, format string, a ...any) {
		fmt.Fprintf(&out, format+"\nfix: %s\n", append(a, fix)...)
	})
	assert.Contains(t, out.String(), "aeat-mcp /Users/me/Downloads/aeat-mcp carries macOS's quarantine mark (downloaded by Safari)")
	assert.Contains(t, out.String(), "fix: if you trust it, clear the mark: xattr -d com.apple.quarantine /Users/me/Downloads/aeat-mcp")
	assert.Contains(t, out.String(), "Open Anyway")
}
