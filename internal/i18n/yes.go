package i18n

import (
	"strings"

	"golang.org/x/text/language"
)

// yesWords are the answers that mean yes to a terminal's "[y/N]", per
// language. A person may answer in any of them, whatever language the
// messages are in: the question shows "y", but "sí" or "bai" must not be
// taken for a no.
var yesWords = map[language.Tag][]string{
	language.English: {"y", "yes"},
	language.Spanish: {"s", "sí", "si"},
	language.Catalan: {"s", "sí", "si"},
	Galician:         {"s", "si", "sí"},
	Basque:           {"bai"},
}

// IsYes reports whether a person's answer to a yes/no question is a yes,
// in any language offered (spaces and case do not count).
func IsYes(answer string) bool {
	a := strings.ToLower(strings.TrimSpace(answer))
	for _, words := range yesWords {
		for _, w := range words {
			if a == w {
				return true
			}
		}
	}
	return false
}
