package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A task's work is a real run of a real registry: only the work itself is
// a function of the test.

func textResult(text string, isError bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: isError}
}

// work ends after d with res, or, when cancelled, with a cancelled result.
func work(d time.Duration, res *mcp.CallToolResult) runs.Work[*mcp.CallToolResult] {
	return func(ctx context.Context, _ *Run) (*mcp.CallToolResult, runs.Phase) {
		select {
		case <-time.After(d):
			if res.IsError {
				return res, runs.Failed
			}
			return res, runs.Completed
		case <-ctx.Done():
			return textResult("cancelled", true), runs.Cancelled
		}
	}
}

func start(g *runs.Registry[*mcp.CallToolResult], ceiling, d time.Duration, res *mcp.CallToolResult) *Run {
	r, _ := g.Start(context.Background(), runs.Spec{Tool: "pull", Tier: "live", Ceiling: ceiling}, work(d, res))
	return r
}

// serve calls a method and decodes its answer.
func serve(t *testing.T, tb *Table, gen Generation, method, params string) (map[string]any, *jsonrpc.Error) {
	t.Helper()
	raw, rerr := tb.Serve(context.Background(), gen, method, json.RawMessage(params))
	if rerr != nil {
		return nil, rerr
	}
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	return m, nil
}

// v2Params are params of a request that declares the extension.
func v2Params(fields string) string {
	meta := `"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	if fields == "" {
		return "{" + meta + "}"
	}
	return "{" + fields + "," + meta + "}"
}

func TestGenerationOf(t *testing.T) {
	assert.Equal(t, None, GenerationOf("2025-06-18"))
	assert.Equal(t, V1, GenerationOf("2025-11-25"))
	assert.Equal(t, V2, GenerationOf("2026-07-28"))
}

func TestServe_MethodsOfEachGeneration(t *testing.T) {
	tb := NewTable(Options{})
	for _, tc := range []struct {
		gen    Generation
		method string
		served bool
	}{
		{V1, methodGet, true}, {V1, methodResult, true}, {V1, methodList, true}, {V1, methodCancel, true}, {V1, methodUpdate, false},
		{V2, methodGet, true}, {V2, methodUpdate, true}, {V2, methodCancel, true}, {V2, methodResult, false}, {V2, methodList, false},
		{None, methodGet, false}, {V1, "tasks/delete", false},
	} {
		_, rerr := serve(t, tb, tc.gen, tc.method, v2Params(`"taskId":"r-0"`))
		if tc.served && tc.method == methodList {
			assert.Nil(t, rerr)
			continue
		}
		require.NotNil(t, rerr, "%v %s", tc.gen, tc.method)
		if tc.served {
			assert.Equal(t, int64(jsonrpc.CodeInvalidParams), rerr.Code, "%v %s: served, task not found", tc.gen, tc.method)
		} else {
			assert.Equal(t, int64(jsonrpc.CodeMethodNotFound), rerr.Code, "%v %s", tc.gen, tc.method)
		}
	}
}

func TestServe_V2NeedsTheDeclaration(t *testing.T) {
	tb := NewTable(Options{})
	for _, params := range []string{
		`{"taskId":"r-0"}`,
		`{"taskId":"r-0","_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{}}}}`,
		`{"taskId":"r-0","_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":null}}}}`,
		`{"taskId":"r-0","_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":true}}}}`,
	} {
		_, rerr := serve(t, tb, V2, methodGet, params)
		require.NotNil(t, rerr)
		assert.Equal(t, int64(CodeMissingCapability), rerr.Code, params)
		assert.JSONEq(t, `{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`, string(rerr.Data))
	}
}

