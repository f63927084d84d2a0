package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLine bounds one inbound JSON-RPC line. The TypeScript SDK drops
// messages over 10 MiB, so anything a host sends fits.
const DefaultMaxLine = 16 << 20

// DefaultMaxInFlight bounds the requests in flight on one connection: each
// costs a goroutine and its state for as long as it waits (a tasks/result
// waits for its task's whole life).
const DefaultMaxInFlight = 1024

// CodeBusy answers a request refused because DefaultMaxInFlight (or
// StdioTransport.MaxInFlight) requests are in flight: a server error of
// JSON-RPC's implementation-defined range. The client may send it again
// once answers have come.
const CodeBusy = -32000

// DefaultDrain is how long, after the host closed our stdin, the requests
// already read may go on before they are stopped (see [StdioTransport.Drain]).
const DefaultDrain = 5 * time.Second

// drainStopped bounds the wait for the answers of requests stopped when the
// drain ran out: their trees are being killed (at most the kill grace, then
// SIGKILL), and their answers written.
const drainStopped = 10 * time.Second

// StdioTransport is an [mcp.Transport] over newline-delimited JSON that a
// real host cannot knock over. The SDK's own stdio transport ends the process
// on invalid JSON, a batch, or "jsonrpc":"1.0", changes ids it cannot hold
// (7.5 becomes 7), and answers some errors with code 0. This one:
//
//   - answers each malformed line with the JSON-RPC error the spec names
//     (-32700 parse error, -32600 invalid request) and keeps reading;
//   - echoes every request id exactly as the client wrote it: the SDK only
//     ever sees an id of the transport's own, mapped back on the way out —
//     on each answer, and inside the messages that name a request
//     (idPlaces: a listen's acknowledgement, a cancel);
//   - answers a request whose id is already in flight, and a second
//     initialize, with -32600 instead of passing them on;
//   - rewrites a code-0 error from the SDK into a proper code;
//   - sends nothing for a request the client cancelled (the spec's SHOULD
//     NOT; the SDK answers anyway);
//   - when the input ends, answers every request already read before it
//     reports the end (see Drain), and ends at once the streams the host
//     left open (a subscriptions/listen), which only the host could end.
//
// It knows nothing of what the messages mean beyond that: MCP Tasks are a
// decorator over it ([tasks.Transport]), composed over it by [Server.Connect] and [Serve].
type StdioTransport struct {
	In  io.Reader
	Out io.Writer
	// MaxLine bounds one line; longer lines are answered -32600 and
	// skipped. If zero, DefaultMaxLine.
	MaxLine int
	// MaxInFlight bounds the requests read and not yet answered; one more
	// is answered CodeBusy at once. If zero, DefaultMaxInFlight.
	MaxInFlight int
	// Drain bounds how long, once In ends, requests already read may run
	// before OnDrainExpired is called to stop them; their answers (results,
	// or "cancelled" results) are still written, and only then does the
	// connection report the end of its input. If zero, DefaultDrain.
	Drain time.Duration
	// OnDrainExpired, if set, is called once when Drain passes with answers
	// still owed: the server's cue to stop its calls.
	OnDrainExpired func()
	// OnEnd, if set, is called once when the connection reports the end of
	// its input, after the drain.
	OnEnd func()
	// OnAnswered, if set, is called after the answer to an initialize
	// that succeeded has been written: the host has what it waits for
	// before anything else. Called again at a later one (which the
	// connection refuses, see initDone), so it must be idempotent.
	OnAnswered func()
	Logger     *slog.Logger

	mu   sync.Mutex
	conn *stdioConn
}

// Close ends the connection as if the input had ended, without its drain:
// the server's way to stop without cancelling the SDK's Run (which logs a
// routine stop as an error).
func (t *StdioTransport) Close() {
	t.mu.Lock()
	c := t.conn
	t.mu.Unlock()
	if c != nil {
		_ = c.Close()
	}
}

// EndStreams ends the host's open-ended requests in flight (see
// openEnded): the server is stopping, and would otherwise wait for them
// until its bound.
func (t *StdioTransport) EndStreams() {
	t.mu.Lock()
	c := t.conn
	t.mu.Unlock()
	if c != nil {
		go c.handOver(c.endStreams())
	}
}

