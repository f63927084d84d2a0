//go:build unix

package warm

import (
	"os"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// takeBerth takes the template's berth for a call's tree; nil when it has
// none.
func (t *template) takeBerth() *callruntime.Berth {
	if t == nil {
		return nil
	}
	t.sendMu.Lock()
	defer t.sendMu.Unlock()
	b := t.berth
	t.berth = nil
	return b
}

// settleBerths, once the call's Run is over: bs.took, if the call did not
// take it, goes back to the template unless it was sent another since;
// bs.replaced is released.
func (t *template) settleBerths(bs *berths) {
	bs.replaced.Release()
	if bs.took.Taken() {
		return
	}
	t.sendMu.Lock()
	if t.berth == nil && t.alive() {
		t.berth, bs.took = bs.took, nil
	}
	t.sendMu.Unlock()
	bs.took.Release()
}

// nextBerth makes the berth a fork request sends and returns its
// directory, for the request; nil sends none, and the template forks its
// spares where it is (each is moved at its call). Either way the request
// replaces the template's berth: the one it replaced is the caller's
// (bs.replaced) to release once its call is over. Under t.sendMu.
func (t *template) nextBerth(bs *berths) *os.File {
	bs.replaced, t.berth = t.berth, nil
	if !t.spare || t.runner == nil || !t.berths {
		return nil
	}
	nb := t.runner.Berth()
	dir := nb.Dir()
	if dir == nil {
		nb.Release()
		return nil
	}
	t.berth = nb
	return dir
}

// dropBerth releases the template's berth, as it ends.
func (t *template) dropBerth() {
	t.sendMu.Lock()
	b := t.berth
	t.berth = nil
	t.sendMu.Unlock()
	b.Release()
}
