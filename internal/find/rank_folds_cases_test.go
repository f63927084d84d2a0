package find

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRank_OnItsOwnIsAutomatic: a thing done "on its own" or "on their
// own" is done automatically — a classification rule, which
// "auto-classifies matching transactions" (issue 28 item 5, h69). The one
// change of the cross-validation by set (rank_folds_test.go) that held on
// the fold it was not made from: made from set 17's "file those as
// supplies on its own", it found set 18's "categorised on their own from
// now on", and the other way round. The wordings here are in no set.
func TestRank_OnItsOwnIsAutomatic(t *testing.T) {
	assert.Contains(t, words("can these be filed on its own?"), "automatically")
	assert.Contains(t, words("sorted on their own every month"), "automatically")
	idx := fullAeatIndex(t)
	q := "can the bank charges from my landlord be classified on their own?"
	assert.Equal(t, "app_ledger_rule_add", rankNames(idx.rank(q), 1)[0], "%q: %v", q, rankNames(idx.rank(q), 3))
	// Not first: classify says "classify" itself and a category's name.
	q = "the Repsol fuel charges should go to motoring on their own"
	assert.Contains(t, rankNames(idx.rank(q), 3), "app_ledger_rule_add", "%q", q)
}
