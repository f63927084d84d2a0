package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/find"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The catalog surface (docs/catalog.md): a CLI of 300 verbs is more than a
// model can be shown, so with --surface catalog tools/list holds only the
// manifest's core (surface.core) and two built-ins, aeat_mcp_find and
// aeat_mcp_call, through which the model reaches every other tool the
// server serves. Only the listed tools are ever registered with the SDK,
// each at its first call (registry.go, serveTools); a direct tools/call of
// an unlisted one is routed through aeat_mcp_call. --read-only and
// --tools still decide what is served, and aeat_mcp_call hands its inner
// call to the very handler a direct call of that tool runs — validation,
// secrets, the tool's confirmation gate, its tier and ceiling, detach and
// aeat_mcp_wait, tasks — so its result is that tool's result.

// Surfaces (--surface, AEAT_MCP_SURFACE).
const (
	// SurfaceAll lists every tool the server serves (the default).
	SurfaceAll = "all"
	// SurfaceCatalog lists the core and the catalog's built-ins.
	SurfaceCatalog = "catalog"
)

// The catalog's built-in tools.
const (
	ToolFind = annotations.ReservedPrefix + "find"
	ToolCall = annotations.ReservedPrefix + "call"
)

// Bounds of aeat_mcp_find's limit.
const (
	defaultFindLimit = 10
	maxFindLimit     = 50
)

// CheckSurface says what is wrong with a --surface value.
func CheckSurface(s string) error {
	if s == "" || s == SurfaceAll || s == SurfaceCatalog {
		return nil
	}
	return fmt.Errorf("--surface %q: must be %q (every tool listed) or %q (the manifest's surface.core, aeat_mcp_find and aeat_mcp_call)", s, SurfaceAll, SurfaceCatalog)
}

// catalog is what the catalog surface keeps: which manifest tools tools/list
// holds, and the ranking's index of every tool it can reach (package find;
// built on the first aeat_mcp_find: a server that is never asked pays
// nothing at start-up).
type catalog struct {
	listed    map[string]bool
	indexOnce sync.Once
	index     *find.Index
}

// Listed are the manifest tools a server with cfg puts in tools/list: every
// tool it serves, or, on the catalog surface, the manifest's surface.core
// among them — or, for a manifest without one, the tools --tools selects
// when it is given (none otherwise: aeat_mcp_find finds them all). Under
// --read-only and --tools a core tool they leave out is not listed either.
func Listed(cfg Config) []*annotations.Tool {
	var out []*annotations.Tool
	core := map[string]bool{}
	for _, n := range cfg.Manifest.Surface.Core {
		core[n] = true
	}
	for _, t := range cfg.Manifest.Tools {
		if hiddenBecause(&cfg, t) != "" {
			continue
		}
		switch {
		case cfg.Surface != SurfaceCatalog,
			core[t.Name],
			len(core) == 0 && cfg.Select.Restricts():
			out = append(out, t)
		}
	}
	return out
}

// newCatalog is the catalog surface's state for cfg; nil on the default
// surface.
func newCatalog(cfg Config) *catalog {
	if cfg.Surface != SurfaceCatalog {
		return nil
	}
	c := &catalog{listed: map[string]bool{}}
	for _, t := range Listed(cfg) {
		c.listed[t.Name] = true
	}
	return c
}

// lists reports whether tools/list holds the served tool called name:
// every one on the default surface (a nil catalog).
func (c *catalog) lists(name string) bool { return c == nil || c.listed[name] }

