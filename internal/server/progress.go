package server

import (
	"context"
	"math"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineUpdateEvery is the fastest pace of progress driven by output lines:
// at most twice a second.
const lineUpdateEvery = 500 * time.Millisecond

// maxProgressLine bounds the last output line shown in a progress message
// (Claude Code shows the first 200 characters of a message).
const maxProgressLine = 200

// progress reports a call's progress to a host that asked for it (sent a
// progress token): a heartbeat with the elapsed time, and an update when new
// output lines arrive, at most twice a second. Values strictly increase;
// nothing is sent after close returns, which happens before the result.
type progress struct {
	c       *call
	token   any
	ceiling time.Duration
	every   time.Duration

	mu      sync.Mutex
	waiting bool
	line    string
	last    float64
	sentAt  time.Time

	wake chan struct{}
	stop chan struct{}
	done chan struct{}
}

// newProgress returns nil when the host sent no progress token; every
// method of a nil *progress does nothing.
func newProgress(c *call, ceiling time.Duration) *progress {
	token := c.req.Params.GetProgressToken()
	if token == nil || c.req.Session == nil {
		return nil
	}
	p := &progress{c: c, token: token, ceiling: ceiling, every: c.s.cfg.Heartbeat,
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go p.loop()
	return p
}

func (p *progress) setWaiting(w bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.waiting = w
	p.mu.Unlock()
	p.poke()
}

// observer is the runtime's line observer: lines arrive already filtered
// (private keys redacted).
func (p *progress) observer() func(callruntime.Line) {
	if p == nil {
		return nil
	}
	return func(l callruntime.Line) {
		// A terminal shows this message: no control sequences. A line with
		// no letter or digit ("}", "—") tells a person nothing.
		text := strings.TrimSpace(cleanLine(l.Text))
		if !hasWords(text) {
			return
		}
		if utf8.RuneCountInString(text) > maxProgressLine {
			r := []rune(text)
			text = string(r[:maxProgressLine-1]) + "…"
		}
		p.mu.Lock()
		p.line = text
		p.mu.Unlock()
		p.poke()
	}
}

func (p *progress) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *progress) loop() {
	defer close(p.done)
	defer func() { _ = recover() }() // progress must never take a call down
	tick := time.NewTicker(p.every)
	defer tick.Stop()
	var pending <-chan time.Time
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
			p.send()
		case <-p.wake:
			p.mu.Lock()
			wait := lineUpdateEvery - time.Since(p.sentAt)
			p.mu.Unlock()
			if wait <= 0 {
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
	p.mu.Lock()
	elapsed := time.Since(p.c.begin)
	value := math.Max(math.Round(elapsed.Seconds()*1000)/1000, p.last+0.001)
	p.last = value
	p.sentAt = time.Now()
	var msg string
	pr, name := p.c.p, p.c.t.Name
	if p.waiting {
		msg = pr.Sprintf(i18n.ProgressWaiting, name, pr.Tier(string(p.c.t.Tier())), int(elapsed.Seconds()))
	} else {
		msg = pr.Sprintf(i18n.ProgressRunning, name, int(elapsed.Seconds()), int(p.ceiling.Seconds()))
		if p.line != "" {
			msg += " — " + p.line
		}
	}
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = p.c.req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: p.token, Progress: value, Total: p.ceiling.Seconds(), Message: msg,
	})
}

// close stops the reporter and waits for a notification in flight.
func (p *progress) close() {
	if p == nil {
		return
	}
	close(p.stop)
	<-p.done
}
