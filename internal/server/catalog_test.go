package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The catalog surface (docs/catalog.md): tools/list holds the core and the
// catalog's built-ins; aeat_mcp_find finds the rest; aeat_mcp_call and a
// direct call reach them through the one path every call takes.

// catalogServer serves the test manifest on the catalog surface with core
// as its surface.core, counting the processes it starts.
func catalogServer(t *testing.T, core []string, adjust ...func(*Config)) (*Server, *atomic.Int32) {
	t.Helper()
	s := newServer(t, func(c *Config) {
		c.Surface = SurfaceCatalog
		c.Manifest.Surface.Core = core
		for _, a := range adjust {
			a(c)
		}
	})
	started := &atomic.Int32{}
	s.beforeRun = func(string) { started.Add(1) }
	return s, started
}

func listedNames(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	out := map[string]*mcp.Tool{}
	for _, tl := range list.Tools {
		out[tl.Name] = tl
	}
	return out
}

func names(m map[string]*mcp.Tool) []string {
	var out []string
	for n := range m {
		out = append(out, n)
	}
	return out
}

// found is aeat_mcp_find's structured answer.
func found(t *testing.T, cs *mcp.ClientSession, args map[string]any) findAnswer {
	t.Helper()
	res := callTool(t, cs, ToolFind, args)
	require.False(t, res.IsError, text(res))
	var a findAnswer
	require.NoError(t, json.Unmarshal([]byte(text(res)), &a), "the text is the answer's JSON")
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	assert.JSONEq(t, text(res), string(raw), "text and structuredContent agree")
	return a
}

func TestCatalog_ListsTheCore(t *testing.T) {
	s, _ := catalogServer(t, []string{"read_echo", "live_quick"})
	cs := connect(t, s, "2025-11-25", nil)
	listed := listedNames(t, cs)
	assert.ElementsMatch(t, []string{"read_echo", "live_quick", ToolFind, ToolCall, ToolWait, ToolCancel, ToolRuns}, names(listed))

	// aeat_mcp_call's hints are the most cautious of what it reaches.
	call := listed[ToolCall].Annotations
	assert.False(t, call.ReadOnlyHint)
	assert.True(t, *call.DestructiveHint, "destroy is reachable")
	assert.True(t, *call.OpenWorldHint)
	assert.False(t, call.IdempotentHint)
	find := listed[ToolFind].Annotations
	assert.True(t, find.ReadOnlyHint)
	assert.False(t, *find.OpenWorldHint)

	// The instructions name the listed tools only, and say how to reach
	// the rest.
	instr := cs.InitializeResult().Instructions
	assert.Contains(t, instr, "read_echo")
	assert.NotContains(t, instr, "mutate_store")
	assert.Contains(t, instr, fmt.Sprintf("Only 2 of the %d tools are listed", len(s.Tools())))

	// --read-only: aeat_mcp_call reaches only read-only tools, and says so.
	ro, _ := catalogServer(t, []string{"read_echo", "destroy"}, func(c *Config) { c.ReadOnly = true })
	listed = listedNames(t, connect(t, ro, "", nil))
	assert.ElementsMatch(t, []string{"read_echo", ToolFind, ToolCall, ToolWait, ToolCancel, ToolRuns}, names(listed), "a core tool --read-only hides is not listed")
	assert.True(t, listed[ToolCall].Annotations.ReadOnlyHint)
	assert.False(t, *listed[ToolCall].Annotations.DestructiveHint)

	// No surface.core: with --tools, what it selects is listed; without,
	// only the built-ins.
	sel, err := annotations.ParseSelection([]string{"read_*"})
	require.NoError(t, err)
	bySel, _ := catalogServer(t, nil, func(c *Config) { c.Select = sel })
	listed = listedNames(t, connect(t, bySel, "", nil))
	assert.Contains(t, names(listed), "read_echo")
	assert.NotContains(t, names(listed), "live_quick")
	none, _ := catalogServer(t, nil)
	assert.ElementsMatch(t, []string{ToolFind, ToolCall, ToolWait, ToolCancel, ToolRuns}, names(listedNames(t, connect(t, none, "", nil))))

	// The all surface (the default) is unchanged by a surface.core.
	all := newServer(t, func(c *Config) { c.Manifest.Surface.Core = []string{"read_echo"} })
	assert.Len(t, listedNames(t, connect(t, all, "", nil)), len(all.Tools())+3)
}

