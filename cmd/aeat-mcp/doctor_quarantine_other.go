//go:build !darwin

package main

// xattr: only macOS marks downloads with an extended attribute doctor
// reads.
func xattr(string, string) (string, bool) { return "", false }
