package server

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/tasks"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// # tools/list as bytes made once
//
// Every answer the SDK writes is encoded by encoding/json, and a result's
// json.RawMessage is compacted again on the way (its bytes scanned one by
// one): for the whole aeat's 575 KB tools/list that, the tasks decorator's
// marking and one more copy were most of what a start of 300 tools cost
// over one of 19. The tools of that list never change while the server
// runs, so they are encoded once, each tool as the SDK encodes it (toolJSON;
// a manifest verb's comes from the manifest cache, encoded when the
// manifest was validated), and written into the answer as bytes.
//
// The SDK still answers the request — its checks of the session and of the
// request, its middleware, what it adds to a 2026-07-28 result — but
// serveTools gives it a placeholder: the same result with no tools. Under
// the tasks decorator, listedConn puts the tools into the encoded answer:
// the array made once, marked for a 2025-11-25 session as the tasks
// decorator would have ([tasks.MarksTools]). The two ends are joined by the
// *mcp.RequestExtra the transport puts on the request and the SDK hands the
// handler (listings): a Go pointer, nothing written into the message.
// TestToolsList_ServedEqualsRegistered holds the answer, byte for byte, to
// the SDK's own with every tool registered.

// listings are the tools/list requests a listedConn read and awaits the
// answer of, by the RequestExtra it gave each; true once serveTools
// answered one with the placeholder.
type listings struct {
	mu sync.Mutex
	m  map[*mcp.RequestExtra]bool
}

func (l *listings) expect(x *mcp.RequestExtra) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[*mcp.RequestExtra]bool{}
	}
	l.m[x] = false
}

// claim reports whether x is a request a listedConn awaits, and records
// that its answer is the placeholder.
func (l *listings) claim(x *mcp.RequestExtra) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.m[x]; !ok || x == nil {
		return false
	}
	l.m[x] = true
	return true
}

// done forgets x and reports whether its answer is the placeholder.
func (l *listings) done(x *mcp.RequestExtra) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	claimed := l.m[x]
	delete(l.m, x)
	return claimed
}

// listedTools is a transport whose tools/list answers get the server's
// tools made once (see above).
type listedTools struct {
	mcp.Transport
	s *Server
}

func (t listedTools) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &listedConn{Connection: c, s: t.s, pending: map[jsonrpc.ID]*mcp.RequestExtra{}}, nil
}

type listedConn struct {
	mcp.Connection
	s *Server

	mu sync.Mutex
	// pending pairs a tools/list read with its answer by id, which is
	// unique among the requests in flight on a connection: JSON-RPC says
	// so, and the stdio transport under this one gives every request an id
	// of its own (registerInbound). A transport that let a client reuse an
	// id in flight could have one of the two answered with no tools.
	pending map[jsonrpc.ID]*mcp.RequestExtra
}

func (c *listedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	req, ok := msg.(*jsonrpc.Request)
	if err != nil || !ok || !req.IsCall() || req.Method != "tools/list" {
		return msg, err
	}
	x, ok := req.Extra.(*mcp.RequestExtra)
	switch {
	case req.Extra == nil:
		x = &mcp.RequestExtra{}
		req.Extra = x
	case !ok || x == nil:
		return msg, nil // something else rides on it: the SDK answers alone
	}
	c.s.listings.expect(x)
	c.mu.Lock()
	c.pending[req.ID] = x
	c.mu.Unlock()
	return msg, nil
}

func (c *listedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		x, awaited := c.pending[resp.ID]
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		if awaited && c.s.listings.done(x) && resp.Error == nil {
			marked := tasks.MarksTools(ctx)
			if w, ok := c.Connection.(streamWriter); ok {
				if head, ok := toolsHead(resp.Result); ok {
					return w.writeStreamed(resp, c.s.toolsAnswer(head, marked))
				}
			}
			msg = &jsonrpc.Response{ID: resp.ID, Result: c.s.withTools(resp.Result, marked)}
		}
	}
	return c.Connection.Write(ctx, msg)
}

func (c *listedConn) Close() error {
	c.mu.Lock()
	for id, x := range c.pending {
		c.s.listings.done(x)
		delete(c.pending, id)
	}
	c.mu.Unlock()
	return c.Connection.Close()
}

// noTools ends the placeholder answer as encoding/json writes it:
// "tools" is the last field of mcp.ListToolsResult.
const noTools = `"tools":[]}`

// listedJSON are the listed tools as the SDK encodes them, in its order
// (by name), each with whether it may run as a task: encoded at most once
// a process, and not at all for a manifest verb the cache kept.
type listedJSON struct {
	once sync.Once
	// tools are each tool's bytes in parts, as the cache keeps them
	// (annotations.Tool.ListedParts: head, schema, tail) or as encoded
	// here (one part).
	tools [][3][]byte
	task  []bool
	// answers are the results made so far, by what the SDK wrote before
	// the tools and whether they are marked: one or two a process (an
	// answer's head is the same for every session of an era).
	mu      sync.Mutex
	answers []madeAnswer
}

type madeAnswer struct {
	head   string
	marked bool
	result json.RawMessage
}

// maxAnswers bounds the answers kept: a head never seen before is not
// expected, and is answered without being kept.
const maxAnswers = 4

