//go:build !linux

package server

// armParentDeathSignal: only Linux offers a parent-death signal; the poll
// in watchParent covers the rest.
func armParentDeathSignal() {}
