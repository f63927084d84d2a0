package server

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/cleantext"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineUpdateEvery is the fastest pace of progress driven by output lines:
// at most twice a second.
const lineUpdateEvery = 500 * time.Millisecond

// maxProgressLine bounds the last output line shown in a progress message
// (Claude Code shows the first 200 characters of a message).
const maxProgressLine = 200

// progress reports a run's progress to one request that asked for it (sent
// a progress token): a heartbeat with the run's elapsed time, and an update
// when the run's latest output line changes, at most twice a second. Values
// strictly increase; nothing is sent after close returns, which happens
// before the request's result. A run may have several such observers: the
// request that started it, calls that joined it, waits.
type progress struct {
	req    *mcp.CallToolRequest
	pr     *i18n.Printer
	run    *run
	token  any
	every  time.Duration
	last   float64
	sentAt time.Time
	// shown is the output line this request was last told, and waited
	// whether it was told the run waits for a slot: a line is said once,
	// and a heartbeat after it says only the time.
	shown   string
	waited  bool
	stop    chan struct{}
	done    chan struct{}
	stopped sync.Once
}

// newProgress returns nil when the request sent no progress token; every
// method of a nil *progress does nothing.
func newProgress(s *Server, req *mcp.CallToolRequest, r *run) *progress {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil
	}
	p := &progress{req: req, pr: s.cfg.Printer, run: r, token: token, every: s.cfg.Heartbeat,
		stop: make(chan struct{}), done: make(chan struct{})}
	go p.loop()
	return p
}

// lineObserver is the runtime's line observer for a run: lines of the
// tool's progress stream (the other carries the result) arrive already
// filtered (private keys and secrets redacted); a terminal shows what is
// kept, so control sequences go, a line with no letter or digit ("}", "—")
// tells a person nothing, and a JSON document is not narration: it is the
// CLI's error report (the result shows it), or its data. Cleaning can join
// a secret the stream kept apart with an escape, so secrets are redacted
// again after it. Nil for a tool whose progress is "none".
func lineObserver(r *run, stream string, secrets *callruntime.SecretRedactor) func(callruntime.Line) {
	var want callruntime.Stream
	switch stream {
	case annotations.StreamStdout:
		want = callruntime.Stdout
	case annotations.StreamStderr:
		want = callruntime.Stderr
	default:
		return nil
	}
	return func(l callruntime.Line) {
		if l.Stream != want {
			return
		}
		text := strings.TrimSpace(secrets.RedactString(cleantext.Line(l.Text)))
		if !hasWords(text) || isJSONLine(text, l.Cut) {
			return
		}
		if utf8.RuneCountInString(text) > maxProgressLine {
			rs := []rune(text)
			text = string(rs[:maxProgressLine-1]) + "…"
		}
		r.SetLine(text)
	}
}

func (p *progress) loop() {
	defer close(p.done)
	defer func() { _ = recover() }() // progress must never take a call down
	wake, unwatch := p.run.Watch()
	defer unwatch()
	tick := time.NewTicker(p.every)
	defer tick.Stop()
	var pending <-chan time.Time
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
			p.send()
		case <-wake:
			if !p.news() {
				continue // the same line again: it was said
			}
			if wait := lineUpdateEvery - time.Since(p.sentAt); wait <= 0 {
				p.send()
			} else if pending == nil {
				pending = time.After(wait)
			}
		case <-pending:
			pending = nil
			p.send()
		}
	}
}

func (p *progress) send() {
	r := p.run
	elapsed := time.Since(r.Started)
	value := math.Max(math.Round(elapsed.Seconds()*1000)/1000, p.last+0.001)
	p.last = value
	p.sentAt = time.Now()
	line, waiting := r.Status()
	if line == p.shown && !waiting {
		line = "" // said already: a heartbeat says the time
	} else {
		p.shown = line
	}
	p.waited = waiting
	msg := statusMessage(p.pr, r, line, waiting)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = p.req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: p.token, Progress: value, Total: r.Ceiling().Seconds(), Message: msg,
	})
}

// news reports whether the run has something this request was not told:
// a new output line, or a change of waiting for a slot.
func (p *progress) news() bool {
	line, waiting := p.run.Status()
	return line != p.shown || waiting != p.waited
}

// isJSONLine reports whether a progress line is a JSON document (or the
// start of one too long to keep): data or the CLI's error report, never
// narration.
func isJSONLine(text string, cut bool) bool {
	if !strings.HasPrefix(text, "{") && !strings.HasPrefix(text, "[") {
		return false
	}
	return cut || json.Valid([]byte(text))
}

// statusText is what a run in progress is doing, for a person: its time
// against its ceiling and its latest output line, or that it waits for a
// slot. A task's status message says it.
func statusText(pr *i18n.Printer, r *run) string {
	line, waiting := r.Status()
	return statusMessage(pr, r, line, waiting)
}

// statusMessage is statusText with the line (or "" for none) and the
// waiting state given.
func statusMessage(pr *i18n.Printer, r *run, line string, waiting bool) string {
	elapsed := time.Since(r.Started)
	if waiting {
		return pr.Sprintf(i18n.ProgressWaiting, r.Tool, pr.Tier(r.Tier), int(elapsed.Seconds()))
	}
	msg := pr.Sprintf(i18n.ProgressRunning, r.Tool, int(elapsed.Seconds()), int(r.Ceiling().Seconds()))
	if line != "" {
		msg += " — " + line
	}
	return msg
}

// close stops the reporter and waits for a notification in flight.
func (p *progress) close() {
	if p == nil {
		return
	}
	p.stopped.Do(func() { close(p.stop) })
	<-p.done
}