// withTools is the placeholder result with the listed tools in it, each
// marked when marked (a 2025-11-25 session's), made once and kept.
// Nothing may write to it.
func (s *Server) withTools(result json.RawMessage, marked bool) json.RawMessage {
	head, ok := toolsHead(result)
	if !ok {
		// Not what the SDK writes: put the tools in by decoding it.
		var r map[string]json.RawMessage
		if json.Unmarshal(result, &r) != nil || r == nil {
			return result
		}
		r["tools"] = s.listedJSON().appendTools(nil, marked)
		out, _ := json.Marshal(r)
		return out
	}
	l := s.listedJSON()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, a := range l.answers {
		if a.marked == marked && a.head == string(head) {
			return a.result
		}
	}
	out := s.toolsAnswer(head, marked).made()
	if len(l.answers) < maxAnswers {
		l.answers = append(l.answers, madeAnswer{head: string(head), marked: marked, result: out})
	}
	return out
}

// toolsHead is what the SDK wrote of a placeholder result before its
// empty tools array, up to and with `"tools":`. Not ok when the result
// does not end as the SDK writes it (noTools).
func toolsHead(result json.RawMessage) (json.RawMessage, bool) {
	if !bytes.HasSuffix(result, []byte(noTools)) {
		return nil, false
	}
	return result[:len(result)-len(noTools)+len(`"tools":`)], true
}

// toolsAnswer is the placeholder result with the listed tools in it, in
// pieces: its head (toolsHead), the tools array, its closing brace.
func (s *Server) toolsAnswer(head json.RawMessage, marked bool) streamedResult {
	l := s.listedJSON()
	return func(piece func([]byte)) {
		piece(head)
		l.eachPiece(marked, piece)
		piece(closeObject)
	}
}

// streamedResult is a result given in its pieces, in order, to be written
// without being made whole (stdioConn.writeStreamed): the whole aeat's
// tools/list answer is 437 KB, a hundred fresh pages to make at a start,
// and its pieces are already in memory (the cache's sections).
type streamedResult func(piece func([]byte))

// made is the result made whole.
func (r streamedResult) made() json.RawMessage {
	n := 0
	r(func(p []byte) { n += len(p) })
	out := make([]byte, 0, n)
	r(func(p []byte) { out = append(out, p...) })
	return out
}

// streamWriter is a connection that writes a result in pieces: the
// stdio transport's.
type streamWriter interface {
	writeStreamed(resp *jsonrpc.Response, result streamedResult) error
}

// listedJSON is the server's listed tools as bytes, made at its first use.
func (s *Server) listedJSON() *listedJSON {
	l := &s.listedBytes
	l.once.Do(func() {
		sorted := slices.SortedFunc(slices.Values(s.table().listed), func(a, b serverTool) int { return strings.Compare(a.tool.Name, b.tool.Name) })
		l.tools, l.task = make([][3][]byte, 0, len(sorted)), make([]bool, 0, len(sorted))
		readListings(sorted)
		for _, st := range sorted {
			tool := [3][]byte{}
			if head, tail := st.tool.ListedParts(); head != nil {
				tool = [3][]byte{head, st.tool.InputSchemaJSON(), tail}
			} else {
				tool[0] = toolJSON(mcpTool(st.tool))
			}
			l.tools = append(l.tools, tool)
			l.task = append(l.task, s.taskTool(st.tool.Name))
		}
	})
	return l
}

// readListings reads the listed tools' schemas and listings from the
// manifest cache at once (annotations.ReadListings): one read of the
// file's sections for the whole aeat, not one per tool.
func readListings(listed []serverTool) {
	tools := make([]*annotations.Tool, len(listed))
	for i, st := range listed {
		tools[i] = st.tool
	}
	annotations.ReadListings(tools)
}

// marking is what tasks.MarkLast puts in place of a tool's closing brace:
// a tool's pieces are written without that byte, then these.
var marking = tasks.MarkLast([]byte("{}"))[1:]

// appendTools appends the tools array, the task tools marked when marked
// as the tasks decorator marks them.
func (l *listedJSON) appendTools(out []byte, marked bool) []byte {
	l.eachPiece(marked, func(p []byte) { out = append(out, p...) })
	return out
}

// eachPiece gives the tools array in its pieces, in order — the brackets
// and commas, each tool's parts as the cache keeps them (aliasing its
// sections: nothing may write to them), a task tool's marking when marked
// — so that it can be written without being made (stdioConn.writeStreamed)
// or made (appendTools) by the same steps.
func (l *listedJSON) eachPiece(marked bool, piece func([]byte)) {
	piece(openArray)
	for i, tool := range l.tools {
		if i > 0 {
			piece(comma)
		}
		last := 2
		for last > 0 && len(tool[last]) == 0 {
			last--
		}
		mark := marked && l.task[i]
		for k, part := range tool[:last+1] {
			if k == last && mark {
				part = part[:len(part)-1] // its closing brace, which the marking ends with
			}
			piece(part)
		}
		if mark {
			piece(marking)
		}
	}
	piece(closeArray)
}

// The pieces of JSON between a tools array's parts (package variables: a
// []byte("…") handed to a func value would be allocated at every piece).
var openArray, comma, closeArray, closeObject = []byte("["), []byte(","), []byte("]"), []byte("}")

// ListedJSON is a manifest tool as this server lists it, for the manifest
// cache to keep ([annotations.Cache.Listed]).
func ListedJSON(t *annotations.Tool) []byte { return toolJSON(mcpTool(t)) }

// toolJSON is t as the SDK encodes a tool into tools/list: encoding/json
// without HTML escapes.
func toolJSON(t *mcp.Tool) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t); err != nil {
		panic("server: a tool does not encode: " + err.Error()) // a *mcp.Tool of strings, bools and raw JSON always does
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}
