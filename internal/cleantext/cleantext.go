// Package cleantext says what in a text is not text: terminal control
// sequences, control characters, and the characters a reader does not see.
// It is the one home of that rule: the server cleans a CLI's output with
// it, generate cleans the help texts it copies into a manifest, and the
// manifest loader refuses a title or description that holds any of it.
//
// Text goes to a host that may print it in a terminal (Claude Code shows
// progress messages as they come) or to a model. Neither must get terminal
// control sequences — a title change, an OSC 8 hyperlink, a cursor move, a
// clear-screen, a carriage return that hides what came before — nor the
// Unicode direction overrides that make text read differently from what it
// is, nor the invisible characters that hide text from the person reading
// along while a model reads it: zero-width spaces and joiners, tag
// characters (U+E0000 …, "ASCII smuggling"), variation selectors (data
// smuggled in emoji), the Hangul fillers.
//
// It knows nothing of where the text comes from or goes.
package cleantext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text removes control sequences and control characters, keeping newlines
// and tabs; a byte that is not UTF-8 becomes U+FFFD. A carriage return becomes a newline (unless one follows), so
// progress bars read as lines. Text with nothing to remove is returned as
// it is, not copied.
func Text(s string) string {
	if First(s) < 0 {
		return s
	}
	return clean(s, false)
}

// Line is [Text] for one line (a progress message): newlines and tabs
// become spaces too.
func Line(s string) string {
	if first(s, true) < 0 {
		return s
	}
	return clean(s, true)
}

// First is the byte offset of the first thing [Text] would remove or
// change in s, or -1 when s is clean text.
func First(s string) int { return first(s, false) }

// Describe names what starts at s[i] (an offset [First] returned), for a
// person to find and remove it: `an escape sequence "\x1b]8;;http://x\a"`,
// `U+202E (RIGHT-TO-LEFT OVERRIDE class: format character)`.
func Describe(s string, i int) string {
	if i < 0 || i >= len(s) {
		return "nothing"
	}
	switch c := s[i]; {
	case c == 0x1b:
		seq := s[i:skipEscape(s, i)]
		if len(seq) > 24 {
			seq = seq[:24] + "…"
		}
		return fmt.Sprintf("a terminal escape sequence %q", seq)
	case c == '\r':
		return "a carriage return (\\r)"
	case c < 0x20 || c == 0x7f:
		return fmt.Sprintf("the control character %U", rune(c))
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError:
		return "a byte that is not UTF-8"
	case r <= 0x9f:
		return fmt.Sprintf("the C1 control character %U", r)
	case unicode.In(r, unicode.Bidi_Control):
		return fmt.Sprintf("the direction control %U (text reads differently from what it is)", r)
	}
	return fmt.Sprintf("the invisible character %U", r)
}

// first is the offset of the first byte that needs cleaning; oneLine
// counts newlines and tabs too.
func first(s string, oneLine bool) int {
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '\n' || c == '\t':
			if oneLine {
				return i
			}
		case c < 0x20 || c == 0x7f:
			return i
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s[i:])
			if Hidden(r) || r == utf8.RuneError && n == 1 {
				return i
			}
			i += n
			continue
		}
		i++
	}
	return -1
}

func clean(s string, oneLine bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b: // ESC: skip the whole sequence
			i = skipEscape(s, i)
			continue
		case c == '\r':
			if oneLine {
				b.WriteByte(' ')
			} else if i+1 >= len(s) || s[i+1] != '\n' {
				b.WriteByte('\n')
			}
			i++
			continue
		case c == '\n' || c == '\t':
			if oneLine {
				b.WriteByte(' ')
			} else {
				b.WriteByte(c)
			}
			i++
			continue
		case c < 0x20 || c == 0x7f:
			i++
			continue
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x9b: // C1 CSI, the one-byte form of ESC [
			i = skipCSI(s, i+n)
			continue
		case r == utf8.RuneError && n == 1:
			// Not UTF-8: replaced, so that removing a control byte in the
			// middle cannot join the bytes around it into a hidden character.
			b.WriteRune(utf8.RuneError)
		case !Hidden(r):
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Hidden reports the characters that are dropped: C1 controls, and every
// character that is not shown — the format characters (category Cf: the
// bidirectional embedding, override, isolate and marks; zero-width space,
// joiners, word joiner, BOM; soft hyphen; tag characters), the variation
// selectors and the other default-ignorable code points (Hangul fillers,
// combining grapheme joiner).
func Hidden(r rune) bool {
	switch {
	case r < 0x80:
		return false
	case r <= 0x9f:
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// skipEscape returns the index after the escape sequence starting at s[i]
// (ESC): CSI (ESC [ … final byte), OSC, DCS, SOS, PM and APC strings (ended
// by BEL or ESC \), or ESC and one more character.
func skipEscape(s string, i int) int {
	i++ // ESC
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		for j := i + 1; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return i + n
}

// skipCSI skips parameter and intermediate bytes and the final byte.
func skipCSI(s string, i int) int {
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		case c < 0x20 || c > 0x7e: // not a CSI byte: the sequence was cut
			return i
		}
	}
	return i
}
