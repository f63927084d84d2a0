package server

import (
	"strconv"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/stretchr/testify/assert"
)

func TestHasWords(t *testing.T) {
	for in, want := range map[string]bool{"}": false, "—": false, "  ],": false, "": false, "a": true, "7": true, "ñ": true, "— }": false} {
		assert.Equal(t, want, hasWords(in), "%q", in)
	}
}

// TestFitOutput: the marker counts exactly the bytes of the stream not
// shown, whether the capture, the budget, or both left them out; text that
// fits is whole.
func TestFitOutput(t *testing.T) {
	marker := func(n int64) string { return "[" + itoa(n) + "]" }
	stream := strings.Repeat("0123456789", 20000) // 200,000 bytes
	captured := func(cap int) callruntime.Output {
		o := callruntime.Output{Total: int64(len(stream))}
		o.Head = []byte(stream[:cap-cap/2])
		o.Tail = []byte(stream[len(stream)-cap/2:])
		return o
	}
	shown := func(s string) int64 {
		i, j := strings.IndexByte(s, '['), strings.IndexByte(s, ']')
		return int64(len(s) - (j + 1 - i))
	}
	omitted := func(s string) string {
		i, j := strings.IndexByte(s, '['), strings.IndexByte(s, ']')
		return s[i+1 : j]
	}
	for _, tc := range []struct {
		name   string
		o      callruntime.Output
		budget int
	}{
		{"capture cut, fits budget", captured(1000), 2000},
		{"capture cut, budget cuts more", captured(64 << 10), 10 << 10},
		{"whole but over budget", callruntime.Output{Head: []byte(stream[:50000]), Tail: []byte(stream[50000:60000]), Total: 60000}, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fitOutput(tc.o, tc.budget, marker)
			assert.LessOrEqual(t, len(got), tc.budget)
			assert.Equal(t, itoa(tc.o.Total-shown(got)), omitted(got), "the marker counts what is not shown")
			assert.True(t, strings.HasPrefix(stream, got[:strings.IndexByte(got, '[')]), "the start is the stream's start")
		})
	}
	whole := callruntime.Output{Head: []byte("abc"), Tail: []byte("def"), Total: 6}
	assert.Equal(t, "abcdef", fitOutput(whole, 6, marker))
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
