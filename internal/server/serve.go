package server

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"
)

// shutdownWrites bounds how long Serve waits, once the connection is
// closed, for the SDK to let go: a host that no longer reads our stdout must
// not keep the process alive. The calls' trees are killed either way; the
// runner's Close waits for that.
const shutdownWrites = time.Second

// shutdownAnswers bounds how long Serve waits, once told to stop, for the
// answers of the calls it stopped. Hosts send SIGKILL 2 s after SIGTERM: a
// stopped tree gets at most shutdownGrace (1 s), and its answer
// is written well within this.
const shutdownAnswers = 1500 * time.Millisecond

// Serve runs s over the hardened stdio transport on in and out until the
// host closes in, ctx ends (the caller wires SIGTERM and SIGINT to it), or
// the process's parent goes away.
//
// When in ends, the requests already read are answered first: they may run
// for up to Config.Drain, then they are stopped and answered "cancelled".
// When ctx ends or the parent goes, every call in flight is stopped at once
// (its tree gets at most shutdownGrace after SIGTERM) and
// answered "cancelled" — the answers a host still reads are written before
// the connection closes — and Serve returns within about a second, written
// or not. Hosts stop a server by closing its stdin, then SIGTERM 2 s later,
// then SIGKILL 2 s after that: every answer is written on either path.
func Serve(ctx context.Context, s *Server, in io.Reader, out io.Writer) error {
	ended := make(chan struct{})
	t := &StdioTransport{In: in, Out: out, Drain: s.cfg.Drain, OnDrainExpired: s.Shutdown,
		OnEnd: func() { close(ended) }, OnAnswered: s.initialized, Logger: s.cfg.Logger}

	// A signal or a dead parent leaves stdin open, so Run must be ended
	// too — after the calls and their answers: the SDK's Run does not
	// cancel handlers, it waits for them, and it stops writing once its
	// connection ends. Closing the connection ends it the way the input's
	// end does; cancelling its ctx would be logged as an error.
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopping := make(chan struct{})
	var once sync.Once
	stopAll := func() {
		once.Do(func() {
			s.shutdownNow()
			close(stopping)
		})
	}
	defer context.AfterFunc(ctx, stopAll)()
	parent := s.cfg.Parent
	if parent == 0 {
		parent = os.Getppid()
	}
	go watchParent(s.lifetime, parent, stopAll, s.cfg.Logger, s.answered)

	ran := make(chan error, 1)
	go func() { ran <- s.mcp.Run(runCtx, s.transport(t)) }()
	var err error
	select {
	case err = <-ran:
	case <-ended:
		// The input ended and its answers were written (or could not be):
		// only a handler stuck writing to a host that stopped reading can
		// still hold Run.
		s.Shutdown()
		err = waitBounded(ran, s)
	case <-stopping:
		t.EndStreams()
		if !t.WaitAnswered(shutdownAnswers) {
			s.cfg.Logger.Warn("stopping with answers owed: the host is not reading, or calls did not stop in time")
		}
		t.Close()
		err = waitBounded(ran, s)
	}
	s.Shutdown()
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// waitBounded waits up to shutdownWrites for Run to end.
func waitBounded(ran <-chan error, s *Server) error {
	bound := time.NewTimer(shutdownWrites)
	defer bound.Stop()
	select {
	case err := <-ran:
		return err
	case <-bound.C:
		s.cfg.Logger.Warn("stopping without every answer written: the host is not reading")
		return nil
	}
}
