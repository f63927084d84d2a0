package server

import (
	"context"
	"slices"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// # The tool registry
//
// Every tool this server serves — a manifest verb, a run tool (builtin.go),
// a catalog tool (catalog.go) — is one [serverTool] (after
// github-mcp-server's ServerTool): serverTools is the table, addTools the one
// loop that builds it, serveTools what lists it and registers each tool
// with the SDK at its first call, handler the one wrapper every call goes through,
// and the snapshot test the one loop that pins what hosts see of each. A
// new built-in is one entry in the table.

// serverTool is one tool this server serves.
type serverTool struct {
	// tool is what hosts see (mcpTool) and what the arguments are checked
	// against (Validate): a manifest verb, or a built-in made by
	// annotations.NewBuiltin.
	tool *annotations.Tool
	// handle is the tool's own work, given the arguments tool.Validate
	// accepted.
	handle func(ctx context.Context, rq *request, args annotations.Args) *mcp.CallToolResult
	// task: a host that speaks MCP Tasks may have a call of it answered
	// with a task (docs/ARCHITECTURE.md, "A task").
	task bool
	// listed tools are in tools/list, and registered with the SDK at
	// their first call (serveTools); a served tool the catalog surface
	// does not list is reached through aeat_mcp_call (route).
	listed bool
}

// serverTools is the table of every tool this server serves, in the order
// they are registered: the manifest's verbs it serves (listed or not), the
// run tools, and on the catalog surface aeat_mcp_find and aeat_mcp_call.
// s.tools holds the served verbs already: the catalog's tools describe them.
func (s *Server) serverTools() []serverTool {
	var out []serverTool
	for _, t := range s.Tools() {
		out = append(out, s.verb(t))
	}
	return append(out, s.builtinTools()...)
}

// builtinTools are the entries of aeat-mcp's own tools: the run tools, and
// on the catalog surface aeat_mcp_find and aeat_mcp_call.
func (s *Server) builtinTools() []serverTool {
	out := s.runTools()
	if s.catalog != nil {
		out = append(out, s.catalogTools()...)
	}
	return out
}

// builtinNames names the built-ins a server of cfg serves, in the table's
// order ([Inspection].BuiltIn), from the table itself: on a server that
// is never registered, whose entries are read for their names alone.
func builtinNames(cfg Config) []string {
	s := &Server{cfg: cfg, catalog: newCatalog(cfg)}
	var names []string
	for _, st := range s.builtinTools() {
		names = append(names, st.tool.Name)
	}
	return names
}

// verb is the entry of a tool that runs the CLI: a manifest verb, or
// doctor's health probe (probe.go). A READ call is quick, and answered as
// it is; a MUTATE or LIVE one may become a task.
func (s *Server) verb(t *annotations.Tool) serverTool {
	return serverTool{tool: t, task: t.Tier() != annotations.Read, listed: s.catalog.lists(t.Name),
		handle: func(ctx context.Context, rq *request, args annotations.Args) *mcp.CallToolResult {
			return rq.call(ctx, args)
		}}
}

// addTools sorts the manifest's tools into served and hidden, serves
// tools/list from the table (serveTools), and routes the calls of the
// tools the SDK has no handler for (route). The table itself is built at
// its first use (table): nothing of it is in the answer to initialize, and
// a host waits for that answer — the built-ins' entries (their schemas,
// their texts) and the table's map were 60 µs of every start before it.
func (s *Server) addTools() {
	for _, t := range s.cfg.Manifest.Tools {
		if s.hiddenBecause(t) == "" {
			s.tools[t.Name] = t
		} else {
			s.hidden[t.Name] = t
		}
	}
	// serveTools first: route hands it the calls it reroutes through
	// aeat_mcp_call.
	s.mcp.AddReceivingMiddleware(s.serveTools)
	if len(s.hidden) > 0 || s.catalog != nil {
		s.mcp.AddReceivingMiddleware(s.route)
	}
}

// toolTable is every tool a server serves (serverTools), by name, and the
// listed ones in the table's order.
type toolTable struct {
	registry map[string]serverTool
	listed   []serverTool
}

// buildTable builds the server's tool table; s.table calls it once, at
// the first use — of any request's goroutine, or the tasks transport's —
// and gives the same table from then on: what it is built from (the
// manifest, the configuration, s.tools) is fixed in New. It is a
// sync.OnceValue so that a panic here (a bad built-in pattern) panics
// again at every use, never leaving an empty table that says "no such
// tool" to every call.
func (s *Server) buildTable() *toolTable {
	t := &toolTable{registry: map[string]serverTool{}}
	for _, st := range s.serverTools() {
		t.registry[st.tool.Name] = st
		if st.listed {
			t.listed = append(t.listed, st)
		}
	}
	return t
}

// # Tools without the SDK's per-tool work
//
// Registering a tool with go-sdk v1.8.0 (Server.AddTool) re-encodes its
// input schema and decodes it again for x-mcp-header annotations, through
// a fresh decoder with a 32 KiB buffer each time: at 300 tools that was
// most of a start's CPU time. A host that lists the tools and calls a few
// need not pay it for all of them, so no tool is registered up front:
// serveTools answers tools/list from the table with the list the SDK would
// write — the same *mcp.Tool values (mcpTool), in the SDK's order (by
// name), in one page with no cursor (the SDK pages at
// mcp.DefaultPageSize, which this server leaves unchanged) and the same
// cacheable defaults; what the SDK adds outside its handlers (a
// 2026-07-28 result's resultType and server info) it still adds. A
// tools/call reaches the SDK as before, once registerTool has registered
// that one tool: the SDK's own dispatch — its unknown-tool error, its
// handling of input requests and of empty content — stays the only one.
// A tools/list with a cursor, and any tools/list of more tools than a page
// holds, is the SDK's own, with every listed tool registered first
// (TestToolsList_PagedAsTheSDKPages). The list's tools themselves reach
// the wire as bytes made once (listing.go).
// TestToolsList_ServedEqualsRegistered holds the two lists byte for byte.

// serveTools is the receiving middleware that serves tools/list and
// registers each tool at its first call.
func (s *Server) serveTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.ListToolsRequest:
			if r.Params == nil || r.Params.Cursor == "" {
				if res := s.toolsList(r.Extra); res != nil {
					return res, nil
				}
			}
			for _, st := range s.table().listed {
				s.registerTool(st)
			}
		case *mcp.CallToolRequest:
			if r.Params != nil {
				if st, ok := s.table().registry[r.Params.Name]; ok && st.listed {
					s.registerTool(st)
				}
			}
		}
		return next(ctx, method, req)
	}
}

