package warm

import "time"

// SetCheckEvery sets how often the CLI's files are looked at; tests look at
// every call.
func SetCheckEvery(d time.Duration) (restore func()) {
	old := checkEvery
	checkEvery = d
	return func() { checkEvery = old }
}
