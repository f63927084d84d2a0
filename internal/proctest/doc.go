// Package proctest is what tests use to tell that processes are gone: one
// rule ([Gone], waited on by [RequireGone]) for the Linux tests of every
// package that spawns trees (callruntime, server, warm), so that a zombie
// means the same everywhere: gone, unless this process is its parent and
// has not reaped it. The macOS and Windows ports of callruntime's and
// warm's tests still check liveness their own way (proc_darwin_test.go,
// proc_windows_test.go, warm's os_darwin_test.go). It is for tests only;
// nothing in the product imports it.
//
// Each OS reads its own process table: Linux /proc, macOS sysctl
// (kern.proc), Windows process handles and a Toolhelp snapshot. Only the
// Linux reader has run here; the others are compiled for their OS and run
// there (the CI workflow's macOS and Windows jobs).
package proctest