func TestTask_V1Lifecycle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g runs.Registry[*mcp.CallToolResult]
		tb := NewTable(Options{Grace: time.Second, Keep: time.Minute, Describe: func(r *Run) string { return "pulling" }})
		var notes []map[string]any
		var mu sync.Mutex
		rq := &Request{Gen: V1, notify: func(method string, params any) {
			raw, _ := json.Marshal(params)
			var m map[string]any
			_ = json.Unmarshal(raw, &m)
			m["method"] = method
			mu.Lock()
			notes = append(notes, m)
			mu.Unlock()
		}}
		r := start(&g, 10*time.Second, 3*time.Second, textResult("done", false))
		task := tb.Create(V1, r, 0)
		assert.Same(t, task, tb.Create(V1, r, 0), "a joined run keeps its task")
		rq.Assign(task)
		task.Sent()
		id := fmt.Sprintf(`{"taskId":%q}`, task.ID)

		got, rerr := serve(t, tb, V1, methodGet, id)
		require.Nil(t, rerr)
		assert.Equal(t, "working", got["status"])
		assert.Equal(t, "pulling", got["statusMessage"])
		assert.Equal(t, 71000.0, got["ttl"], "the ceiling, the grace, and Keep")
		assert.Equal(t, 1000.0, got["pollInterval"])

		res, rerr := serve(t, tb, V1, methodResult, id) // blocks for 3 s
		require.Nil(t, rerr)
		assert.Equal(t, map[string]any{"taskId": task.ID}, res["_meta"].(map[string]any)[RelatedTaskKey])
		got, _ = serve(t, tb, V1, methodGet, id)
		assert.Equal(t, "completed", got["status"])
		assert.Equal(t, "done", got["statusMessage"])
		assert.NotEqual(t, got["createdAt"], got["lastUpdatedAt"])

		synctest.Wait()
		mu.Lock()
		require.Len(t, notes, 1)
		assert.Equal(t, MethodStatusV1, notes[0]["method"])
		assert.Equal(t, "completed", notes[0]["status"])
		mu.Unlock()

		_, rerr = serve(t, tb, V1, methodCancel, id)
		require.NotNil(t, rerr, "2025-11-25 refuses to cancel a task that ended")
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), rerr.Code)

		time.Sleep(72 * time.Second)
		_, rerr = serve(t, tb, V1, methodGet, id)
		require.NotNil(t, rerr)
		assert.Contains(t, rerr.Message, "Task has expired")
	})
}

func TestTask_V1ErrorIsFailedV2Completed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g runs.Registry[*mcp.CallToolResult]
		tb := NewTable(Options{})
		for gen, want := range map[Generation]string{V1: "failed", V2: "completed"} {
			r := start(&g, time.Minute, time.Second, textResult("boom", true))
			task := tb.Create(gen, r, 0)
			<-r.Done()
			got, rerr := serve(t, tb, gen, methodGet, v2Params(fmt.Sprintf(`"taskId":%q`, task.ID)))
			require.Nil(t, rerr)
			assert.Equal(t, want, got["status"], gen.String())
			if gen == V2 {
				assert.Equal(t, "complete", got["resultType"])
				res := got["result"].(map[string]any)
				assert.Equal(t, true, res["isError"])
				assert.Equal(t, "complete", res["resultType"])
			}
		}
	})
}

func TestTask_V1CancelStaysCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g runs.Registry[*mcp.CallToolResult]
		tb := NewTable(Options{})
		// Work that does not stop when cancelled: it finishes anyway.
		r, _ := g.Start(context.Background(), runs.Spec{Tool: "pull", Ceiling: time.Minute},
			func(context.Context, *Run) (*mcp.CallToolResult, runs.Phase) {
				time.Sleep(time.Second)
				return textResult("done", false), runs.Completed
			})
		task := tb.Create(V1, r, 0)
		got, rerr := serve(t, tb, V1, methodCancel, fmt.Sprintf(`{"taskId":%q}`, task.ID))
		require.Nil(t, rerr)
		assert.Equal(t, "cancelled", got["status"])
		got, _ = serve(t, tb, V1, methodGet, fmt.Sprintf(`{"taskId":%q}`, task.ID))
		assert.Equal(t, "cancelled", got["status"], "once cancelled, always cancelled (2025-11-25)")
	})
}