func TestCatalog_FindThenCall(t *testing.T) {
	for _, era := range eras {
		t.Run(eraName(era), func(t *testing.T) {
			s, started := catalogServer(t, []string{"read_echo"})
			cs := connect(t, s, era, nil)

			a := found(t, cs, map[string]any{"query": "argv year period"})
			require.NotEmpty(t, a.Tools)
			top := a.Tools[0]
			assert.Equal(t, "read_argv", top.Name, "matched by its params")
			assert.False(t, top.Listed)
			assert.Equal(t, "read", top.Tier)
			assert.True(t, top.Annotations.ReadOnly)
			var schema map[string]any
			require.NoError(t, json.Unmarshal(top.InputSchema, &schema))
			assert.Contains(t, schema["properties"], "year", "the input schema, to call it with")

			args := map[string]any{"year": 2025, "period": "1T", "tags": []any{"a", "b"}}
			through := callTool(t, cs, ToolCall, map[string]any{"tool": "read_argv", "arguments": args})
			require.False(t, through.IsError, text(through))
			direct := callTool(t, cs, "read_argv", args)
			require.False(t, direct.IsError, "a selected but unlisted tool is called directly too: %s", text(direct))
			assert.Equal(t, withoutDuration(t, direct), withoutDuration(t, through), "the inner tool's result, exactly")
			assert.Equal(t, "read_argv", outcome(t, through).Tool)
			assert.Equal(t, int32(2), started.Load())

			// No arguments at all: the inner tool's defaults.
			res := callTool(t, cs, ToolCall, map[string]any{"tool": "read_json"})
			assert.False(t, res.IsError, text(res))
		})
	}
}

// TestCatalog_Refusals: what aeat_mcp_call refuses itself names its own
// field; what the inner tool refuses is the inner tool's refusal, naming
// the inner tool's fields; nothing starts.
func TestCatalog_Refusals(t *testing.T) {
	sel, err := annotations.ParseSelection([]string{"!mutate_*"})
	require.NoError(t, err)
	s, started := catalogServer(t, []string{"read_echo"}, func(c *Config) { c.Select = sel })
	cs := connect(t, s, "", nil)
	for _, tc := range []struct {
		name  string
		args  any
		tool  string // the outcome's
		code  Code
		field string
	}{
		{"unknown tool", map[string]any{"tool": "nope"}, ToolCall, CodeInvalidArguments, "tool"},
		{"no tool", map[string]any{"arguments": map[string]any{}}, ToolCall, CodeInvalidArguments, "tool"},
		{"a built-in", map[string]any{"tool": ToolWait, "arguments": map[string]any{"run_id": "r-0000000000000000"}}, ToolCall, CodeInvalidArguments, "tool"},
		{"itself", map[string]any{"tool": ToolCall}, ToolCall, CodeInvalidArguments, "tool"},
		{"an unknown argument of its own", map[string]any{"tool": "read_echo", "args": map[string]any{}}, ToolCall, CodeInvalidArguments, "args"},
		{"tool not a string", map[string]any{"tool": 5}, ToolCall, CodeInvalidArguments, "tool"},
		{"the inner tool's unknown argument", map[string]any{"tool": "read_argv", "arguments": map[string]any{"yaer": 2025}}, "read_argv", CodeInvalidArguments, "yaer"},
		{"the inner tool's bad value", map[string]any{"tool": "read_argv", "arguments": map[string]any{"year": "soon"}}, "read_argv", CodeInvalidArguments, "year"},
		{"the inner tool's missing argument", map[string]any{"tool": "destroy_entry", "arguments": map[string]any{}}, "destroy_entry", CodeInvalidArguments, "id"},
		{"arguments not an object", map[string]any{"tool": "read_argv", "arguments": "year=2025"}, ToolCall, CodeInvalidArguments, "arguments"},
		{"a tool --tools leaves out", map[string]any{"tool": "mutate_store"}, "mutate_store", CodeRefused, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := callTool(t, cs, ToolCall, tc.args)
			require.True(t, res.IsError)
			o := outcome(t, res)
			assert.Equal(t, tc.code, o.Code, text(res))
			assert.Equal(t, tc.tool, o.Tool)
			if tc.code == CodeInvalidArguments {
				require.NotNil(t, o.Field)
				assert.Equal(t, tc.field, *o.Field, text(res))
			}
		})
	}
	res := callTool(t, cs, ToolCall, map[string]any{"tool": "mutate_store"})
	assert.Equal(t, ReasonNotSelected, outcome(t, res).Reason)
	res = callTool(t, cs, "mutate_store", nil)
	assert.Equal(t, ReasonNotSelected, outcome(t, res).Reason, "and directly, the same")
	assert.Zero(t, started.Load(), "nothing started")

	// aeat_mcp_find finds only what --tools selects, and checks its own
	// arguments.
	a := found(t, cs, map[string]any{"query": "mutate store", "limit": 50})
	for _, ft := range a.Tools {
		assert.NotEqual(t, "mutate_store", ft.Name)
		assert.NotEqual(t, "mutate_slow", ft.Name)
	}
	for _, args := range []map[string]any{{}, {"query": " -- "}, {"query": "echo", "limit": 0}, {"query": "echo", "limit": 51}, {"query": "echo", "limt": 5}} {
		res := callTool(t, cs, ToolFind, args)
		assert.Equal(t, CodeInvalidArguments, outcome(t, res).Code, "%v: %s", args, text(res))
	}
	a = found(t, cs, map[string]any{"query": "read", "limit": 2})
	assert.Len(t, a.Tools, 2)
	assert.Equal(t, a.Matched-2, a.Left)
}