// catalogTools are the entries of aeat_mcp_find and aeat_mcp_call
// (registry.go), on the catalog surface; s.tools holds the served tools.
// aeat_mcp_call may become a task when a tool it reaches may.
func (s *Server) catalogTools() []serverTool {
	hints := s.callHints()
	find := annotations.NewBuiltin(ToolFind, "Find a tool",
		fmt.Sprintf("Finds, among the %d tools this server serves (only some are listed), those whose name, title, description or parameters match the query's words, best first: "+
			"each with its title, description, tier, hints and input schema. Call one with %s (or directly by its name).", len(s.tools), ToolCall),
		annotations.Hints{ReadOnly: true, Idempotent: true},
		annotations.Param{Name: "query", Type: "string", Required: true, MinLength: ptr(1),
			Description: "Words for what the tool should do or be about (e.g. \"ledger categories\", \"notificaciones\")."},
		annotations.Param{Name: "limit", Type: "integer", Minimum: ptr(1.0), Maximum: ptr(float64(maxFindLimit)),
			Description: fmt.Sprintf("How many tools to return at most (default %d).", defaultFindLimit)})
	call := annotations.NewBuiltin(ToolCall, "Call a tool by name",
		"Calls any tool this server serves — listed or found with "+ToolFind+" — by its name, with its arguments as its input schema says. "+
			"It is exactly a direct call of that tool: the same checks, the same confirmation of destructive tools, the same time ceiling, and that tool's result.",
		hints,
		annotations.Param{Name: "tool", Type: "string", Required: true, Description: "The tool's name, as " + ToolFind + " gives it."},
		annotations.Param{Name: "arguments", Type: "object", Description: "The tool's arguments (default: none)."})
	return []serverTool{
		{tool: find, handle: s.find, listed: true},
		{tool: call, handle: s.callThrough, task: !hints.ReadOnly, listed: true},
	}
}

// callHints are aeat_mcp_call's own hints: the most cautious of the tools
// it can reach — read-only and idempotent only when all of them are,
// destructive and open-world when any is.
func (s *Server) callHints() annotations.Hints {
	h := annotations.Hints{ReadOnly: true, Idempotent: true}
	for _, t := range s.tools {
		h.ReadOnly = h.ReadOnly && t.Hints.ReadOnly
		h.Idempotent = h.Idempotent && t.Hints.Idempotent
		h.Destructive = h.Destructive || t.Hints.Destructive
		h.OpenWorld = h.OpenWorld || t.Hints.OpenWorld
	}
	return h
}

// throughCall is a direct tools/call of a served tool the catalog surface
// does not list (so never registered with the SDK) made a call of
// aeat_mcp_call, which runs it with the tool's own handler (route). No
// arguments, or null, are none, as for a direct call. False for arguments
// that are no object: aeat_mcp_call would refuse them as its own, and the
// tool's own handler must, as it would a direct call's.
func throughCall(ctr *mcp.CallToolRequest) (*mcp.CallToolRequest, bool) {
	args := bytes.TrimSpace(ctr.Params.Arguments)
	switch {
	case len(args) == 0 || string(args) == "null":
		args = nil
	case args[0] != '{':
		return nil, false
	}
	wrapped, err := json.Marshal(struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
	}{ctr.Params.Name, args})
	if err != nil { // not JSON: the tool's own handler says so
		return nil, false
	}
	params := *ctr.Params
	params.Name, params.Arguments = ToolCall, wrapped
	routed := *ctr
	routed.Params = &params
	return &routed, true
}

// catalogInstructions is what the instructions add on the catalog surface.
func (s *Server) catalogInstructions() string {
	if s.cfg.Surface != SurfaceCatalog {
		return ""
	}
	listed := len(Listed(s.cfg))
	return fmt.Sprintf(" Only %d of the %d tools are listed: %s finds the others by words (name, title, description, parameters) "+
		"and %s calls any of them by name, exactly as a direct call would.", listed, len(s.Tools()), ToolFind, ToolCall)
}

