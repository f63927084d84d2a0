package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPaceGCForConnect: the collector is slowed while a host connects and
// put back as it was by the first call (and a second restore changes
// nothing); a GOGC the person set is left alone.
func TestPaceGCForConnect(t *testing.T) {
	before := debug.SetGCPercent(150)
	defer debug.SetGCPercent(before)

	restore := paceGCForConnect(func(string) bool { return false })
	assert.Equal(t, connectGCPercent, debug.SetGCPercent(connectGCPercent), "while connecting")
	restore()
	assert.Equal(t, 150, debug.SetGCPercent(150), "after the first call")
	debug.SetGCPercent(120)
	restore()
	assert.Equal(t, 120, debug.SetGCPercent(120), "a second restore changes nothing")

	restore = paceGCForConnect(func(name string) bool { return name == "GOGC" })
	assert.Equal(t, 120, debug.SetGCPercent(120), "the person's GOGC")
	restore()
	assert.Equal(t, 120, debug.SetGCPercent(120))
}
