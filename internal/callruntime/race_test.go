//go:build race

package callruntime_test

// raceEnabled: the race detector's shadow memory multiplies what a heap
// costs in RSS, so memory bounds in tests allow for it.
const raceEnabled = true
