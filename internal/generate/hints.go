package generate

import (
	"slices"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// Hint names as a manifest writes them.
const (
	hintReadOnly    = "readOnlyHint"
	hintDestructive = "destructiveHint"
	hintIdempotent  = "idempotentHint"
	hintOpenWorld   = "openWorldHint"
)

var hintOrder = annotations.HintNames

// cautiousHints are what a verb the CLI says nothing about gets: it may
// write (not read-only), destroy (so a person confirms each call), repeat
// badly (not idempotent) and reach the outside world (LIVE: the longest
// ceiling).
var cautiousHints = annotations.Hints{ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: true}

// classified is what the CLI's own classification says of a verb's hints,
// and nothing more: the floor a generated (or overridden) tool must not go
// below.
func classified(c *Classification) annotations.Hints {
	destructive := c.Destructive || c.Handoff || c.LiveWrite
	return annotations.Hints{
		ReadOnly:    c.ReadOnly && !destructive,
		Destructive: destructive,
		Idempotent:  c.Idempotent && !destructive,
		OpenWorld:   c.OpenWorld || c.LiveWrite,
	}
}

// hintsFor chooses a verb's hints, never weaker than the CLI's own
// classification, and names those guessed:
//
//   - no classification: [cautiousHints], all four guessed;
//   - destructive, handoff (a filing-grade output a person confirms — the
//     CLI's own MCP asks first) or live_write: destructive, so a person
//     confirms; live_write also open-world;
//   - risk_declared false (the CLI says it defaulted the judgment axes
//     rather than assessed them) on a verb that is not read-only:
//     destructive, guessed — the CLI's own advice is that a consumer that
//     must not act on an assumption refuses on that flag;
//   - read-only and idempotent only where the CLI says so.
func hintsFor(c *Classification) (h annotations.Hints, guessed []string) {
	if c == nil {
		return cautiousHints, slices.Clone(hintOrder)
	}
	h = classified(c)
	if !h.ReadOnly && !h.Destructive && c.RiskDeclared != nil && !*c.RiskDeclared {
		h.Destructive, h.Idempotent = true, false
		guessed = []string{hintDestructive}
	}
	return h, guessed
}

// weaker names the hints of h that promise more than floor allows: read-only
// or idempotent where floor is not, not destructive or not open-world where
// floor is.
func weaker(h, floor annotations.Hints) []string {
	var out []string
	if h.ReadOnly && !floor.ReadOnly {
		out = append(out, hintReadOnly)
	}
	if !h.Destructive && floor.Destructive {
		out = append(out, hintDestructive)
	}
	if h.Idempotent && !floor.Idempotent {
		out = append(out, hintIdempotent)
	}
	if !h.OpenWorld && floor.OpenWorld {
		out = append(out, hintOpenWorld)
	}
	return out
}

// hintsJSON is h as a manifest's annotations object.
func hintsJSON(h annotations.Hints) map[string]any {
	return map[string]any{
		hintReadOnly: h.ReadOnly, hintDestructive: h.Destructive,
		hintIdempotent: h.Idempotent, hintOpenWorld: h.OpenWorld,
	}
}

// hintsOf reads an annotations object back (missing hints are false).
func hintsOf(v any) annotations.Hints {
	m, _ := v.(map[string]any)
	b := func(k string) bool { x, _ := m[k].(bool); return x }
	return annotations.Hints{ReadOnly: b(hintReadOnly), Destructive: b(hintDestructive),
		Idempotent: b(hintIdempotent), OpenWorld: b(hintOpenWorld)}
}
