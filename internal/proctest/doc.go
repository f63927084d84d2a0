// Package proctest is what tests use to tell that processes are gone: one
// rule for every package that spawns trees (callruntime, server, warm), so
// that a zombie means the same everywhere. It is for tests only; nothing in
// the product imports it.
//
// Each OS reads its own process table: Linux /proc, macOS sysctl
// (kern.proc), Windows process handles and a Toolhelp snapshot. Only the
// Linux reader has run here; the others are compiled for their OS and run
// there (the CI workflow's macOS and Windows jobs).
package proctest
