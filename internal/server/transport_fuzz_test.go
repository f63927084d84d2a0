package server

import (
	"bytes"
	"context"
	"encoding/json"
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
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		var out bytes.Buffer
		c := (&StdioTransport{Out: &out}).newConn()
		type owed struct {
			line      int
			own       jsonrpc.ID
			cancelled bool
		}
		var passed []*owed // requests the SDK was handed, in order
		byOwn := map[jsonrpc.ID]*owed{}
		answers := map[int][][]byte{} // ids of the answers to each line
		lines := bytes.Split(input, []byte("\n"))
		for i, line := range lines {
			out.Reset()
			msg := c.parse(line)
			answers[i] = append(answers[i], idsOf(t, out.Bytes())...)
			req, ok := msg.(*jsonrpc.Request)
			switch {
			case !ok:
			case req.ID.IsValid():
				n, isInt := req.ID.Raw().(int64)
				if !isInt || byOwn[req.ID] != nil || n <= 0 {
					t.Fatalf("line %d: the SDK got id %v, not a new one of the transport's own", i, req.ID.Raw())
				}
				o := &owed{line: i, own: req.ID}
				passed = append(passed, o)
				byOwn[req.ID] = o
			case req.Method == "notifications/cancelled":
				var p struct {
					RequestID any `json:"requestId"`
				}
				if err := json.Unmarshal(req.Params, &p); err != nil {
					t.Fatalf("line %d: a cancel passed on unreadable: %v", i, err)
				}
				own, err := jsonrpc.MakeID(p.RequestID)
				if err != nil || byOwn[own] == nil {
					t.Fatalf("line %d: a cancel passed on names %v, no request the SDK was handed", i, p.RequestID)
				}
				byOwn[own].cancelled = true
			}
		}
		for _, o := range passed {
			out.Reset()
			if err := c.Write(context.Background(), &jsonrpc.Response{ID: o.own, Result: json.RawMessage(`{}`)}); err != nil {
				t.Fatal(err)
			}
			answers[o.line] = append(answers[o.line], idsOf(t, out.Bytes())...)
		}
		cancelled := map[int]bool{}
		for _, o := range passed {
			cancelled[o.line] = o.cancelled
		}
		for i, line := range lines {
			id, request := lineID(line)
			got := answers[i]
			switch {
			case id != nil && request && cancelled[i]:
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
	})
}

// lineID is what a line is by JSON-RPC's own rules, decoded apart from the
// transport: its id, if it has one that is a string or a number (its exact
// text), and whether it is a request (it has a method).
func lineID(line []byte) (id json.RawMessage, request bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return nil, false
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
