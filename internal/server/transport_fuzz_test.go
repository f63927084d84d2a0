package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzParse feeds the framing lines a host could send — one input is a
// few lines, so that ids can repeat and cancels can name earlier requests
// — and holds it to its promises:
//
//   - it never panics;
//   - every request with an id gets exactly one answer, echoing that id
//     byte for byte — from the transport at once, or, once the SDK
//     answers, with the SDK's answer — unless the client cancelled it,
//     which gets none;
//   - any other line is answered at most once: with its id, or with id
//     null when it has no usable one;
//   - the SDK sees only ids of the transport's own: every request passed
//     on carries one not given before, and a cancel passed on names one
//     of them.
//
// The SDK's side is played here: every request passed on is answered,
// after the whole input, in the order it came.
//
//	go test -run '^$' -fuzz FuzzParse -fuzztime 5m ./internal/server
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":7.5,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":7.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{"name":"x"}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"abc"}}`,
		`{"jsonrpc":"2.0","id":12345678901234567890,"method":"initialize","params":{}}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","ID":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3,"result":{}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":4,"method":null}`,
		`{"jsonrpc":"2.0","id":4}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"`,
		`"ping"`,
		`  {"jsonrpc" : "2.0", "id" : -0.5e3 , "method" : "ping"}  `,
		claudeListen + "\n" + claudeCancel,
		`{"jsonrpc":"2.0","id":"a\u0026","method":"ping"}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a\u0026","reason":1}}`,
		`{"jsonrpc":"2.0","params":` + strings.Repeat("[", maxNesting+1) + strings.Repeat("]", maxNesting+1) + `,"id":"deep","method":"ping"}`,
		`{"jsonrpc":"2.0","i\u0064":3,"params":` + strings.Repeat(`{"a":`, maxNesting) + "1" + strings.Repeat("}", maxNesting) + `,"method":"ping"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		lines := bytes.Split(input, []byte("\n"))
		h := newFuzzHost()
		for i, line := range lines {
			h.read(t, i, line)
		}
		h.answerAll(t)
		for i, line := range lines {
			h.check(t, i, line)
		}
	})
}

// fuzzHost is a transport's connection with the SDK's side played: the
// requests it was handed, and the answers written for each line.
type fuzzHost struct {
	out     bytes.Buffer
	c       *stdioConn
	passed  []*passedOn // requests the SDK was handed, in order
	byOwn   map[jsonrpc.ID]*passedOn
	answers map[int][][]byte // the ids of the answers to each line
}

// passedOn is a request the SDK was handed.
type passedOn struct {
	line      int
	own       jsonrpc.ID
	cancelled bool
}

func newFuzzHost() *fuzzHost {
	h := &fuzzHost{byOwn: map[jsonrpc.ID]*passedOn{}, answers: map[int][][]byte{}}
	h.c = (&StdioTransport{Out: &h.out}).newConn()
	return h
}

// read hands line i to the transport, as its read loop does, and notes
// what it answered and what it passed on.
func (h *fuzzHost) read(t *testing.T, i int, line []byte) {
	h.out.Reset()
	msg := h.c.parse(line)
	h.answers[i] = append(h.answers[i], idsOf(t, h.out.Bytes())...)
	req, ok := msg.(*jsonrpc.Request)
	switch {
	case !ok:
	case req.ID.IsValid():
		if n, isInt := req.ID.Raw().(int64); !isInt || h.byOwn[req.ID] != nil || n <= 0 {
			t.Fatalf("line %d: the SDK got id %v, not a new one of the transport's own", i, req.ID.Raw())
		}
		o := &passedOn{line: i, own: req.ID}
		h.passed = append(h.passed, o)
		h.byOwn[req.ID] = o
	case req.Method == "notifications/cancelled":
		var p struct {
			RequestID any `json:"requestId"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil {
			t.Fatalf("line %d: a cancel passed on unreadable: %v", i, err)
		}
		own, err := jsonrpc.MakeID(p.RequestID)
		if err != nil || h.byOwn[own] == nil {
			t.Fatalf("line %d: a cancel passed on names %v, no request the SDK was handed", i, p.RequestID)
		}
		h.byOwn[own].cancelled = true
	}
}

// answerAll answers, as the SDK, every request it was handed.
func (h *fuzzHost) answerAll(t *testing.T) {
	for _, o := range h.passed {
		h.out.Reset()
		if err := h.c.Write(context.Background(), &jsonrpc.Response{ID: o.own, Result: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
		h.answers[o.line] = append(h.answers[o.line], idsOf(t, h.out.Bytes())...)
	}
}

// cancelled reports whether line i was a request the client cancelled.
func (h *fuzzHost) cancelled(i int) bool {
	for _, o := range h.passed {
		if o.line == i {
			return o.cancelled
		}
	}
	return false
}

// check holds the answers to line i to what the line is.
func (h *fuzzHost) check(t *testing.T, i int, line []byte) {
	id, request := lineID(line)
	got := h.answers[i]
	switch {
	case id != nil && request && h.cancelled(i):
		if len(got) != 0 {
			t.Errorf("line %d %q: cancelled, yet answered %q", i, line, got)
		}
	case id != nil && request:
		if len(got) != 1 || !bytes.Equal(got[0], id) {
			t.Errorf("line %d %q: want one answer with id %s, got %q", i, line, id, got)
		}
	default: // a response, a notification, or no message at all
		if id == nil {
			id = json.RawMessage("null")
		}
		if len(got) > 1 || len(got) == 1 && !bytes.Equal(got[0], id) {
			t.Errorf("line %d %q: want at most one answer, with id %s; got %q", i, line, id, got)
		}
	}
}

// lineID is what a line is by JSON-RPC's own rules, decoded apart from the
// transport: its id, if it has one that is a string or a number (its exact
// text), and whether it is a request (it has a method). A line too deep
// for encoding/json to decode is read token by token, which has no depth
// limit.
func lineID(line []byte) (id json.RawMessage, request bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		if m = topMembers(line); m == nil {
			return nil, false
		}
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(m["id"]))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return nil, false
	}
	_, request = m["method"]
	switch v.(type) {
	case string, json.Number:
		return m["id"], request
	}
	return nil, false
}

// idsOf is the id, exactly as written, of each line the transport wrote.
func idsOf(t *testing.T, written []byte) [][]byte {
	t.Helper()
	var ids [][]byte
	for _, line := range bytes.Split(bytes.TrimSuffix(written, []byte("\n")), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var m struct {
			Version string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(line, &m); err != nil || m.Version != "2.0" || m.ID == nil {
			t.Fatalf("the transport wrote %q: not a JSON-RPC response", line)
		}
		ids = append(ids, m.ID)
	}
	return ids
}

// topMembers reads a line that is one JSON object by its tokens: each
// top-level member, its value as written (with the space before it, which
// lineID's decoding skips); nil when the line is anything else.
func topMembers(line []byte) map[string]json.RawMessage {
	d := json.NewDecoder(bytes.NewReader(line))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	m := map[string]json.RawMessage{}
	for d.More() {
		key, err := d.Token()
		if err != nil {
			return nil
		}
		start := d.InputOffset()
		if skipValue(d) != nil {
			return nil
		}
		m[key.(string)] = bytes.TrimLeft(line[start:d.InputOffset()], " \t\r\n:")
	}
	if tok, err := d.Token(); err != nil || tok != json.Delim('}') {
		return nil
	}
	if _, err := d.Token(); err != io.EOF {
		return nil // more after the object
	}
	return m
}

// skipValue reads one value's tokens, however deep.
func skipValue(d *json.Decoder) error {
	depth := 0
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
