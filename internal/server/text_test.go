package server

import (
	"strconv"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/stretchr/testify/assert"
)

func TestCleanText(t *testing.T) {
	tests := []struct{ name, in, text, line string }{
		{"plain", "hola, año 2025\n\tfin", "hola, año 2025\n\tfin", "hola, año 2025  fin"},
		{"colour", "\x1b[31mred\x1b[0m ok", "red ok", "red ok"},
		{"title change (OSC, BEL)", "\x1b]0;pwned\x07text", "text", "text"},
		{"OSC 8 hyperlink (ST)", "\x1b]8;;http://evil/\x1b\\click\x1b]8;;\x1b\\", "click", "click"},
		{"cursor moves", "a\x1b[2K\x1b[1Ab", "ab", "ab"},
		{"carriage return", "10%\r20%\r\n", "10%\n20%\n", "10% 20%  "},
		{"backspace, NUL, bell, DEL", "a\bb\x00c\x07d\x7fe", "abcde", "abcde"},
		{"C1 controls", "a\u009b31mb\u0085c", "abc", "abc"},
		{"bidi overrides", "pay \u202eevil\u202c and \u2066x\u2069", "pay evil and x", "pay evil and x"},
		{"zero-width and invisible", "a\u200bb\u200cc\u200dd\u2060e\ufefff\u00adg\u3164h", "abcdefgh", "abcdefgh"},
		{"tag characters and variation selectors", "ok\U000e0049\U000e0067\U000e006e ❤\ufe0f\U000e0100", "ok ❤", "ok ❤"},
		{"shown characters stay", "año — 2025–2026 ñ ü € 😀", "año — 2025–2026 ñ ü € 😀", "año — 2025–2026 ñ ü € 😀"},
		{"cut escape at the end", "ok\x1b[3", "ok", "ok"},
		{"lone ESC", "a\x1bb", "a", "a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.text, cleanText(tc.in))
			assert.Equal(t, tc.line, cleanLine(tc.in))
		})
	}
}

func FuzzCleanText(f *testing.F) {
	f.Add("\x1b[31mred\x1b]0;t\x07\r\n\u202e")
	f.Add("a\u200bb\ufeff\U000e0041\ufe0f\u3164 año")
	f.Fuzz(func(t *testing.T, in string) {
		for _, out := range []string{cleanText(in), cleanLine(in)} {
			for _, r := range out {
				if r == '\n' || r == '\t' {
					continue
				}
				if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || hidden(r) {
					t.Fatalf("%q left %U in %q", in, r, out)
				}
			}
		}
		assert.NotContains(t, cleanLine(in), "\n")
	})
}

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
