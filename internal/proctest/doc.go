// Package proctest is what tests use to tell that processes are gone: one
// rule for every package that spawns trees (callruntime, server, warm), so
// that a zombie means the same everywhere. It is for tests only; nothing in
// the product imports it.
//
// Its helpers read /proc: they are built on Linux only, as are the tests
// that use them.
package proctest
