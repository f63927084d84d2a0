// Package nonce makes the server's unguessable identifiers: run ids, task
// ids, confirmation questions and their tickets. One home, so that every
// identifier a client could try to guess comes from crypto/rand. It does
// not remember what it issued; the caller keeps its own table.
package nonce

import (
	"crypto/rand"
	"encoding/hex"
)

// New is prefix followed by n random bytes as 2n hex digits: New("r-", 8)
// is "r-" and 16 hex digits.
func New(prefix string, n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return prefix + hex.EncodeToString(b)
}