// TestCatalog_ConfirmThroughCall: a destructive tool called through
// aeat_mcp_call asks the person first, with its own question; a decline or
// a forged answer runs nothing.
func TestCatalog_ConfirmThroughCall(t *testing.T) {
	s, started := catalogServer(t, []string{"read_echo"})
	asked := 0
	answer := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}
	var question string
	cs := connect(t, s, "2025-11-25", &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked++
		question = req.Params.Message
		return answer, nil
	}})
	res := callTool(t, cs, ToolCall, map[string]any{"tool": "destroy_entry", "arguments": map[string]any{"id": "42"}})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, 1, asked, "asked first")
	assert.Contains(t, question, "destroy_entry")
	assert.Contains(t, text(res), "removed")
	assert.Equal(t, int32(1), started.Load())

	answer = &mcp.ElicitResult{Action: "decline"}
	res = callTool(t, cs, ToolCall, map[string]any{"tool": "destroy_entry", "arguments": map[string]any{"id": "42"}})
	assert.Equal(t, ReasonDeclined, outcome(t, res).Reason)
	assert.Equal(t, "destroy_entry", outcome(t, res).Tool)
	assert.Equal(t, int32(1), started.Load(), "declined: nothing ran")

	// The newest protocol: the question comes back as the inner tool's
	// input request; an answer the server did not ask for runs nothing.
	cs2 := connect(t, s, "", &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}})
	res, err := cs2.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolCall,
		Arguments:      map[string]any{"tool": "destroy", "arguments": map[string]any{}},
		InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}}})
	require.NoError(t, err)
	assert.Equal(t, ReasonUnverified, outcome(t, res).Reason, text(res))
	res, err = cs2.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolCall,
		Arguments:      map[string]any{"tool": "destroy", "arguments": map[string]any{}},
		RequestState:   "q-00000000000000000000000000000000",
		InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}}})
	require.NoError(t, err)
	assert.Equal(t, ReasonUnverified, outcome(t, res).Reason, text(res))
	assert.Equal(t, int32(1), started.Load(), "a forged yes: nothing ran")

	// A direct call of the unlisted destructive tool asks the same way —
	// its question is an input request, which this client's person
	// declines — and nothing runs.
	declined := 0
	cs3 := connect(t, s, "", &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			declined++
			return &mcp.ElicitResult{Action: "decline"}, nil
		}})
	res, err = cs3.CallTool(context.Background(), &mcp.CallToolParams{Name: "destroy", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.Equal(t, 1, declined, "asked")
	assert.Equal(t, ReasonDeclined, outcome(t, res).Reason, text(res))
	assert.Equal(t, int32(1), started.Load())
}

// TestCatalog_DetachThenWait: a long call through aeat_mcp_call detaches
// like a direct one, and aeat_mcp_wait collects the inner tool's result.
func TestCatalog_DetachThenWait(t *testing.T) {
	s, _ := catalogServer(t, nil, func(c *Config) { c.DetachAfter = 300 * time.Millisecond })
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, ToolCall, map[string]any{"tool": "live_quick"})
	o := outcome(t, res)
	require.Equal(t, CodeRunning, o.Code, text(res))
	assert.Equal(t, "live_quick", o.Tool)
	assert.Equal(t, "live", o.Tier, "the inner tool's tier")
	got := waitRun(t, cs, o.RunID)
	require.Equal(t, CodeOK, outcome(t, got).Code, text(got))
	assert.Equal(t, "live_quick", outcome(t, got).Tool)
}