// WaitAnswered waits up to d until no request read is owed an answer. It
// reports false when d passed first, the host stopped reading (a write
// stalled), or the connection ended.
func (t *StdioTransport) WaitAnswered(d time.Duration) bool {
	t.mu.Lock()
	c := t.conn
	t.mu.Unlock()
	if c == nil {
		return true
	}
	return c.waitIdle(context.Background(), d)
}

// Connect implements [mcp.Transport].
func (t *StdioTransport) Connect(context.Context) (mcp.Connection, error) {
	max := t.MaxLine
	if max <= 0 {
		max = DefaultMaxLine
	}
	c := t.newConn()
	t.mu.Lock()
	t.conn = c
	t.mu.Unlock()
	go c.readLoop(t.In, max)
	return c, nil
}

// newConn is a connection of t that reads nothing yet.
func (t *StdioTransport) newConn() *stdioConn {
	drain := t.Drain
	if drain <= 0 {
		drain = DefaultDrain
	}
	inFlight := t.MaxInFlight
	if inFlight <= 0 {
		inFlight = DefaultMaxInFlight
	}
	logger := t.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &stdioConn{
		out:        t.Out,
		msgs:       make(chan jsonrpc.Message),
		done:       make(chan struct{}),
		eof:        make(chan struct{}),
		logger:     logger,
		drain:      drain,
		onExpired:  t.OnDrainExpired,
		onEnd:      t.OnEnd,
		onAnswered: t.OnAnswered,
		pending:    map[jsonrpc.ID]*inbound{},
		byRaw:      map[string]jsonrpc.ID{},
		inFlight:   inFlight,
	}
}

// inbound is a request read from the client and not yet answered.
type inbound struct {
	raw       json.RawMessage // the id as the client wrote it
	method    string
	cancelled bool // the client cancelled it: send nothing
	ended     bool // an open-ended request the transport cancelled itself
}

type stdioConn struct {
	wmu sync.Mutex
	out io.Writer
	// stream is the buffer writeStream copies through (under wmu), made
	// at its first use and kept: a later tools/list allocates nothing.
	stream  *bufio.Writer
	msgs    chan jsonrpc.Message
	done    chan struct{} // closed by Close
	eof     chan struct{} // closed when input ends
	readErr error
	once    sync.Once
	logger  *slog.Logger

	drain     time.Duration
	onExpired func()
	onEnd     func()
	// onAnswered is StdioTransport.OnAnswered.
	onAnswered func()
	// writingSince is when the write in progress began (UnixNano), or 0: a
	// write that does not finish means the host stopped reading.
	writingSince atomic.Int64

	// pending holds the requests passed to the SDK and not yet answered,
	// under ids of our own (seq); byRaw finds them by the client's id text.
	// Only pending ids count, so a late cancel cannot swallow the answer to
	// a later request that reuses the id.
	cmu      sync.Mutex
	seq      int64
	pending  map[jsonrpc.ID]*inbound
	byRaw    map[string]jsonrpc.ID
	initDone bool // an initialize was answered with a result
	initBusy bool // an initialize is in flight
	inFlight int  // the most requests pending at once
}

func (c *stdioConn) SessionID() string { return "" }

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.msgs:
		return m, nil
	case <-c.eof:
		// readLoop hands over every message before it closes eof, so all
		// that was read is with the SDK: let it answer before the end is
		// reported, because the SDK cancels its handlers and stops writing
		// once Read fails.
		c.awaitAnswers(ctx)
		if c.onEnd != nil {
			c.onEnd()
		}
		return nil, c.readErr
	case <-c.done:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// awaitAnswers waits until no answer is owed: up to Drain for the requests
// to finish by themselves, then, after OnDrainExpired stopped them, up to
// drainStopped for their answers.
func (c *stdioConn) awaitAnswers(ctx context.Context) {
	if c.waitIdle(ctx, c.drain) {
		return
	}
	c.logger.Info("input ended with requests in flight; stopping them", "drain", c.drain)
	if c.onExpired != nil {
		c.onExpired()
	}
	if !c.waitIdle(ctx, drainStopped) {
		c.logger.Warn("input ended; some requests were left unanswered")
	}
}

// stalledWrite is how long a write may block before the host is taken to
// have stopped reading: answers can no longer be delivered.
const stalledWrite = time.Second

