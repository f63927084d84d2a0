package proctest

import (
	"os"
	"os/exec"
	"strings"
)

// PrivateCache points this test process — and every aeat-mcp it starts
// with its environment — at a user cache directory of its own, so that the
// manifest cache files a test run writes (one per manifest path, and tests
// write manifests to temporary paths) do not pile up in the user's
// ~/.cache. Go's build cache stays where it was (GOCACHE, read before
// XDG_CACHE_HOME changes), so builds a test runs are not cold. A test that
// builds its child's environment from scratch passes XDG_CACHE_HOME on
// ([CacheEnv]). Call it at the start of TestMain and the returned function
// at its end.
func PrivateCache() (remove func()) {
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		if gocache := strings.TrimSpace(string(out)); gocache != "" && gocache != "off" {
			os.Setenv("GOCACHE", gocache)
		}
	}
	dir, err := os.MkdirTemp("", "aeat-mcp-test-cache")
	if err != nil {
		return func() {}
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	return func() { os.RemoveAll(dir) }
}

// CacheEnv is the XDG_CACHE_HOME entry of this process's environment, for
// a child's environment built from scratch ("" when none is set).
func CacheEnv() string { return "XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME") }
