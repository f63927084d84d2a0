package server

import (
	"context"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// A Starter runs a call's process some other way than Config.Runner alone:
// warm start (cli.warm, internal/warm), which forks the calls of the tiers it
// serves from a template under the same runner, and starts the rest — and
// any call it cannot fork — cold.
type Starter interface {
	Serves(tier annotations.Tier) bool
	Run(ctx context.Context, spec callruntime.Spec) (callruntime.Result, error)
}

// start runs a call's process: from the warm template where cli.warm serves
// the tool's tier, cold otherwise. Either way the same runner supervises it.
//
// It starts nothing before the server's start-up work is done (prepare):
// the runner's lifeline and sweeps guard the first call as any other.
func (s *Server) start(ctx context.Context, t *annotations.Tool, spec callruntime.Spec) (callruntime.Result, error) {
	s.prepare()
	select {
	case <-s.prepared:
	case <-ctx.Done():
	}
	if s.cfg.Warm != nil && s.cfg.Warm.Serves(t.Tier()) {
		return s.cfg.Warm.Run(ctx, spec)
	}
	return s.cfg.Runner.Run(ctx, spec)
}