// foundTool is one tool in aeat_mcp_find's answer.
type foundTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	Tier        string          `json:"tier"`
	Listed      bool            `json:"listed"`
	Annotations hintsView       `json:"annotations"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

type hintsView struct {
	ReadOnly    bool `json:"readOnlyHint"`
	Destructive bool `json:"destructiveHint"`
	Idempotent  bool `json:"idempotentHint"`
	OpenWorld   bool `json:"openWorldHint"`
}

// findAnswer is aeat_mcp_find's structured result, and its text.
type findAnswer struct {
	Tools []foundTool `json:"tools"`
	// Matched is how many tools matched in all; Left how many of them,
	// beyond the limit or the result's size bound, are not in Tools.
	Matched int `json:"matched"`
	Left    int `json:"left"`
}

// find is aeat_mcp_find.
func (s *Server) find(_ context.Context, rq *request, args annotations.Args) *mcp.CallToolResult {
	query, _ := args.Text("query") // required: Validate saw it
	if !find.HasWords(query) {
		return rq.invalid(&annotations.ValidationError{Field: "query", Msg: fmt.Sprintf("%q has no word to look for in tool names, titles, descriptions or parameters", query)})
	}
	limit := defaultFindLimit
	if n, ok := args.Number("limit"); ok {
		limit = int(n) // an integer from 1 to maxFindLimit (Validate)
	}
	answer := s.findTools(query, limit)
	// The answer is JSON for a model to read: it is cut by whole tools,
	// never in the middle, to stay within --max-result-bytes.
	for {
		text, _ := json.Marshal(answer)
		if len(text) <= s.cfg.MaxResultBytes || len(answer.Tools) == 0 {
			return rq.finish(CodeOK, string(text), answer)
		}
		answer.Tools = answer.Tools[:len(answer.Tools)-1]
		answer.Left++
	}
}

// findTools ranks the tools the server serves against query (package
// find).
func (s *Server) findTools(query string, limit int) findAnswer {
	cat := s.catalog
	cat.indexOnce.Do(func() { cat.index = find.NewIndex(s.Tools(), s.cfg.Manifest.CLI.Command) })
	hits := cat.index.Rank(query)
	answer := findAnswer{Tools: []foundTool{}, Matched: len(hits)}
	for i, t := range hits {
		if i == limit {
			answer.Left = len(hits) - limit
			break
		}
		answer.Tools = append(answer.Tools, foundTool{Name: t.Name, Title: t.Title, Description: t.Description,
			Tier: string(t.Tier()), Listed: cat.listed[t.Name], InputSchema: t.InputSchemaJSON(),
			Annotations: hintsView{t.Hints.ReadOnly, t.Hints.Destructive, t.Hints.Idempotent, t.Hints.OpenWorld}})
	}
	return answer
}

// callThrough is aeat_mcp_call: the named tool's own handler runs the
// request as if it had been a direct tools/call of that tool — the same
// session, progress token, task mark and confirmation answers — so nothing
// of the direct path is done twice or differently here. Only what a direct
// call could not get wrong is checked first: that the tool is one this
// server serves.
func (s *Server) callThrough(ctx context.Context, rq *request, args annotations.Args) *mcp.CallToolResult {
	name, _ := args.Text("tool") // required: Validate saw it
	st, served := s.table().registry[name]
	switch {
	case served && !st.tool.Builtin():
	case s.hidden[name] != nil:
		return s.hiddenRefusal(s.hidden[name], rq.req)
	case served:
		return rq.invalid(&annotations.ValidationError{Field: "tool", Msg: fmt.Sprintf("%q is one of aeat-mcp's own tools: call it directly", name)})
	default:
		return rq.invalid(&annotations.ValidationError{Field: "tool", Msg: fmt.Sprintf("no tool %q is served here; %s finds the tools there are", name, ToolFind)})
	}
	// The inner arguments as the client wrote them: Validate read the
	// request's arguments as an object with no other keys.
	var own struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(rq.args, &own)
	params := *rq.req.Params
	params.Name = name
	params.Arguments = own.Arguments
	inner := *rq.req
	inner.Params = &params
	return s.newRequest(st.tool, &inner).answer(ctx, st.handle)
}
