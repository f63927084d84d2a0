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
//
// Nor does holding a pattern cost package init anything: [New] is small
// enough to be inlined, and `var re = lazyre.New(…)` with a constant
// pattern is then a composite literal the compiler lays out in the
// binary's data. (It was a sync.OnceValue, whose closure and state were
// allocated in package init: 28 patterns, 84 allocations at every
// start.) Keep New a single composite literal, or that is lost silently;
// cmd/aeat-mcp's inittrace test holds the packages that use it.
package lazyre

import (
	"regexp"
	"strconv"
	"sync"
)

// Regexp is a regular expression compiled once, at the first [Regexp.Get].
// Its zero value is not usable: make one with [New].
type Regexp struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
	err     error
}

// New is pattern, compiled at the first [Regexp.Get] of the result; Get
// panics there if pattern does not compile, as regexp.MustCompile does.
func New(pattern string) *Regexp {
	return &Regexp{pattern: pattern}
}

// Get is the compiled expression, compiled by the first call. A pattern
// that does not compile panics at every call, as sync.OnceValue's did (a
// sync.Once that panicked is done, and would hand later calls nil).
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re, r.err = regexp.Compile(r.pattern) })
	if r.err != nil {
		panic(`regexp: Compile(` + strconv.Quote(r.pattern) + `): ` + r.err.Error())
	}
	return r.re
}

// Compiled compiles each of res now; tests call it so that a pattern that
// does not compile fails the package's tests, as it did at init.
func Compiled(res ...*Regexp) {
	for _, re := range res {
		re.Get()
	}
}
