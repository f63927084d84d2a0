package server

import (
	"context"
	"errors"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Starter runs a call's process some other way than Config.Runner alone:
// warm start (cli.warm, internal/warm), which forks the calls of the tiers it
// serves from a template under the same runner, and starts the rest — and
// any call it cannot fork — cold.
//
// A call it lost — the process died of the Starter's doing, not the CLI's
// (a warm template that died under it) — is an error that has a Lost method
// returning how the call was seen to end (internal/warm's LostError).
type Starter interface {
	Serves(tier annotations.Tier) bool
	Run(ctx context.Context, spec callruntime.Spec) (callruntime.Result, error)
}

// A yielder is a Starter whose own work — warm start's template starting,
// its verify runs — yields the CPU to the calls it does not run itself, as
// to its own (internal/warm, yield.go): Yield marks one running until end.
type yielder interface {
	Yield() (end func())
}

// cold runs spec cold, with the Starter's own work yielding to it.
func (s *Server) cold(ctx context.Context, spec callruntime.Spec) (callruntime.Result, error) {
	if y, ok := s.cfg.Warm.(yielder); ok {
		defer y.Yield()()
	}
	return s.cfg.Runner.Run(ctx, spec)
}

// lostCall is a Starter's error for a call it lost.
type lostCall interface {
	error
	Lost() callruntime.Result
}

// start runs a call's process: from the warm template where cli.warm serves
// the tool's tier, cold otherwise. Either way the same runner supervises it.
// A warm call lost to warm start runs again cold when the tool only reads
// (nothing it did can be half done); otherwise the loss is the server's
// fault, retryable (lostResult).
//
// It starts nothing before the server's start-up work is done (prepare):
// the runner's lifeline and sweeps guard the first call as any other.
func (s *Server) start(ctx context.Context, t *annotations.Tool, spec callruntime.Spec) (callruntime.Result, error) {
	s.prepare()
	select {
	case <-s.prepared:
	case <-ctx.Done():
	}
	if s.cfg.Warm == nil || !s.cfg.Warm.Serves(t.Tier()) {
		return s.cold(ctx, spec)
	}
	res, err := s.cfg.Warm.Run(ctx, spec)
	var lost lostCall
	if errors.As(err, &lost) && t.Tier() == annotations.Read {
		s.cfg.Logger.Warn("a warm call was lost to warm start; it only reads, so it runs again, cold", "tool", t.Name, "why", err.Error())
		return s.cold(ctx, spec)
	}
	return res, err
}

// lostResult is the result of a call a Starter lost and that was not run
// again: the server's fault, not the CLI's, and retryable — with the
// warning a timeout gives that a tool that changes state may have done so
// in part.
func (w *work) lostResult(lost lostCall) *mcp.CallToolResult {
	r := lost.Lost()
	dead := r.TreeDead
	w.o.TreeDead = &dead
	w.o.Retryable = true
	p := w.s.cfg.Printer
	text := p.Sprintf(i18n.WarmLost, w.t.Name, lost.Error())
	if !w.t.Hints.ReadOnly {
		text += p.Sprintf(i18n.TimeoutMayBeHalf)
	}
	return w.finish(CodeInternal, text, nil)
}
