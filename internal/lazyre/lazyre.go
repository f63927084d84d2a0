// Package lazyre holds a package's regular expressions compiled at their
// first use instead of at package init.
//
// Every package init of the binary runs before main, so before the server
// can answer a host's initialize: a regexp.MustCompile at package level is
// paid by every start, also by the commands and surfaces that never match
// it (generate's help parsers alone were half a millisecond). It does not
// make a pattern cheaper, and a pattern that does not compile panics at
// its first use rather than at init: each package's tests compile all of
// theirs (see [Compiled]).
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled once, at the first call.
type Regexp func() *regexp.Regexp

// New is pattern, compiled at the first call of the result; it panics
// there if pattern does not compile, as regexp.MustCompile does.
func New(pattern string) Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// Compiled compiles each of res now; tests call it so that a pattern that
// does not compile fails the package's tests, as it did at init.
func Compiled(res ...Regexp) {
	for _, re := range res {
		re()
	}
}