func TestTask_TTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g runs.Registry[*mcp.CallToolResult]
		tb := NewTable(Options{Grace: time.Second, Keep: time.Hour})
		r := start(&g, 10*time.Second, 100*time.Millisecond, textResult("done", false))
		short := tb.Create(V1, r, 500*time.Millisecond)
		got, _ := serve(t, tb, V1, methodGet, fmt.Sprintf(`{"taskId":%q}`, short.ID))
		assert.Equal(t, 11000.0, got["ttl"], "never shorter than the run may take")
		r2 := start(&g, 10*time.Second, 100*time.Millisecond, textResult("done", false))
		long := tb.Create(V1, r2, 30*time.Second)
		got, _ = serve(t, tb, V1, methodGet, fmt.Sprintf(`{"taskId":%q}`, long.ID))
		assert.Equal(t, 30000.0, got["ttl"], "a longer ttl is honoured")

		time.Sleep(12 * time.Second)
		_, rerr := serve(t, tb, V1, methodGet, fmt.Sprintf(`{"taskId":%q}`, short.ID))
		require.NotNil(t, rerr)
		assert.Contains(t, rerr.Message, "expired")
		_, rerr = serve(t, tb, V1, methodGet, fmt.Sprintf(`{"taskId":%q}`, long.ID))
		assert.Nil(t, rerr)
	})
}

func TestTask_WorkingNeverExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g runs.Registry[*mcp.CallToolResult]
		tb := NewTable(Options{Max: 1})
		// A run past its ceiling (extended, or dying) and more tasks than
		// Max: its task stays while it works.
		r := start(&g, time.Second, time.Minute, textResult("done", false))
		task := tb.Create(V2, r, 0)
		for range 3 {
			tb.Finished(V2, textResult("refused", true), 0)
		}
		time.Sleep(30 * time.Second)
		_, rerr := serve(t, tb, V2, methodGet, v2Params(fmt.Sprintf(`"taskId":%q`, task.ID)))
		assert.Nil(t, rerr)
		r.Cancel()
		<-r.Done()
	})
}

func TestTask_V2Questions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g runs.Registry[*mcp.CallToolResult]
		tb := NewTable(Options{})
		r := start(&g, time.Minute, 10*time.Second, textResult("done", false))
		task := tb.Create(V2, r, 0)
		get := v2Params(fmt.Sprintf(`"taskId":%q`, task.ID))
		update := func(key, answer string) *jsonrpc.Error {
			_, rerr := serve(t, tb, V2, methodUpdate, v2Params(fmt.Sprintf(`"taskId":%q,"inputResponses":{%q:%s}`, task.ID, key, answer)))
			return rerr
		}
		yes := `{"action":"accept","content":{"extend":true}}`
		require.NotNil(t, update("q-0", yes), "no question is open")

		answers := make(chan *mcp.ElicitResult, 1)
		go func() {
			a, err := task.Ask(context.Background(), nil, &mcp.ElicitParams{Mode: "form", Message: "go on?"})
			if err == nil {
				answers <- a
			}
		}()
		synctest.Wait()
		got, _ := serve(t, tb, V2, methodGet, get)
		assert.Equal(t, "input_required", got["status"])
		inputs := got["inputRequests"].(map[string]any)
		require.Len(t, inputs, 1)
		var key string
		for k, v := range inputs {
			key = k
			assert.Equal(t, "elicitation/create", v.(map[string]any)["method"])
		}
		assert.Regexp(t, `^q-[0-9a-f]{16}$`, key)

		rerr := update("q-0", yes)
		require.NotNil(t, rerr, "an answer to a question not asked")
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), rerr.Code)
		assert.NotNil(t, update(key, `{"action":"maybe"}`), "not an answer")
		assert.Empty(t, answers, "nothing was applied")

		require.Nil(t, update(key, yes))
		a := <-answers
		assert.Equal(t, "accept", a.Action)
		assert.Equal(t, true, a.Content["extend"])
		assert.NotNil(t, update(key, yes), "a key answers once")
		synctest.Wait()
		got, _ = serve(t, tb, V2, methodGet, get)
		assert.Equal(t, "working", got["status"])
		<-r.Done()
	})
}

