package annotations

import (
	"regexp"
	"strings"
	"testing"
)

// TestNames holds the hand-written name checks to the patterns they stand
// for, on every short string over a telling alphabet and on the lengths
// around each bound.
func TestNames(t *testing.T) {
	checks := []struct {
		pattern string
		valid   func(string) bool
	}{{toolNamePattern, validToolName}, {paramNamePattern, validParamName}, {meaningPattern, validMeaning}}
	alphabet := []string{"a", "z", "A", "Z", "0", "9", "_", "-", " ", "é", "\x00", "\n"}
	var inputs []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		inputs = append(inputs, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(prefix+c, n-1)
		}
	}
	grow("", 3)
	for _, n := range []int{38, 39, 40, 41, 62, 63, 64, 65} {
		inputs = append(inputs, strings.Repeat("a", n), "A"+strings.Repeat("b", n-1), "a"+strings.Repeat("-", n-1))
	}
	for _, c := range checks {
		re := regexp.MustCompile(c.pattern)
		for _, s := range inputs {
			if got, want := c.valid(s), re.MatchString(s); got != want {
				t.Errorf("%s on %q: %v, the pattern says %v", c.pattern, s, got, want)
			}
		}
	}
}
