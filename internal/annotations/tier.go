package annotations

import "time"

// Tier is the timeout class of a tool, derived from its hints.
type Tier string

const (
	// Live: open-world — the portal, a browser — read or write.
	Live Tier = "live"
	// Mutate: a local state change.
	Mutate Tier = "mutate"
	// Read: a local read.
	Read Tier = "read"
)

// Default ceilings of each tier (docs/manifest.md, "A tool": the tier).
const (
	DefaultReadTimeout   = 45 * time.Second
	DefaultMutateTimeout = 180 * time.Second
	DefaultLiveTimeout   = 420 * time.Second
)

// Tier chooses the tool's tier: open-world is LIVE whether it reads or
// writes (a portal read can be as slow as a portal write); a local read is
// READ; anything else is MUTATE.
func (t *Tool) Tier() Tier {
	switch {
	case t.Hints.OpenWorld:
		return Live
	case t.Hints.ReadOnly:
		return Read
	default:
		return Mutate
	}
}

// Ceilings are the per-tier timeouts a server runs with.
type Ceilings struct {
	Read, Mutate, Live time.Duration
}

// DefaultCeilings are the ceilings docs/manifest.md names ("A tool").
var DefaultCeilings = Ceilings{Read: DefaultReadTimeout, Mutate: DefaultMutateTimeout, Live: DefaultLiveTimeout}

// For returns the ceiling of tier.
func (c Ceilings) For(tier Tier) time.Duration {
	switch tier {
	case Read:
		return c.Read
	case Mutate:
		return c.Mutate
	default:
		return c.Live
	}
}

// Ceiling is how long a call of the tool may take: its own timeout if the
// manifest gives one, else its tier's.
func (t *Tool) Ceiling(c Ceilings) time.Duration {
	if t.Timeout > 0 {
		return t.Timeout
	}
	return c.For(t.Tier())
}