// waitIdle polls until nothing is pending, d passes, the host stops reading,
// or the connection or ctx ends.
func (c *stdioConn) waitIdle(ctx context.Context, d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		c.cmu.Lock()
		n := len(c.pending)
		c.cmu.Unlock()
		if n == 0 {
			return true
		}
		if since := c.writingSince.Load(); since != 0 && time.Since(time.Unix(0, since)) > stalledWrite {
			return false
		}
		select {
		case <-deadline.C:
			return false
		case <-c.done:
			return false
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
}

func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return c.writeRequest(msg.(*jsonrpc.Request))
	}
	if in := c.settle(resp); in != nil {
		return c.writeAnswer(in, resp, nil)
	}
	return nil
}

// writeStreamed writes resp with result, given in pieces, as its result
// (resp.Result is not read): the pieces are copied through a buffer of
// the pipe's size and never made whole.
func (c *stdioConn) writeStreamed(resp *jsonrpc.Response, result streamedResult) error {
	if in := c.settle(resp); in != nil {
		return c.writeAnswer(in, resp, result)
	}
	return nil
}

// settle takes resp's request off those in flight, and returns it, or nil
// when nothing is to be written: no request of the client's, or one it
// cancelled.
func (c *stdioConn) settle(resp *jsonrpc.Response) *inbound {
	c.cmu.Lock()
	in := c.pending[resp.ID]
	delete(c.pending, resp.ID)
	if in != nil {
		delete(c.byRaw, string(in.raw))
		if in.method == "initialize" {
			c.initBusy = false
			c.initDone = c.initDone || resp.Error == nil
		}
	}
	c.cmu.Unlock()
	if in == nil {
		// Not an answer to a request of the client's (nothing else sends
		// responses): it cannot be addressed.
		c.logger.Warn("dropped a response to an unknown request")
		return nil
	}
	if in.cancelled {
		return nil
	}
	return in
}

