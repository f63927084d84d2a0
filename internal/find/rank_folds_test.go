package find

import (
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/require"
)

// blindFolds are the twelve blind sets (7 to 18) in two folds, fixed
// before any candidate was measured on them (issue 28 item 5, h69): a
// ranking change made from the misses of one fold is measured on the
// other, which it was not made from, then the folds swap. Odd and even
// numbers, so each fold holds old and new writers alike and the misses
// fall about evenly (15 and 13 when the folds were fixed).
var blindFolds = [2][]struct {
	name string
	reqs []rankRequest
}{
	{{"sealed7", heldOutSealed7}, {"sealed9", heldOutSealed9}, {"sealed11", heldOutSealed11}, {"sealed13", heldOutSealed13}, {"sealed15", heldOutSealed15}, {"sealed17", heldOutSealed17}},
	{{"sealed8", heldOutSealed8}, {"sealed10", heldOutSealed10}, {"sealed12", heldOutSealed12}, {"sealed14", heldOutSealed14}, {"sealed16", heldOutSealed16}, {"sealed18", heldOutSealed18}},
}

// TestRank_Folds logs each fold's first-three count (run with -v): the
// numbers a candidate change is compared by, fold against fold. It asserts
// nothing; TestRank_HeldOut holds the floors.
func TestRank_Folds(t *testing.T) {
	m, err := annotations.Load(fullAeatManifest)
	require.NoError(t, err)
	idx := newRankIndex(m.Tools, paraphrasesFor(m.CLI.Command))
	for i, fold := range blindFolds {
		hits, n := 0, 0
		for _, set := range fold {
			// Each set with every other set's examples, as TestRank_HeldOut.
			hits += firstThree(t, idx.withExamples(examplesWithout(set.name)), set.name, set.reqs)
			n += len(set.reqs)
		}
		t.Logf("fold %c: %d of %d in the first three", 'A'+i, hits, n)
	}
}
