//go:build !linux && !darwin && !windows

package server

// reparents: on other Unix systems an orphan is re-parented to init.
const reparents = true

// watchParentExit: no prompt mechanism here; the getppid poll covers it.
func watchParentExit(int, func()) (stop func()) { return func() {} }
