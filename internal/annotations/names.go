package annotations

// Names are checked by hand rather than by regular expression: a counted
// repetition such as {0,63} compiles into a program of that many
// instructions, and the three of them cost about 2,000 allocations and most
// of a millisecond at every start-up, before the host's initialize can be
// answered. The patterns stay the documentation (and the test's oracle).
const (
	toolNamePattern  = `^[a-z0-9_]{1,64}$`
	paramNamePattern = `^[A-Za-z_][A-Za-z0-9_]{0,63}$`
	meaningPattern   = `^[a-z][a-z0-9_]{0,39}$`
)

func lowerOrUnderscore(c byte) bool { return c >= 'a' && c <= 'z' || c == '_' }
func letterOrUnderscore(c byte) bool {
	return lowerOrUnderscore(c) || c >= 'A' && c <= 'Z'
}
func digit(c byte) bool { return c >= '0' && c <= '9' }

// word reports whether s has 1 to max bytes, the first satisfying first and
// every other rest.
func word(s string, max int, first, rest func(byte) bool) bool {
	if len(s) == 0 || len(s) > max || !first(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !rest(s[i]) {
			return false
		}
	}
	return true
}

// validToolName: toolNamePattern.
func validToolName(s string) bool {
	return word(s, 64, func(c byte) bool { return lowerOrUnderscore(c) || digit(c) },
		func(c byte) bool { return lowerOrUnderscore(c) || digit(c) })
}

// validParamName: paramNamePattern.
func validParamName(s string) bool {
	return word(s, 64, letterOrUnderscore, func(c byte) bool { return letterOrUnderscore(c) || digit(c) })
}

// validMeaning: meaningPattern.
func validMeaning(s string) bool {
	return word(s, 40, func(c byte) bool { return c >= 'a' && c <= 'z' },
		func(c byte) bool { return lowerOrUnderscore(c) || digit(c) })
}
