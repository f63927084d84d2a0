package callruntime

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Stream names one of the two output streams of a call.
type Stream int

const (
	Stdout Stream = iota + 1
	Stderr
)

func (s Stream) String() string {
	switch s {
	case Stdout:
		return "stdout"
	case Stderr:
		return "stderr"
	}
	return "stream?"
}

// A Line is one line of output, as the [Spec.OnLine] observer sees it: after
// the [Spec.Filter], without its newline, valid UTF-8, and at most
// [MaxLineBytes] long (a longer line is cut and Cut is set).
type Line struct {
	Stream Stream
	Text   string
	Cut    bool
	// Dropped counts the lines, on either stream, that were not delivered
	// since the previous delivered line because the observer was busy.
	Dropped int
}

// MaxLineBytes bounds a [Line]'s text. Progress messages need the start of a
// line, not a 100 MiB blob.
const MaxLineBytes = 4096

// observerQueue is how many lines may wait for a slow observer before newer
// ones are dropped.
const observerQueue = 64

// lineSplitter cuts one stream into lines for the dispatcher. It never holds
// more than MaxLineBytes.
type lineSplitter struct {
	stream  Stream
	partial []byte
	cut     bool // the current line was already delivered cut; drop until '\n'
	d       *dispatcher
}

func (s *lineSplitter) Write(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.add(p)
			return
		}
		s.add(p[:i])
		s.emitLine()
		p = p[i+1:]
	}
}

func (s *lineSplitter) add(p []byte) {
	if s.cut {
		return
	}
	room := MaxLineBytes - len(s.partial)
	if len(p) <= room {
		s.partial = append(s.partial, p...)
		return
	}
	s.partial = append(s.partial, p[:room]...)
	s.d.deliver(s.stream, s.partial, true)
	s.partial = s.partial[:0]
	s.cut = true
}

func (s *lineSplitter) emitLine() {
	if !s.cut {
		s.d.deliver(s.stream, bytes.TrimSuffix(s.partial, []byte("\r")), false)
	}
	s.partial = s.partial[:0]
	s.cut = false
}

// Flush delivers a last line that had no newline.
func (s *lineSplitter) Flush() {
	if len(s.partial) > 0 && !s.cut {
		s.d.deliver(s.stream, s.partial, false)
	}
	s.partial = s.partial[:0]
}

// dispatcher hands lines to the observer on a goroutine of its own, so a
// slow or stuck observer can never block the pipe readers: when its queue is
// full, lines are dropped and counted. A panicking observer is contained and
// not called again.
type dispatcher struct {
	observe func(Line)
	queue   chan Line
	dropped atomic.Int64
	stop    chan struct{}
	done    sync.WaitGroup
}

func newDispatcher(observe func(Line)) *dispatcher {
	d := &dispatcher{observe: observe, queue: make(chan Line, observerQueue), stop: make(chan struct{})}
	d.done.Add(1)
	go d.loop()
	return d
}

func (d *dispatcher) deliver(stream Stream, text []byte, cut bool) {
	l := Line{Stream: stream, Text: strings.ToValidUTF8(string(text), string(utf8.RuneError)), Cut: cut}
	select {
	case d.queue <- l:
	default:
		d.dropped.Add(1)
	}
}

func (d *dispatcher) loop() {
	defer d.done.Done()
	broken := false
	for {
		select {
		case <-d.stop:
			return
		case l := <-d.queue:
			if broken {
				continue
			}
			l.Dropped = int(d.dropped.Swap(0))
			broken = !d.call(l)
		}
	}
}

func (d *dispatcher) call(l Line) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	d.observe(l)
	return true
}

// close stops delivery: lines still queued are dropped (they are in the
// captured output), and close waits for a call in progress to return, so the
// observer is never called after Run returns.
func (d *dispatcher) close() {
	close(d.stop)
	d.done.Wait()
}