// writeAnswer writes the answer to in: resp with the client's id, its
// result streamed's pieces when streamed is not nil.
func (c *stdioConn) writeAnswer(in *inbound, resp *jsonrpc.Response, streamed streamedResult) error {
	result := resp.Result
	if place, has := idPlaceOf(toHost, in.method, true); has && resp.Error == nil {
		if streamed != nil {
			result, streamed = streamed.made(), nil
		}
		var ok bool
		if result, ok = place.move(result, func(id json.RawMessage) (json.RawMessage, bool) {
			return c.hostIDText(id, resp.ID, in)
		}); !ok {
			c.logger.Warn("a result names a request of the SDK's that is not in flight; answered with an error", "method", in.method)
			return c.writeLine(encodeResponse(in.raw, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error: the answer names an unknown request"}))
		}
	}
	var err error
	switch {
	case resp.Error != nil:
		err = c.writeLine(encodeResponse(in.raw, nil, resp.Error))
	case streamed != nil:
		err = c.writeStream(in.raw, streamed)
	case len(result) > bigResult:
		// Written in pieces around the SDK's own bytes: a big result — a
		// call's tens of megabytes — is not copied once more to be framed.
		err = c.writeLine([]byte(`{"jsonrpc":"2.0","id":`), in.raw, []byte(`,"result":`), result, []byte("}"))
	default:
		err = c.writeLine(encodeResponse(in.raw, result, nil))
	}
	if in.method == "initialize" && resp.Error == nil && c.onAnswered != nil {
		c.onAnswered()
	}
	return err
}

// writeRequest writes a request or a notification of the SDK's. A request
// carries the SDK's own id, which the host answers as it is; a
// notification that names one of the host's requests (idPlaces) gets the
// host's id there, or is not sent when that request is no longer in flight.
func (c *stdioConn) writeRequest(req *jsonrpc.Request) error {
	if place, has := idPlaceOf(toHost, req.Method, false); has && !req.ID.IsValid() {
		params, ok := place.move(req.Params, func(id json.RawMessage) (json.RawMessage, bool) {
			return c.hostIDText(id, jsonrpc.ID{}, nil)
		})
		if !ok {
			c.logger.Debug("dropped a notification about a request no longer in flight", "method", req.Method)
			return nil
		}
		req = &jsonrpc.Request{Method: req.Method, Params: params}
	}
	data, err := jsonrpc.EncodeMessage(req)
	if err != nil {
		return fmt.Errorf("encoding message: %w", err)
	}
	return c.writeLine(data)
}

// bigResult is the size past which a response is written in pieces rather
// than framed in a buffer of its own: five writes instead of one copy. At
// the pipe's 64 KiB a writer waits for its reader anyway, and a copy of
// the whole aeat's tools/list (428 KB) was a hundred fresh pages faulted
// in at a start. (That answer is not made whole any more: writeStream.)
const bigResult = 64 << 10

// encodeResponse builds a response line around the client's own id text,
// copied as it is: never a number that went through a float64 or an
// int64, nor a string re-encoded (json.Marshal would write a "&" in it as
// "\u0026"). The result is the SDK's, already valid JSON: it is copied,
// not re-encoded either.
func encodeResponse(id, result json.RawMessage, rerr error) []byte {
	member := `,"result":`
	if rerr != nil {
		member = `,"error":`
		result, _ = json.Marshal(properCode(rerr))
	} else if result == nil {
		result = json.RawMessage("null")
	}
	const head = `{"jsonrpc":"2.0","id":`
	// Room for all of it and the newline writeLine adds: a line grown by
	// one byte past its array is copied whole (the whole aeat's tools/list
	// is 575 KB).
	b := make([]byte, 0, len(head)+len(id)+len(member)+len(result)+len("}\n"))
	b = append(b, head...)
	b = append(b, id...)
	b = append(b, member...)
	b = append(b, result...)
	return append(b, '}')
}

// writeLine writes one message — the concatenation of parts — and its
// newline. One part is written with its newline in one write (it is
// copied only when its array has no room for it); several parts, in turn.
func (c *stdioConn) writeLine(parts ...[]byte) error {
	return c.writing(func() error {
		if len(parts) == 1 {
			_, err := c.out.Write(append(parts[0], '\n'))
			return err
		}
		for _, p := range append(parts, []byte("\n")) {
			if _, err := c.out.Write(p); err != nil {
				return err
			}
		}
		return nil
	})
}

// streamBuffer is the buffer a streamed result is copied through: the
// pipe's size, so each write fills what the host's end holds.
const streamBuffer = 64 << 10

// writeStream writes a response line with the client's id text and
// result, given in pieces, copied through a buffer of streamBuffer bytes.
func (c *stdioConn) writeStream(id json.RawMessage, result streamedResult) error {
	return c.writing(func() error {
		if c.stream == nil {
			c.stream = bufio.NewWriterSize(c.out, streamBuffer)
		}
		w := c.stream
		_, _ = w.WriteString(`{"jsonrpc":"2.0","id":`)
		_, _ = w.Write(id)
		_, _ = w.WriteString(`,"result":`)
		result(func(p []byte) { _, _ = w.Write(p) }) // an error is kept by w, and returned by Flush
		_, _ = w.WriteString("}\n")
		err := w.Flush()
		if err != nil {
			w.Reset(c.out) // not to report this error again at the next
		}
		return err
	})
}

// writing runs write, which writes one message to out, alone, its start
// recorded (writingSince) while it runs.
func (c *stdioConn) writing(write func() error) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.writingSince.Store(time.Now().UnixNano())
	defer c.writingSince.Store(0)
	return write()
}

func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.done) })
	return nil
}

// properCode is the JSON-RPC error an answer carries. go-sdk v1.8.0 gives
// every error of its own a code from the spec (-32601, -32602, …); one it
// leaves at 0 — an error no code was chosen for, a plain Go error from a
// handler — is an internal error (-32603): JSON-RPC has no code 0, and the
// code is not guessed from the message's words.
func properCode(err error) *jsonrpc.Error {
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	if we.Code != 0 {
		return we
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: we.Message, Data: we.Data}
}

// readLoop reads lines until In ends, answering malformed ones itself.
func (c *stdioConn) readLoop(in io.Reader, max int) {
	r := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	// An oversized line is not kept: it is followed to its end for its id
	// alone, which may come last (Claude Code writes it after the params).
	var tooLong *memberScan
	for {
		chunk, err := r.ReadSlice('\n')
		switch {
		case tooLong != nil:
			_, _ = tooLong.Write(chunk)
		case len(line)+len(chunk) > max:
			tooLong = &memberScan{}
			_, _ = tooLong.Write(line)
			_, _ = tooLong.Write(chunk)
			line = line[:0]
		default:
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong != nil {
			c.reply(tooLong.lineID(), &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf(
				"invalid request: the message is longer than %d bytes, the most this server reads in one line", max)})
		} else if len(line) > 0 {
			if msg := c.parse(line); msg != nil {
				select {
				case c.msgs <- msg:
				case <-c.done:
					return
				}
			}
		}
		line = line[:0]
		tooLong = nil
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF
			}
			// The host can no longer cancel what it left open: end it,
			// before the end of the input is reported, so the drain waits
			// only for calls.
			c.handOver(c.endStreams())
			c.readErr = err
			close(c.eof)
			return
		}
	}
}

