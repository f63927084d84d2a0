// Package trampoline is the hold of a call's program where clone3 is
// refused (callruntime's held start, held_linux.go): this binary,
// re-executed, waits for a go byte and then executes the program in
// place. Linux only: the hold is for cgroups.
//
// It is a package of its own, importing only syscall, so that its init —
// which turns a process started as a trampoline into one before main —
// runs among the first of the binary's: package initialization follows
// import order, and a package that waits for few others runs early. The
// trampoline runs once per held call; the inits it skips (every other
// package of the server) are most of what re-executing the binary costs.
package trampoline
