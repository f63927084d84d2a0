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
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLine bounds one inbound JSON-RPC line. The TypeScript SDK drops
// messages over 10 MiB, so anything a host sends fits.
const DefaultMaxLine = 16 << 20

// StdioTransport is an [mcp.Transport] over newline-delimited JSON that a
// real host cannot knock over. The SDK's own stdio transport ends the process
// on invalid JSON, a batch, or "jsonrpc":"1.0", and answers some errors with
// code 0; this one answers each malformed line with the JSON-RPC error the
// spec names (-32700 parse error, -32600 invalid request) and keeps reading,
// and rewrites a code-0 error from the SDK into a proper code.
type StdioTransport struct {
	In  io.Reader
	Out io.Writer
	// MaxLine bounds one line; longer lines are answered -32600 and
	// skipped. If zero, DefaultMaxLine.
	MaxLine int
	// OnEOF, if set, is called once when In ends (the host closed our
	// stdin): the server's cue to stop its calls.
	OnEOF  func()
	Logger *slog.Logger
}

// Connect implements [mcp.Transport].
func (t *StdioTransport) Connect(context.Context) (mcp.Connection, error) {
	max := t.MaxLine
	if max <= 0 {
		max = DefaultMaxLine
	}
	logger := t.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	c := &stdioConn{
		out:    t.Out,
		msgs:   make(chan jsonrpc.Message),
		done:   make(chan struct{}),
		eof:    make(chan struct{}),
		logger: logger,
	}
	go c.readLoop(t.In, max, t.OnEOF)
	return c, nil
}

type stdioConn struct {
	wmu     sync.Mutex
	out     io.Writer
	msgs    chan jsonrpc.Message
	done    chan struct{} // closed by Close
	eof     chan struct{} // closed when input ends
	readErr error
	once    sync.Once
	logger  *slog.Logger

	// pending maps the ids of requests not yet answered to whether the
	// client cancelled them: the spec says a cancelled request SHOULD NOT
	// be answered, and the SDK still answers. Only pending ids count, so a
	// late cancel cannot swallow the answer to a later request reusing
	// the id.
	cmu     sync.Mutex
	pending map[jsonrpc.ID]bool
}

func (c *stdioConn) SessionID() string { return "" }

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.msgs:
		return m, nil
	case <-c.eof:
		return nil, c.readErr
	case <-c.done:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.cmu.Lock()
		dropped := c.pending[resp.ID]
		delete(c.pending, resp.ID)
		c.cmu.Unlock()
		if dropped {
			return nil
		}
		if resp.Error != nil {
			resp.Error = properCode(resp.Error)
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding message: %w", err)
	}
	return c.writeLine(data)
}

func (c *stdioConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.done) })
	return nil
}

// properCode gives a JSON-RPC error a code from the spec when the SDK left it
// at 0 (or another non-standard value for a standard condition).
func properCode(err error) error {
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	if we.Code != 0 {
		return err
	}
	msg := strings.ToLower(we.Message)
	code := int64(jsonrpc.CodeInternalError)
	switch {
	case strings.Contains(msg, "unsupported") || strings.Contains(msg, "not handled") ||
		strings.Contains(msg, "method not found") || strings.Contains(msg, "unknown method"):
		code = jsonrpc.CodeMethodNotFound
	case strings.Contains(msg, "unmarshal") || strings.Contains(msg, "invalid params") ||
		strings.Contains(msg, "unknown tool") || strings.Contains(msg, "missing") ||
		strings.Contains(msg, "cannot unmarshal") || strings.Contains(msg, "invalid"):
		code = jsonrpc.CodeInvalidParams
	}
	return &jsonrpc.Error{Code: code, Message: we.Message, Data: we.Data}
}

// readLoop reads lines until In ends, answering malformed ones itself.
func (c *stdioConn) readLoop(in io.Reader, max int, onEOF func()) {
	r := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		switch {
		case tooLong:
			// Skip the rest of an oversized line.
		case len(line)+len(chunk) > max:
			tooLong = true
			line = line[:0]
			c.reply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes", max))
		default:
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if !tooLong && len(line) > 0 {
			if msg := c.parse(line); msg != nil {
				select {
				case c.msgs <- msg:
				case <-c.done:
					return
				}
			}
		}
		line = line[:0]
		tooLong = false
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF
			}
			c.readErr = err
			close(c.eof)
			if onEOF != nil {
				onEOF()
			}
			return
		}
	}
}

// parse turns one line into a message, or answers it with an error and
// returns nil.
func (c *stdioConn) parse(line []byte) jsonrpc.Message {
	data := bytes.TrimSpace(line)
	if len(data) == 0 {
		return nil
	}
	if !json.Valid(data) {
		c.reply(nil, jsonrpc.CodeParseError, "parse error: the line is not valid JSON")
		return nil
	}
	switch data[0] {
	case '[':
		c.reply(nil, jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported")
		return nil
	case '{':
	default:
		c.reply(nil, jsonrpc.CodeInvalidRequest, "invalid request: a message must be a JSON object")
		return nil
	}
	var probe struct {
		Version *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(data, &probe) // valid JSON object: cannot fail
	id, idOK := parseID(probe.ID)
	switch {
	case !idOK:
		c.reply(nil, jsonrpc.CodeInvalidRequest, "invalid request: id must be a string or a number")
		return nil
	case probe.Version == nil || *probe.Version != "2.0":
		c.reply(id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
		return nil
	case probe.Method == nil && probe.Result == nil && probe.Error == nil:
		c.reply(id, jsonrpc.CodeInvalidRequest, "invalid request: no method")
		return nil
	case probe.Method != nil:
		var m string
		if json.Unmarshal(probe.Method, &m) != nil || m == "" {
			c.reply(id, jsonrpc.CodeInvalidRequest, "invalid request: method must be a non-empty string")
			return nil
		}
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		c.reply(id, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil
	}
	if req, ok := msg.(*jsonrpc.Request); ok {
		switch {
		case req.IsCall():
			c.cmu.Lock()
			if c.pending == nil {
				c.pending = map[jsonrpc.ID]bool{}
			}
			c.pending[req.ID] = false
			c.cmu.Unlock()
		case req.Method == "notifications/cancelled":
			c.noteCancelled(req.Params)
		}
	}
	return msg
}

// noteCancelled remembers the id a notifications/cancelled names.
func (c *stdioConn) noteCancelled(params json.RawMessage) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil || !id.IsValid() {
		return
	}
	c.cmu.Lock()
	if _, ok := c.pending[id]; ok {
		c.pending[id] = true
	}
	c.cmu.Unlock()
}

// parseID reads a request id: absent or null (nil, true), a string or a
// number (the id, true), anything else (nil, false).
func parseID(raw json.RawMessage) (any, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, false
	}
	switch v.(type) {
	case string, float64:
		return v, true
	}
	return nil, false
}

// reply writes an error response for a line the SDK never saw.
func (c *stdioConn) reply(id any, code int64, message string) {
	c.logger.Warn("rejected malformed input", "code", code, "reason", message)
	data, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": code, "message": message},
	})
	_ = c.writeLine(data)
}