// wireMessage is one inbound line's members, each raw: decoding fails only
// on a syntax error, and each is then checked for its shape.
type wireMessage struct {
	Version, ID, Method, Params, Result, Error json.RawMessage
}

// decodeLine decodes a line (not blank) into its members, or says why it
// is no message at all, and which id to answer that with: the line's own
// when it can be read (a line too deep to decode), or null. Member names
// match exactly, as JSON-RPC's are case-sensitive: Go's decoder into a
// struct would take an "ID" for the id, and answer a notification.
func decodeLine(data []byte) (wireMessage, json.RawMessage, *jsonrpc.Error) {
	var m map[string]json.RawMessage
	if data[0] != '{' || json.Unmarshal(data, &m) != nil {
		switch {
		case nestedTooDeep(data) && validByTokens(data):
			var scan memberScan
			_, _ = scan.Write(data)
			return wireMessage{}, scan.lineID(), &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf(
				"invalid request: the message nests arrays and objects deeper than %d levels, the most this server reads", maxNesting)}
		case !json.Valid(data):
			return wireMessage{}, nil, &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "parse error: the line is not valid JSON"}
		case data[0] == '[':
			return wireMessage{}, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: batches are not supported"}
		}
		return wireMessage{}, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: a message must be a JSON object"}
	}
	return wireMessage{Version: m["jsonrpc"], ID: m["id"], Method: m["method"], Params: m["params"], Result: m["result"], Error: m["error"]}, nil, nil
}

// method is the message's method, "" for a response; a message that is
// neither a request nor a response is refused.
func (w *wireMessage) method() (string, *jsonrpc.Error) {
	switch {
	case string(w.Version) != `"2.0"`:
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: `invalid request: "jsonrpc" must be "2.0"`}
	case w.Method == nil && w.Result == nil && w.Error == nil:
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: no method"}
	case w.Method == nil:
		return "", nil
	}
	var method string
	if json.Unmarshal(w.Method, &method) != nil || method == "" {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: method must be a non-empty string"}
	}
	return method, nil
}

// jsonSpace is JSON's whitespace (RFC 8259): a line padded with anything
// else (a vertical tab, a no-break space) is not valid JSON.
const jsonSpace = " \t\r\n"

