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
// direction overrides that make text read differently from what it is.

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

// needsCleaning is the fast path: most output has nothing to remove.
func needsCleaning(s string, oneLine bool) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n' || c == '\t':
			if oneLine {
				return true
			}
		case c < 0x20 || c == 0x7f:
			return true
		case c == 0xc2 || c == 0xe2: // C1 controls; direction marks
			return true
		}
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

// hidden reports the characters that are dropped: C1 controls and the
// bidirectional embedding, override and isolate controls.
func hidden(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
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
