package server

import (
	"context"
	"errors"
	"io"
	"os"
	"time"
)

// Serve runs s over the hardened stdio transport on in and out until the
// host closes in, ctx ends (the caller wires SIGTERM and SIGINT to it), or
// the process's parent goes away. Whichever comes first, every call in
// flight has its tree killed and returns before Serve does.
func Serve(ctx context.Context, s *Server, in io.Reader, out io.Writer) error {
	// stdin EOF: the host is gone or done. Calls in flight are stopped;
	// the SDK then ends Run by itself once their results are written.
	t := &StdioTransport{In: in, Out: out, OnEOF: s.Shutdown, Logger: s.cfg.Logger}

	// A signal or a dead parent leaves stdin open, so Run must be ended
	// too — after the calls: the SDK's Run does not cancel handlers when
	// its ctx ends, it waits for them.
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopAll := func() { s.Shutdown(); cancel() }
	defer context.AfterFunc(ctx, stopAll)()
	go watchParent(s.lifetime, stopAll)

	err := s.mcp.Run(runCtx, t)
	s.Shutdown()
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// parentPoll is how often the parent watchdog looks.
const parentPoll = 500 * time.Millisecond

// watchParent calls gone when this process is re-parented — its host died
// without closing our stdin. On Linux the kernel also sends SIGTERM (see
// parent_linux.go); polling covers every platform.
func watchParent(ctx context.Context, gone func()) {
	parent := os.Getppid()
	armParentDeathSignal()
	if os.Getppid() != parent {
		gone()
		return
	}
	tick := time.NewTicker(parentPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if os.Getppid() != parent {
				gone()
				return
			}
		}
	}
}