// toolsList is the answer to a tools/list without a cursor, as the SDK
// would give it with every listed tool registered; nil when the SDK would
// page it. The answer to a request its transport awaits (x) is a
// placeholder with no tools: the transport puts them in (listing.go).
func (s *Server) toolsList(x *mcp.RequestExtra) *mcp.ListToolsResult {
	listed := s.table().listed
	if len(listed) > mcp.DefaultPageSize {
		return nil
	}
	if s.listings.claim(x) {
		return &mcp.ListToolsResult{Tools: []*mcp.Tool{}, Cacheable: mcp.Cacheable{CacheScope: "public"}}
	}
	s.listOnce.Do(func() {
		s.list = make([]*mcp.Tool, 0, len(listed))
		readListings(listed)
		for _, st := range listed {
			s.list = append(s.list, mcpTool(st.tool))
		}
		slices.SortFunc(s.list, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	})
	// A fresh result each time: the SDK writes a 2026-07-28 session's
	// server info into it. cacheScope "public" is the SDK's default
	// (ServerOptions.SetCacheable is not set).
	return &mcp.ListToolsResult{Tools: slices.Clone(s.list), Cacheable: mcp.Cacheable{CacheScope: "public"}}
}

// registerTool registers st with the SDK unless it is already; a caller
// that comes while it runs waits for it, so the SDK has the tool's handler
// before the call that needed it goes on.
func (s *Server) registerTool(st serverTool) {
	s.regMu.Lock()
	defer s.regMu.Unlock()
	if s.registered[st.tool.Name] {
		return
	}
	s.registered[st.tool.Name] = true
	// A *mcp.Tool of its own: addTool swaps its schema for a moment, and
	// tools/list may be encoding s.list's.
	s.addTool(mcpTool(st.tool), s.handler(st))
}

// handler is the one SDK handler of every tool. It never returns a Go
// error: a Go error becomes a JSON-RPC error (with code 0, in this SDK), and
// every failure of a call is a result the model can read.
func (s *Server) handler(st serverTool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return s.newRequest(st.tool, req).answer(ctx, st.handle), nil
	}
}