// parse turns one line into a message for the SDK, or answers it with an
// error itself and returns nil. A request reaches the SDK under an id of
// our own (registerInbound); the client's comes back on its answer (Write).
func (c *stdioConn) parse(line []byte) jsonrpc.Message {
	data := bytes.Trim(line, jsonSpace)
	if len(data) == 0 {
		return nil
	}
	w, refusedID, rerr := decodeLine(data)
	if rerr != nil {
		c.reply(refusedID, rerr)
		return nil
	}
	id, idOK := rawID(w.ID)
	if !idOK {
		c.reply(nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: id must be a string or a number"})
		return nil
	}
	method, rerr := w.method()
	switch {
	case rerr != nil:
		c.reply(id, rerr)
		return nil
	case method == "":
		return c.response(data, id)
	case id == nil:
		return c.notification(method, w.Params)
	}
	own, refusal := c.registerInbound(id, &inbound{method: method})
	if refusal != nil {
		c.refuse(id, refusal)
		return nil
	}
	return &jsonrpc.Request{ID: own, Method: method, Params: w.Params}
}

// registerInbound registers a request read (in, whose raw id it sets) under
// an id of our own, or says why it is refused: an id in flight, no room, a
// second initialize. (A call's place in its tier is request.admit's.)
func (c *stdioConn) registerInbound(raw json.RawMessage, in *inbound) (jsonrpc.ID, *jsonrpc.Error) {
	method := in.method
	c.cmu.Lock()
	defer c.cmu.Unlock()
	if _, busy := c.byRaw[string(raw)]; busy {
		return jsonrpc.ID{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: id " + string(raw) + " is already in use by a request in flight"}
	}
	if len(c.pending) >= c.inFlight {
		return jsonrpc.ID{}, &jsonrpc.Error{Code: CodeBusy, Message: fmt.Sprintf(
			"server busy: %d requests are in flight, the most this server takes at once; send this one again once some are answered (a tasks/result waits for its task's end: poll tasks/get instead)", c.inFlight)}
	}
	if method == "initialize" {
		if c.initDone || c.initBusy {
			return jsonrpc.ID{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: the session is already initialized"}
		}
		c.initBusy = true
	}
	c.seq++
	own, _ := jsonrpc.MakeID(float64(c.seq)) // an int64 id; cannot fail
	in.raw = raw
	c.pending[own] = in
	c.byRaw[string(raw)] = own
	return own, nil
}

// notification passes a host's notification on. One that names a request
// of the host's (idPlaces) reaches the SDK with the SDK's id for it, and
// only while that request is in flight: passed on later, it could name
// an id of ours that now belongs to another request. A cancel also marks
// its request, whose answer is then not sent.
func (c *stdioConn) notification(method string, params json.RawMessage) jsonrpc.Message {
	place, has := idPlaceOf(toSDK, method, false)
	if !has {
		return &jsonrpc.Request{Method: method, Params: params}
	}
	var named json.RawMessage // the host's id the notification names
	params, found, ok := moveAt(params, place.path, func(id json.RawMessage) (json.RawMessage, bool) {
		named = id
		return c.sdkIDText(id)
	})
	if !found || !ok {
		return nil
	}
	if method == methodCancelled {
		c.cmu.Lock()
		if own, in := c.byRaw[string(named)]; in {
			c.pending[own].cancelled = true
		}
		c.cmu.Unlock()
	}
	return &jsonrpc.Request{Method: method, Params: params}
}

// methodCancelled is the notification by which the host stops a request.
const methodCancelled = "notifications/cancelled"

// openEnded are the methods of requests that stay in flight until the host
// cancels them: a 2026-07-28 subscriptions/listen is a stream of
// notifications, answered only when it ends. Once the host closed our
// stdin, or the server is stopping, nobody will cancel it: the transport
// does, so that it is not waited for as a call would be (Claude Code 2.1
// leaves one open on every connection).
var openEnded = map[string]bool{"subscriptions/listen": true}

// endStreams is a cancel, for the SDK, of every open-ended request in
// flight not already cancelled. The request's own answer (the end of the
// stream) is still sent, to a host that reads it.
func (c *stdioConn) endStreams() []jsonrpc.Message {
	c.cmu.Lock()
	defer c.cmu.Unlock()
	var cancels []jsonrpc.Message
	for own, in := range c.pending {
		if !openEnded[in.method] || in.cancelled || in.ended {
			continue
		}
		in.ended = true
		params, err := json.Marshal(map[string]any{"requestId": own.Raw(), "reason": "the connection is ending"})
		if err == nil {
			cancels = append(cancels, &jsonrpc.Request{Method: methodCancelled, Params: params})
		}
	}
	return cancels
}

// handOver passes msgs to the SDK, unless the connection closes first.
func (c *stdioConn) handOver(msgs []jsonrpc.Message) {
	for _, msg := range msgs {
		select {
		case c.msgs <- msg:
		case <-c.done:
			return
		}
	}
}

// response decodes a client's answer to a request of ours (elicitation):
// those ids are the SDK's own integers, so they pass through.
func (c *stdioConn) response(data []byte, id json.RawMessage) jsonrpc.Message {
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		c.reply(id, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: " + err.Error()})
		return nil
	}
	return msg
}

// rawID checks a message's id: absent or null (nil, true), a string or a
// number (its exact text, true), anything else (nil, false).
func rawID(raw json.RawMessage) (json.RawMessage, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true
	}
	switch c := raw[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return raw, true
	}
	return nil, false
}

// refuse answers a well-formed request the transport does not take (an id
// in use, a second initialize, too many in flight) with rerr.
func (c *stdioConn) refuse(id json.RawMessage, rerr *jsonrpc.Error) {
	if rerr.Code == CodeBusy {
		c.logger.Debug("refused a request: too many in flight", "code", rerr.Code)
	} else {
		c.logger.Warn("refused a request", "code", rerr.Code, "reason", rerr.Message)
	}
	_ = c.writeLine(encodeResponse(id, nil, rerr))
}

// reply writes an error response for a line the SDK never saw, echoing its
// id exactly (null when it had none or an invalid one).
func (c *stdioConn) reply(id json.RawMessage, rerr *jsonrpc.Error) {
	c.logger.Warn("rejected malformed input", "code", rerr.Code, "reason", rerr.Message)
	if id == nil {
		id = json.RawMessage("null")
	}
	_ = c.writeLine(encodeResponse(id, nil, rerr))
}
