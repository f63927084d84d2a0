package server

import "unicode"

// Text from the CLI is cleaned of control sequences and invisible
// characters by package cleantext (the one home of that rule) before a host
// or a model sees it: cleantext.Text for results, cleantext.Line for a
// progress message or a question's command line.

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