// answer is a call from its arguments to its result, for every tool alike:
// a tool whose params the manifest cache could not give refused
// (unreadable), the arguments read strictly by the tool's own Validate (a problem is an
// invalid_arguments result naming the field, in the same words for every
// tool), then handle; a panic turned into an "internal" result; and the
// task a 2025-11-25 requester is owed, even for a refusal.
func (rq *request) answer(ctx context.Context, handle func(context.Context, *request, annotations.Args) *mcp.CallToolResult) (res *mcp.CallToolResult) {
	defer func() {
		if p := recover(); p != nil {
			res = rq.panicked(p)
		}
		res = rq.owed(res)
	}()
	if err := rq.t.DetailErr(); err != nil {
		return rq.unreadable(err)
	}
	args, err := rq.t.Validate(rq.args)
	if err != nil {
		return rq.invalid(err)
	}
	return handle(ctx, rq, args)
}

// taskTool reports whether a call of the tool called name may be answered
// with a task (serverTool.task): the tasks transport asks it of every
// tools/call.
func (s *Server) taskTool(name string) bool {
	st, ok := s.table().registry[name]
	return s.tasks != nil && ok && st.task
}

// route answers the tools/call of a tool the SDK has no handler for. One
// --read-only or --tools hides gets the documented refusal (reason
// read_only or not_selected) rather than the SDK's "unknown tool": the
// model learns why, and that asking again will not help. A served tool the
// catalog surface does not list is called through aeat_mcp_call, which
// runs it with the tool's own handler: the same path, and the SDK's own
// handling of the result (input requests, an empty content), as any call;
// with arguments that are no object, its own handler refuses them at once.
func (s *Server) route(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ctr, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || ctr.Params == nil {
			return next(ctx, method, req)
		}
		if t := s.hidden[ctr.Params.Name]; t != nil {
			return s.hiddenRefusal(t, ctr), nil
		}
		if st, ok := s.table().registry[ctr.Params.Name]; ok && !st.listed {
			if routed, ok := throughCall(ctr); ok {
				return next(ctx, method, routed)
			}
			return s.handler(st)(ctx, ctr)
		}
		return next(ctx, method, req)
	}
}

// fixedTools is a transport on which the SDK's
// notifications/tools/list_changed never reach the host. A server's tool
// list never changes while it runs (a new manifest takes a new process);
// the one change the SDK would announce is a tool's registration at its
// first call (registerTool), which changes nothing a host sees. The tools
// capability stays as the SDK makes it (listChanged): a 2026-07-28 host's
// subscriptions/listen stays open, as it did.
type fixedTools struct{ mcp.Transport }

func (t fixedTools) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return fixedToolsConn{c}, nil
}

type fixedToolsConn struct{ mcp.Connection }

func (c fixedToolsConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Request); ok && !r.IsCall() && r.Method == "notifications/tools/list_changed" {
		return nil
	}
	return c.Connection.Write(ctx, msg)
}
