package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSoftMemoryLimit(t *testing.T) {
	assert.Zero(t, SoftMemoryLimit(Config{MaxResultBytes: DefaultMaxResultBytes}), "ordinary results: the runtime's default")
	assert.Equal(t, int64(96<<20), SoftMemoryLimit(Config{MaxResultBytes: 8 << 20}))
	assert.Equal(t, int64(320<<20), SoftMemoryLimit(Config{MaxResultBytes: 64 << 20}))
}
