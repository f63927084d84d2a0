//go:build !aeatmcp_testkeychain

package keychain

// testStore is nil in every ordinary build: no environment variable can
// point a released binary at anything but the OS keychain.
func testStore() Store { return nil }
