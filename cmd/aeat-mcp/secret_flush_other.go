//go:build !linux && !darwin && !windows

package main

// discardInput does nothing where aeat-mcp is not built for release.
func discardInput(int) {}
