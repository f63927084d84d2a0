package warm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// verifyRetry is how long a launch waits before it runs the verify calls
// again when one timed out (a loaded machine says nothing about warm
// start): doubled at each try, up to verifyRetryMax.
var (
	verifyRetry    = 5 * time.Second
	verifyRetryMax = 2 * time.Minute
)

// maxVerifyGrowth is how far a verify run's ceiling grows: each try after
// a timeout gets twice the last one's, up to this many times
// Config.VerifyTimeout. On a machine that stays loaded a ceiling that does
// not grow is never met, and warm start would never settle.
const maxVerifyGrowth = 8

// launch starts a template, checks it, verifies it and puts it in service.
func (p *Pool) launch(why string) {
	began := time.Now()
	p.log.Info("starting a warm template", "why", why)
	cold := make(chan []verifyRun, 1)
	go func() { cold <- p.verifyRuns(p.life, nil, p.cfg.VerifyTimeout) }()
	t, err := startTemplate(p.life, p.cfg.Runner, &p.cfg, p.log, p.answerWait, p.yield)
	if err != nil {
		<-cold
		p.endLaunch()
		p.died(nil, fmt.Sprintf("the template did not start: %v", err))
		return
	}
	s := &slot{t: t, stamp: fingerprint(t.ready.Files)}
	p.mu.Lock()
	p.all[s] = true
	p.status.Templates++
	p.lastFiles = t.ready.Files
	p.est.imported(time.Now())
	p.notify()
	p.mu.Unlock()
	if len(t.ready.PreloadFailed) > 0 {
		p.log.Info("warm template: some of cli.warm.preload did not load (calls load them themselves)", "failed", strings.Join(t.ready.PreloadFailed, ", "))
	}
	if r := t.ready; r.CanaryTimedOut && r.Canary != nil {
		// Not known yet: this template is replaced, as one that died
		// (too many in a row turn warm off for this server, never for
		// good).
		<-cold
		p.endLaunch()
		p.closeSlot(s)
		p.died(s, *r.Canary)
		return
	}
	if why, forGood := p.unsafe(t); why != "" {
		<-cold
		p.endLaunch()
		if forGood {
			p.offForGood(why)
		} else {
			p.off(why)
		}
		p.closeSlot(s)
		return
	}
	t.onThreads = func(n int) {
		p.off(fmt.Sprintf("the template had %d threads when it forked: forking it would be unsafe", n))
	}
	warmRuns, ok := p.verify(s, <-cold)
	if !ok {
		return
	}
	p.mu.Lock()
	p.launching = false
	if p.closed || p.state == Off {
		p.mu.Unlock()
		p.closeSlot(s)
		return
	}
	if old := p.cur; old != nil {
		p.retireLocked(old)
	}
	p.cur = s
	p.state, p.reason = On, ""
	p.status.ReadyMS = time.Since(began).Milliseconds()
	p.status.ImportMS = t.ready.ImportMS
	p.status.Commands = t.ready.Commands
	p.status.Verified = len(warmRuns)
	p.est.savedReady = time.Since(began)
	p.est.readyAt = time.Time{}
	p.settle()
	p.keepVerdict(Verdict{State: On, Verified: len(warmRuns), Files: t.ready.Files, Stamp: s.stamp})
	p.mu.Unlock()
	p.log.Info("warm template ready", "pid", t.pid, "ready_ms", time.Since(began).Milliseconds(), "import_ms", t.ready.ImportMS,
		"preload_ms", t.ready.PreloadMS, "commands", t.ready.Commands, "modules", t.ready.Modules, "runs", t.ready.Runs,
		"verified", len(warmRuns), "rss_mib", rssOf(t.pid)>>20)
	go func() {
		<-t.dead
		p.mu.Lock()
		retired := s.retired
		p.mu.Unlock()
		if !retired {
			p.died(s, "the template exited: "+deathText(t))
		}
	}()
}

// deathText says how a template ended, and why the server killed it if it
// did.
func deathText(t *template) string {
	text := exitText(t.cmd, t.dead)
	if why := t.killedFor(); why != "" {
		text = "killed by the server, as " + why + " (" + text + ")"
	}
	return text
}

// unsafe says why calls must not be forked from t, "" if nothing does;
// forGood when that holds of the CLI as installed here, not of this
// template only (the verdict is then sticky).
func (p *Pool) unsafe(t *template) (why string, forGood bool) {
	r := t.ready
	switch {
	case r.Threads > 1 && strings.HasPrefix(r.ThreadCount, "pthread_is_threaded_np"):
		return fmt.Sprintf("the template is threaded after importing %s (%s): forking it would be unsafe", p.cfg.Warm.Entry, r.ThreadCount), true
	case r.Threads > 1:
		return fmt.Sprintf("the template has %d threads after importing %s: forking it would be unsafe", r.Threads, p.cfg.Warm.Entry), false
	case len(r.Open) > 0:
		var open []string
		for _, o := range r.Open {
			open = append(open, fmt.Sprintf("descriptor %d (%s)", o.FD, o.What))
		}
		return fmt.Sprintf("the template holds %s after importing %s: every call would share it with the template and the other calls (a file's offset, a connection), so calls start cold", strings.Join(open, ", "), p.cfg.Warm.Entry), false
	case r.Canary != nil && *r.Canary != "":
		return *r.Canary + ": a child forked from this CLI does not survive what a call may touch, so calls start cold", true
	}
	return "", false
}

