//go:build !race

package callruntime_test

const raceEnabled = false
