package cleantext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestText(t *testing.T) {
	tests := []struct{ name, in, text, line string }{
		{"plain", "hola, año 2025\n\tfin", "hola, año 2025\n\tfin", "hola, año 2025  fin"},
		{"colour", "\x1b[31mred\x1b[0m ok", "red ok", "red ok"},
		{"title change (OSC, BEL)", "\x1b]0;pwned\x07text", "text", "text"},
		{"OSC 8 hyperlink (ST)", "\x1b]8;;http://evil/\x1b\\click\x1b]8;;\x1b\\", "click", "click"},
		{"clear screen", "\x1b[2J\x1b[Hclean", "clean", "clean"},
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
			assert.Equal(t, tc.text, Text(tc.in))
			assert.Equal(t, tc.line, Line(tc.in))
			assert.Equal(t, tc.text == tc.in, First(tc.in) < 0, "First agrees with Text")
		})
	}
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"see \x1b]8;;https://evil.example/\x07here\x1b]8;;\x07", `a terminal escape sequence "\x1b]8;;https://evil.exampl…"`},
		{"ok\x1b[2J", `a terminal escape sequence "\x1b[2J"`},
		{"pay \u202eevil", "the direction control U+202E (text reads differently from what it is)"},
		{"a\u200bb", "the invisible character U+200B"},
		{"a\rb", `a carriage return (\r)`},
		{"a\bb", "the control character U+0008"},
		{"a\u0085b", "the C1 control character U+0085"},
	} {
		i := First(tc.in)
		assert.GreaterOrEqual(t, i, 0, "%q", tc.in)
		assert.Equal(t, tc.want, Describe(tc.in, i), "%q", tc.in)
	}
	assert.Equal(t, -1, First("año\n\tfin — €"))
}

func FuzzText(f *testing.F) {
	f.Add("\x1b[31mred\x1b]0;t\x07\r\n\u202e")
	f.Add("a\u200bb\ufeff\U000e0041\ufe0f\u3164 año")
	f.Fuzz(func(t *testing.T, in string) {
		for _, out := range []string{Text(in), Line(in)} {
			for _, r := range out {
				if r == '\n' || r == '\t' {
					continue
				}
				if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || Hidden(r) {
					t.Fatalf("%q left %U in %q", in, r, out)
				}
			}
			assert.Equal(t, -1, First(Text(in)), "Text's output is clean text")
		}
		assert.NotContains(t, Line(in), "\n")
		if First(in) < 0 {
			assert.Equal(t, in, Text(in), "clean text is left as it is")
		}
	})
}

// TestText_NoJoinAcrossRemoved: removing a control byte must not join the
// bytes around it into a character the cleaner drops (a tag character
// made of a broken sequence and its tail, found by FuzzText).
func TestText_NoJoinAcrossRemoved(t *testing.T) {
	in := "\xf3\xa0\x7f\x81\x8f0"
	assert.Equal(t, "\ufffd\ufffd\ufffd\ufffd0", Text(in))
}
