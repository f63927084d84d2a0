package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The catalog surface (docs/catalog.md): a CLI of 300 verbs is more than a
// model can be shown, so with --surface catalog tools/list holds only the
// manifest's core (surface.core) and two built-ins, aeat_mcp_find and
// aeat_mcp_call, through which the model reaches every other tool the
// server serves. Only the listed tools are registered with the SDK (at 300
// tools, registering is most of a server's start-up); a direct tools/call
// of an unlisted one is routed through aeat_mcp_call. --read-only and
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
// holds, and the words of every tool it can reach (built on the first
// aeat_mcp_find: a server that is never asked pays nothing at start-up).
type catalog struct {
	listed    map[string]bool
	indexOnce sync.Once
	index     rankIndex
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

// addCatalog registers aeat_mcp_find and aeat_mcp_call, and routes a
// direct call of an unlisted tool through aeat_mcp_call; New calls it on
// the catalog surface, once the served tools are known.
func (s *Server) addCatalog() {
	hints := s.callHints()
	s.mcp.AddTool(&mcp.Tool{
		Name:  ToolFind,
		Title: "Find a tool",
		Description: fmt.Sprintf("Finds, among the %d tools this server serves (only some are listed), those whose name, title, description or parameters match the query's words, best first: "+
			"each with its title, description, tier, hints and input schema. Call one with %s (or directly by its name).", len(s.tools), ToolCall),
		InputSchema: &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
			Required: []string{"query"},
			Properties: map[string]*jsonschema.Schema{
				"query": {Type: "string", MinLength: ptr(1), Description: "Words for what the tool should do or be about (e.g. \"ledger categories\", \"notificaciones\")."},
				"limit": {Type: "integer", Minimum: ptr(1.0), Maximum: ptr(float64(maxFindLimit)),
					Description: fmt.Sprintf("How many tools to return at most (default %d).", defaultFindLimit)},
			}},
		Annotations: &mcp.ToolAnnotations{Title: "Find a tool", ReadOnlyHint: true,
			DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, s.find)
	s.mcp.AddTool(&mcp.Tool{
		Name:  ToolCall,
		Title: "Call a tool by name",
		Description: "Calls any tool this server serves — listed or found with " + ToolFind + " — by its name, with its arguments as its input schema says. " +
			"It is exactly a direct call of that tool: the same checks, the same confirmation of destructive tools, the same time ceiling, and that tool's result.",
		InputSchema: &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
			Required: []string{"tool"},
			Properties: map[string]*jsonschema.Schema{
				"tool":      {Type: "string", Description: "The tool's name, as " + ToolFind + " gives it."},
				"arguments": {Type: "object", Description: "The tool's arguments (default: none)."},
			}},
		Annotations: &mcp.ToolAnnotations{Title: "Call a tool by name", ReadOnlyHint: hints.ReadOnly,
			DestructiveHint: ptr(hints.Destructive), IdempotentHint: hints.Idempotent, OpenWorldHint: ptr(hints.OpenWorld)},
	}, s.callThrough)
	s.mcp.AddReceivingMiddleware(s.callUnlisted)
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

// callUnlisted routes a direct tools/call of a served tool that is not
// listed (so not registered with the SDK) through aeat_mcp_call, which runs
// it as the tool's own handler: the same path, and the SDK's own handling of
// the result (input requests, an empty content), as any call.
func (s *Server) callUnlisted(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ctr, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || ctr.Params == nil || s.tools[ctr.Params.Name] == nil || s.catalog.lists(ctr.Params.Name) {
			return next(ctx, method, req)
		}
		args := ctr.Params.Arguments
		if len(bytes.TrimSpace(args)) == 0 {
			args = nil
		}
		wrapped, err := json.Marshal(struct {
			Tool      string          `json:"tool"`
			Arguments json.RawMessage `json:"arguments,omitempty"`
		}{ctr.Params.Name, args})
		if err != nil { // arguments the SDK read as JSON always encode
			return next(ctx, method, req)
		}
		params := *ctr.Params
		params.Name, params.Arguments = ToolCall, wrapped
		routed := *ctr
		routed.Params = &params
		return next(ctx, method, &routed)
	}
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

// catalogArgs are the arguments of aeat_mcp_find and aeat_mcp_call.
type catalogArgs struct {
	Query     *string         `json:"query"`
	Limit     *int            `json:"limit"`
	Tool      *string         `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// decodeCatalogArgs reads a catalog built-in's arguments strictly: an
// unknown or mistyped one is a ValidationError naming it.
func decodeCatalogArgs(raw json.RawMessage, into *catalogArgs, allowed ...string) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return &annotations.ValidationError{Msg: "arguments must be an object: " + err.Error()}
	}
	for k := range fields {
		known := false
		for _, a := range allowed {
			known = known || k == a
		}
		if !known {
			return &annotations.ValidationError{Field: k, Msg: "unknown argument; this tool takes " + strings.Join(allowed, ", ")}
		}
	}
	if err := json.Unmarshal(raw, into); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &annotations.ValidationError{Field: te.Field, Msg: fmt.Sprintf("must be %s, not %s", te.Type, te.Value)}
		}
		return &annotations.ValidationError{Msg: err.Error()}
	}
	return nil
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
func (s *Server) find(_ context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
	rq := s.newRequest(&annotations.Tool{Name: ToolFind}, req)
	defer func() {
		if p := recover(); p != nil {
			res, err = rq.panicked(p), nil
		}
	}()
	var a catalogArgs
	if err := decodeCatalogArgs(req.Params.Arguments, &a, "query", "limit"); err != nil {
		return rq.invalid(err), nil
	}
	limit := defaultFindLimit
	switch {
	case a.Query == nil:
		return rq.invalid(&annotations.ValidationError{Field: "query", Msg: "missing: give words for what the tool should do"}), nil
	case len(words(*a.Query)) == 0:
		return rq.invalid(&annotations.ValidationError{Field: "query", Msg: fmt.Sprintf("%q has no word to look for in tool names, titles, descriptions or parameters", *a.Query)}), nil
	case a.Limit != nil && (*a.Limit < 1 || *a.Limit > maxFindLimit):
		return rq.invalid(&annotations.ValidationError{Field: "limit", Msg: fmt.Sprintf("must be from 1 to %d, not %d", maxFindLimit, *a.Limit)}), nil
	case a.Limit != nil:
		limit = *a.Limit
	}
	answer := s.findTools(*a.Query, limit)
	// The answer is JSON for a model to read: it is cut by whole tools,
	// never in the middle, to stay within --max-result-bytes.
	for {
		text, _ := json.Marshal(answer)
		if len(text) <= s.cfg.MaxResultBytes || len(answer.Tools) == 0 {
			return rq.finish(CodeOK, string(text), answer), nil
		}
		answer.Tools = answer.Tools[:len(answer.Tools)-1]
		answer.Left++
	}
}

// findTools ranks the tools the server serves against query.
func (s *Server) findTools(query string, limit int) findAnswer {
	cat := s.catalog
	cat.indexOnce.Do(func() { cat.index = newRankIndex(s.Tools()) })
	hits := cat.index.rank(query)
	answer := findAnswer{Tools: []foundTool{}, Matched: len(hits)}
	for i, h := range hits {
		if i == limit {
			answer.Left = len(hits) - limit
			break
		}
		t := h.tool
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
func (s *Server) callThrough(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	rq := s.newRequest(&annotations.Tool{Name: ToolCall}, req) // a 2025-11-25 task is owed even to a refusal (owed)
	var a catalogArgs
	if err := decodeCatalogArgs(req.Params.Arguments, &a, "tool", "arguments"); err != nil {
		return rq.owed(rq.invalid(err)), nil
	}
	if a.Tool == nil {
		return rq.owed(rq.invalid(&annotations.ValidationError{Field: "tool", Msg: "missing: the name of the tool to call (" + ToolFind + " finds it)"})), nil
	}
	name := *a.Tool
	t := s.tools[name]
	switch {
	case t != nil:
	case s.hidden[name] != nil:
		return rq.owed(s.hiddenRefusal(s.hidden[name], req)), nil
	case strings.HasPrefix(name, annotations.ReservedPrefix):
		return rq.owed(rq.invalid(&annotations.ValidationError{Field: "tool", Msg: fmt.Sprintf("%q is one of aeat-mcp's own tools: call it directly", name)})), nil
	default:
		return rq.owed(rq.invalid(&annotations.ValidationError{Field: "tool", Msg: fmt.Sprintf("no tool %q is served here; %s finds the tools there are", name, ToolFind)})), nil
	}
	params := *req.Params
	params.Name = t.Name
	params.Arguments = a.Arguments
	inner := *req
	inner.Params = &params
	return s.handler(t)(ctx, &inner)
}
