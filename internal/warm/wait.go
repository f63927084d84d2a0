package warm

import (
	"slices"
	"time"
)

// A call that finds no template serving waits for the one being started
// when it will serve sooner than a cold run of the call would end: the
// call then costs the rest of the template's start-up and a fork, not an
// interpreter's start-up and the CLI's imports. The template's start is
// foreseen from the last start of the same configuration on this machine
// (its Verdict), then from its progress: once it has imported the CLI only
// the verify calls remain, and the cold one is timed as it runs.

// estimates are what the Pool has seen of cold runs and template starts.
// Under Pool.mu.
type estimates struct {
	colds []time.Duration // the last cold runs that exited, oldest first
	// savedCold and savedReady come from the last Verdict of the same
	// configuration here: a cold run, and a template's start to serving.
	savedCold, savedReady time.Duration
	// readyAt is when the template being started is foreseen to serve;
	// zero when that cannot be foreseen.
	readyAt time.Time
	// coldVerify is when the cold verify run in progress began; zero when
	// none runs.
	coldVerify time.Time
	// warmVerify is how long the last template's warm verify runs took.
	warmVerify time.Duration
}

// keptColds is how many cold runs the estimate is the median of.
const keptColds = 9

// remember takes a Verdict's measurements as a start.
func (e *estimates) remember(v Verdict) {
	e.savedCold = time.Duration(v.ColdMS) * time.Millisecond
	e.savedReady = time.Duration(v.ReadyMS) * time.Millisecond
}

// cold records a cold run that exited.
func (e *estimates) cold(d time.Duration) {
	e.colds = append(e.colds, d)
	if len(e.colds) > keptColds {
		e.colds = e.colds[1:]
	}
}

// coldRun is how long a cold run is expected to take, 0 if nothing says:
// the median of the last ones, else the Verdict's, else — while the cold
// verify run goes on — at least as long as it has run so far.
func (e *estimates) coldRun(now time.Time) time.Duration {
	switch {
	case len(e.colds) > 0:
		s := slices.Clone(e.colds)
		slices.Sort(s)
		return s[len(s)/2]
	case e.savedCold > 0:
		return e.savedCold
	case !e.coldVerify.IsZero():
		return now.Sub(e.coldVerify)
	}
	return 0
}

// saved are the measurements a Verdict keeps for the next server, in ms.
func (e *estimates) saved() (readyMS, coldMS int64) {
	return e.savedReady.Milliseconds(), e.coldRun(time.Time{}).Milliseconds()
}

// launching foresees a template start that began at began.
func (e *estimates) launching(began time.Time) {
	e.readyAt = time.Time{}
	if e.savedReady > 0 {
		e.readyAt = began.Add(e.savedReady)
	}
}

// imported foresees the rest of a template's start once it has imported
// the CLI: the cold verify run's end (foreseen from its start and a cold
// run's length), then the warm verify runs.
func (e *estimates) imported(now time.Time) {
	from := now
	if !e.coldVerify.IsZero() {
		if end := e.coldVerify.Add(e.coldRun(now)); end.After(from) {
			from = end
		}
	}
	e.readyAt = from.Add(e.warmVerify)
}

// worthWaiting says whether a call that finds no template serving should
// wait for the one being started, and until when: while it is foreseen to
// serve before a cold run started now would end. What the call has waited
// already is spent either way, so it is not weighed; but a template later
// than foreseen by as long as a cold run is given up on (a call then ends
// at worst as late as three cold runs would). Under p.mu.
func (p *Pool) worthWaiting(now time.Time) (until time.Time, ok bool) {
	if !p.launching || p.closed || p.state == Off || p.yield.holding() {
		// A template held for a call (yield.go) serves after that call
		// at the soonest: this one starts cold too.
		return time.Time{}, false
	}
	cold := p.est.coldRun(now)
	ready := p.est.readyAt
	if cold <= 0 || ready.IsZero() || !ready.Before(now.Add(cold)) {
		return time.Time{}, false
	}
	until = ready.Add(cold)
	return until, now.Before(until)
}