// TestCatalog_ProgressThroughCall: a call through aeat_mcp_call sends the
// inner tool's progress to the request's progress token.
func TestCatalog_ProgressThroughCall(t *testing.T) {
	s, _ := catalogServer(t, nil, func(c *Config) { c.Heartbeat = 100 * time.Millisecond })
	opts, msgs := progressMessages()
	cs := connect(t, s, "", opts)
	params := &mcp.CallToolParams{Name: ToolCall, Arguments: map[string]any{"tool": "live_quick"}}
	params.SetProgressToken("p")
	res, err := cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	handled(func() bool { return strings.Contains(strings.Join(msgs(), "\n"), "live_quick") })
	require.NotEmpty(t, msgs(), "progress arrived")
	assert.Contains(t, strings.Join(msgs(), "\n"), "live_quick", "about the inner tool")
}

// TestCatalog_ArgumentErrorsInTheManifestWording: aeat_mcp_find's and
// aeat_mcp_call's own arguments are read by the validator of manifest tools
// (annotations.Tool.Validate), so a bad one is named in the same words a
// manifest tool's is — never a Go type name ("must be int, not number", "Go
// value of type map[string]json.RawMessage", as their own reader said).
func TestCatalog_ArgumentErrorsInTheManifestWording(t *testing.T) {
	s, started := catalogServer(t, []string{"read_echo"})
	cs := connect(t, s, "", nil)
	for _, tc := range []struct {
		name  string
		tool  string
		args  any
		field string
		msg   string
		// same is a manifest tool's call refused in the same words.
		same any
	}{
		{"a fraction for an integer", ToolFind, map[string]any{"query": "echo", "limit": 2.5}, "limit",
			"must be an integer (got 2.5)", map[string]any{"year": 2.5}},
		{"a string for an integer", ToolFind, map[string]any{"query": "echo", "limit": "3"}, "limit",
			"must be an integer (got a string)", map[string]any{"year": "3"}},
		{"below the minimum", ToolFind, map[string]any{"query": "echo", "limit": 0}, "limit", "must be at least 1 (got 0)", nil},
		{"a number for a string", ToolFind, map[string]any{"query": 5}, "query",
			"must be a string (got a number)", map[string]any{"period": 5}},
		{"no query", ToolFind, map[string]any{}, "query", "is required", nil},
		{"an unknown argument", ToolFind, map[string]any{"query": "echo", "max": 3}, "max",
			"unknown argument; this tool takes query, limit", nil},
		{"a number for the tool", ToolCall, map[string]any{"tool": 5}, "tool", "must be a string (got a number)", nil},
		{"a string for the arguments", ToolCall, map[string]any{"tool": "read_echo", "arguments": "text=hola"}, "arguments",
			"must be an object (got a string)", nil},
		{"arguments not an object", ToolCall, []any{"read_echo"}, "", "arguments must be an object, not an array", []any{2025}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := callTool(t, cs, tc.tool, tc.args)
			o := outcome(t, res)
			assert.Equal(t, CodeInvalidArguments, o.Code, text(res))
			assert.Equal(t, tc.tool, o.Tool)
			if assert.NotNil(t, o.Field) {
				assert.Equal(t, tc.field, *o.Field, text(res))
			}
			assert.Contains(t, text(res), tc.msg)
			for _, goism := range []string{"int,", "Go value", "Go struct", "unmarshal", "json.RawMessage", "map["} {
				assert.NotContains(t, text(res), goism)
			}
			if tc.same != nil {
				// read_argv (year: integer, period: string) is listed on no
				// surface here: it is reached through aeat_mcp_call, as a direct call.
				manifest := callTool(t, cs, "read_argv", tc.same)
				assert.Contains(t, text(manifest), tc.msg, "a manifest tool's words")
				assert.Equal(t, "read_argv", outcome(t, manifest).Tool, "answered as the tool's own call")
			}
		})
	}
	assert.Zero(t, started.Load(), "nothing started")
}
