package server

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from the CLI goes to a host that may print it in a terminal (Claude
// Code shows progress messages as they come) or to a model. Neither must get
// terminal control sequences — a title change, an OSC 8 hyperlink, a cursor
// move, a carriage return that hides what came before — nor the Unicode
// direction overrides that make text read differently from what it is, nor
// the invisible characters that hide text from the person reading along
// while a model reads it: zero-width spaces and joiners, tag characters
// (U+E0000 …, "ASCII smuggling"), variation selectors (data smuggled in
// emoji), the Hangul fillers.

// cleanText removes control sequences and control characters from result
// text, keeping newlines and tabs. A carriage return becomes a newline
// (unless one follows), so progress bars read as lines.
func cleanText(s string) string {
	if !needsCleaning(s, false) {
		return s
	}
	return clean(s, false)
}

// cleanLine is cleanText for one line of a progress message: newlines and
// tabs become spaces too.
func cleanLine(s string) string {
	if !needsCleaning(s, true) {
		return s
	}
	return clean(s, true)
}

// needsCleaning is the fast path: most output has nothing to remove, and
// is then not copied.
func needsCleaning(s string, oneLine bool) bool {
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '\n' || c == '\t':
			if oneLine {
				return true
			}
		case c < 0x20 || c == 0x7f:
			return true
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s[i:])
			if hidden(r) {
				return true
			}
			i += n
			continue
		}
		i++
	}
	return false
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
		if r == 0x9b { // C1 CSI, the one-byte form of ESC [
			i = skipCSI(s, i+n)
			continue
		}
		if !hidden(r) {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// hidden reports the characters that are dropped: C1 controls, and every
// character that is not shown — the format characters (category Cf: the
// bidirectional embedding, override, isolate and marks; zero-width space,
// joiners, word joiner, BOM; soft hyphen; tag characters), the variation
// selectors and the other default-ignorable code points (Hangul fillers,
// combining grapheme joiner).
func hidden(r rune) bool {
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

// hasWords reports whether s has a letter or a digit: a line without any
// ("}", "—", "]") says nothing to a person watching progress.
func hasWords(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}