// verify runs the verify calls warm from s's template against their cold
// runs, until they are known to agree (ok) or not: a run that timed out
// is not a verdict, and the runs are made again later with a longer
// ceiling (maxVerifyGrowth). When they disagree, or the template dies, or
// the Pool closes, the launch is over (!ok).
func (p *Pool) verify(s *slot, cold []verifyRun) (warm []verifyRun, ok bool) {
	wait, most := p.retry, p.retryMax
	ceiling := p.cfg.VerifyTimeout
	for {
		warm = p.verifyRuns(p.life, s.t, ceiling)
		why, again := compareRuns(cold, warm)
		switch {
		case !s.t.alive():
			p.endLaunch()
			p.died(s, "the template exited while it was verified: "+deathText(s.t))
			return nil, false
		case why == "":
			return warm, true
		case !again:
			p.endLaunch()
			p.off(why)
			p.closeSlot(s)
			return nil, false
		}
		ceiling = min(2*ceiling, maxVerifyGrowth*p.cfg.VerifyTimeout)
		p.log.Warn("warm start not known yet: a verify call timed out (a loaded machine?); trying again", "why", why, "in", wait, "ceiling", ceiling)
		p.mu.Lock()
		p.est.readyAt = time.Time{}
		p.mu.Unlock()
		select {
		case <-time.After(wait):
		case <-p.life.Done():
			p.endLaunch()
			p.closeSlot(s)
			return nil, false
		}
		wait = min(2*wait, most)
		cold = p.verifyRuns(p.life, nil, ceiling)
	}
}

// verifyRun is one verify call's result.
type verifyRun struct {
	argv []string
	res  callruntime.Result
	err  error
}

// timedOut says whether the run's ceiling ended it — also before it
// started: a warm run whose ceiling passed while the template was still
// forking it (a loaded machine) did not start, and says no more of warm
// start than a cold run that timed out.
func (r verifyRun) timedOut() bool {
	return r.res.End == callruntime.TimedOut || errors.Is(r.err, callruntime.ErrTimeout)
}

// outcome is how the run ended, for a reason: its End, or "not started".
func (r verifyRun) outcome() string {
	if r.err != nil {
		return "not started"
	}
	return r.res.End.String()
}

// verifyRuns runs the verify calls, from t (warm) or cold when t is nil,
// each within ceiling. Cold runs are timed for the estimates; warm ones
// too.
func (p *Pool) verifyRuns(ctx context.Context, t *template, ceiling time.Duration) []verifyRun {
	var out []verifyRun
	began := time.Now()
	for _, argv := range p.cfg.Warm.Verify {
		args := append(append([]string{}, p.cfg.Args...), argv...)
		spec := callruntime.Spec{Path: p.cfg.Script, Args: args, Env: p.cfg.Env, Dir: p.cfg.Dir,
			Timeout: ceiling, MaxStdout: 1 << 20, MaxStderr: 64 << 10}
		var res callruntime.Result
		var err error
		// Each run yields to the user's calls (yield.go): one held back is
		// made again, with its whole ceiling, once no call runs.
		if cause := p.yield.run(ctx, func(ctx context.Context) {
			if t != nil {
				res, _, err = p.runWarm(ctx, &slot{t: t}, nil, spec, "")
				return
			}
			res, err = p.coldVerify(ctx, spec)
		}); cause != nil && err == nil {
			err = cause
		}
		out = append(out, verifyRun{argv: argv, res: res, err: err})
	}
	if t != nil && len(out) > 0 {
		p.mu.Lock()
		p.est.warmVerify = time.Since(began)
		p.mu.Unlock()
	}
	return out
}

// coldVerify runs one verify call cold, timed for the estimates (wait.go).
func (p *Pool) coldVerify(ctx context.Context, spec callruntime.Spec) (callruntime.Result, error) {
	p.mu.Lock()
	p.est.coldVerify = time.Now()
	p.mu.Unlock()
	res, err := p.runCold(ctx, spec)
	p.mu.Lock()
	p.est.coldVerify = time.Time{}
	if !p.est.readyAt.IsZero() && p.cur == nil {
		p.est.imported(time.Now()) // the rest is the warm runs
	}
	p.notify()
	p.mu.Unlock()
	return res, err
}

// compareRuns says why warm and cold verify runs differ, or "". again is
// true when that is not known yet: a run timed out, which says more of the
// machine's load than of warm start — never the verdict "off".
func compareRuns(cold, warm []verifyRun) (why string, again bool) {
	for i := range cold {
		c, w := cold[i], warm[i]
		name := "verify " + strings.Join(c.argv, " ")
		switch {
		case c.timedOut() || w.timedOut():
			return fmt.Sprintf("%s: cold %s, warm %s (after %v and %v)", name, c.outcome(), w.outcome(),
				c.res.Duration.Round(time.Millisecond), w.res.Duration.Round(time.Millisecond)), true
		case c.err != nil:
			return fmt.Sprintf("%s: the cold run did not start: %v", name, c.err), false
		case w.err != nil:
			return fmt.Sprintf("%s: the warm run did not start: %v", name, w.err), false
		case c.res.End != callruntime.Exited || w.res.End != callruntime.Exited:
			return fmt.Sprintf("%s: cold %s, warm %s", name, c.res.End, w.res.End), false
		case c.res.ExitCode != w.res.ExitCode:
			return fmt.Sprintf("%s: exit %d cold, %d warm", name, c.res.ExitCode, w.res.ExitCode), false
		case c.res.Stdout.Omitted() > 0 || w.res.Stdout.Omitted() > 0:
			return fmt.Sprintf("%s: stdout over 1 MiB cannot be compared", name), false
		}
		cb, wb := c.res.Stdout.Head, w.res.Stdout.Head
		if !bytes.Equal(cb, wb) {
			at := 0
			for at < len(cb) && at < len(wb) && cb[at] == wb[at] {
				at++
			}
			return fmt.Sprintf("%s: stdout differs between cold and warm (%d and %d bytes, first difference at byte %d)", name, len(cb), len(wb), at), false
		}
	}
	return "", false
}
