package generate

import (
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
)

func TestHintsFor(t *testing.T) {
	no, yes := false, true
	h := func(ro, d, i, o bool) annotations.Hints {
		return annotations.Hints{ReadOnly: ro, Destructive: d, Idempotent: i, OpenWorld: o}
	}
	for _, tc := range []struct {
		name    string
		c       *Classification
		want    annotations.Hints
		guessed []string
	}{
		{"none: cautious, all guessed", nil, h(false, true, false, true), hintOrder},
		{"a declared read", &Classification{ReadOnly: true, Idempotent: true, RiskDeclared: &yes}, h(true, false, true, false), nil},
		{"a declared local write", &Classification{RiskDeclared: &yes}, h(false, false, false, false), nil},
		{"destructive", &Classification{Destructive: true, RiskDeclared: &yes}, h(false, true, false, false), nil},
		{"handoff: a person confirms", &Classification{Handoff: true, RiskDeclared: &yes}, h(false, true, false, false), nil},
		{"live_write: destructive and open-world", &Classification{LiveWrite: true, RiskDeclared: &yes}, h(false, true, false, true), nil},
		{"open world", &Classification{OpenWorld: true, RiskDeclared: &yes}, h(false, false, false, true), nil},
		{"undeclared risk: destructive, guessed", &Classification{RiskDeclared: &no}, h(false, true, false, false), []string{hintDestructive}},
		{"undeclared risk, open world", &Classification{OpenWorld: true, RiskDeclared: &no}, h(false, true, false, true), []string{hintDestructive}},
		{"undeclared risk on a read: a read", &Classification{ReadOnly: true, Idempotent: true, RiskDeclared: &no}, h(true, false, true, false), nil},
		{"no risk_declared key: the tree's word stands", &Classification{}, h(false, false, false, false), nil},
		{"read-only and destructive: destructive wins", &Classification{ReadOnly: true, Idempotent: true, Destructive: true}, h(false, true, false, false), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, guessed := hintsFor(tc.c)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.guessed, guessed)
			if tc.c != nil {
				assert.Empty(t, weaker(got, classified(tc.c)), "never weaker than the classification")
			}
		})
	}
}

func TestWeaker(t *testing.T) {
	floor := annotations.Hints{Destructive: true, OpenWorld: true}
	assert.Empty(t, weaker(floor, floor))
	assert.Equal(t, []string{hintReadOnly, hintDestructive, hintIdempotent, hintOpenWorld},
		weaker(annotations.Hints{ReadOnly: true, Idempotent: true}, floor))
	assert.Empty(t, weaker(cautiousHints, annotations.Hints{ReadOnly: true, Idempotent: true}), "the cautious hints are weaker than nothing")
}