func TestServe_ListPages(t *testing.T) {
	tb := NewTable(Options{})
	var ids []string
	for range listPage + 7 {
		ids = append(ids, tb.Finished(V1, textResult("x", false), 0).ID)
	}
	tb.Finished(V2, textResult("x", false), 0) // another generation's: not listed
	var seen []string
	params := "{}"
	for {
		page, rerr := serve(t, tb, V1, methodList, params)
		require.Nil(t, rerr)
		for _, task := range page["tasks"].([]any) {
			seen = append(seen, task.(map[string]any)["taskId"].(string))
		}
		next, ok := page["nextCursor"].(string)
		if !ok {
			break
		}
		params = fmt.Sprintf(`{"cursor":%q}`, next)
	}
	assert.Equal(t, ids, seen)
	_, rerr := serve(t, tb, V1, methodList, `{"cursor":"nope"}`)
	require.NotNil(t, rerr)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), rerr.Code)
}

// TestDeclared: the extension is declared only under the exact keys, after
// decoding — escapes resolved, case kept — as the SDK reads them.
func TestDeclared(t *testing.T) {
	for params, want := range map[string]bool{
		`{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}`:       true,
		`{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol\/t\u0061sks":{}}}}}`: true,
		`{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"Extensions":{"io.modelcontextprotocol/tasks":{}}}}}`:       false,
		`{"_META":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}`:       false,
		`{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":true}}}}`:     false,
		`{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":null}}}}`:     false,
		`{"_meta":{"io.modelcontextprotocol/clientCapabilities":[]}}`:                                                        false,
		`{}`: false,
	} {
		assert.Equal(t, want, Declared(json.RawMessage(params)), params)
	}
	assert.True(t, ListensForTasks(json.RawMessage(`{"notifications":{"t\u0061skIds":["r-1"]}}`)))
	assert.False(t, ListensForTasks(json.RawMessage(`{"notifications":{"TaskIds":["r-1"]}}`)))
	assert.False(t, ListensForTasks(json.RawMessage(`{"notifications":{}}`)))
}

// TestTable_MaxResultBytes: finished tasks are kept by the weight of their
// results too: the oldest expire first, the newest finished always stays.
func TestTable_MaxResultBytes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g runs.Registry[*mcp.CallToolResult]
		big := textResult(strings.Repeat("x", 60000), false)
		tb := NewTable(Options{MaxResultBytes: 3 * ResultSize(big)})
		var ids []string
		for range 5 {
			r := start(&g, time.Minute, time.Second, big)
			ids = append(ids, tb.Create(V1, r, 0).ID)
			<-r.Done()
		}
		_, rerr := serve(t, tb, V1, methodGet, fmt.Sprintf(`{"taskId":%q}`, ids[4]))
		require.Nil(t, rerr, "the newest is kept")
		for i, id := range ids {
			_, rerr := serve(t, tb, V1, methodGet, fmt.Sprintf(`{"taskId":%q}`, id))
			if i < 2 {
				require.NotNil(t, rerr, "task %d: the oldest expired", i)
				assert.Contains(t, rerr.Message, "Task has expired")
			} else {
				assert.Nil(t, rerr, "task %d", i)
			}
		}
	})
}

func TestResultSize(t *testing.T) {
	small := ResultSize(textResult("hi", false))
	assert.Greater(t, ResultSize(textResult(strings.Repeat("x", 1000), false)), small+900)
	res := textResult("x", false)
	res.StructuredContent = json.RawMessage(strings.Repeat(" ", 5000))
	assert.Greater(t, ResultSize(res), small+4900)
	res.StructuredContent = map[string]any{"k": strings.Repeat("y", 5000)}
	assert.Greater(t, ResultSize(res), small+4900)
}
