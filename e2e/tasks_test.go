package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// MCP Tasks end to end: the built binary over real stdio, spoken to in raw
// frames (no Go client speaks tasks), both generations.

// taskClient drives a raw server: it numbers requests, and keeps the
// notifications that arrive while it waits for an answer.
type taskClient struct {
	rs    *rawServer
	next  int
	meta  string // the _meta every request carries (2026-07-28)
	notes []map[string]any
	// answer, if set, answers the server's own requests (elicitation);
	// it returns the result.
	answer func(req map[string]any) any
}

// v2Meta declares the 2026-07-28 protocol and, with tasks, the extension.
func v2Meta(tasks, elicitation bool) string {
	caps := map[string]any{}
	if tasks {
		caps["extensions"] = map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}
	}
	if elicitation {
		caps["elicitation"] = map[string]any{"form": map[string]any{}}
	}
	m, _ := json.Marshal(map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "raw", "version": "1"},
		"io.modelcontextprotocol/clientCapabilities": caps,
	})
	return string(m)
}

// request sends method with params (a JSON object's text, without braces
// for _meta to join) and returns the answer's result or error.
func (c *taskClient) request(t *testing.T, method, params string) (result, rpcErr map[string]any) {
	t.Helper()
	c.next++
	id := c.next
	fields := params
	if c.meta != "" {
		if fields != "" {
			fields += ","
		}
		fields += `"_meta":` + c.meta
	}
	c.rs.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s}}`, id, method, fields))
	for {
		m := c.rs.recv(t)
		if _, isNote := m["method"]; isNote && m["id"] == nil {
			c.notes = append(c.notes, m)
			continue
		}
		if _, isRequest := m["method"]; isRequest {
			require.NotNil(t, c.answer, "the server asked: %v", m)
			raw, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": c.answer(m)})
			require.NoError(t, err)
			c.rs.send(t, string(raw))
			continue
		}
		if m["id"] != float64(id) {
			t.Fatalf("answer to another request: %v", m)
		}
		r, _ := m["result"].(map[string]any)
		e, _ := m["error"].(map[string]any)
		return r, e
	}
}

func (c *taskClient) ok(t *testing.T, method, params string) map[string]any {
	t.Helper()
	r, e := c.request(t, method, params)
	require.Nil(t, e, "%s %s", method, params)
	require.NotNil(t, r)
	return r
}

// refused sends a request that must be refused with code, and returns the
// message.
func (c *taskClient) refused(t *testing.T, code float64, method, params string) string {
	t.Helper()
	r, e := c.request(t, method, params)
	require.Nil(t, r, "%s %s: expected error %v", method, params, code)
	require.Equal(t, code, e["code"], "%v", e)
	return e["message"].(string)
}

// poll gets the task until its status is one of want.
func (c *taskClient) poll(t *testing.T, id string, want ...string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(proctest.HangAfter)
	for {
		r := c.ok(t, "tasks/get", fmt.Sprintf(`"taskId":%q`, id))
		for _, w := range want {
			if r["status"] == w {
				return r
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s stayed %v, want %v", id, r["status"], want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// statuses returns the statuses notifications/tasks/status gave for task
// id, reading on until one is last: the notification of a task's end may
// come after the answer that tasks/result gives at the same end.
func (c *taskClient) statuses(t *testing.T, id, last string) []any {
	t.Helper()
	var out []any
	for i := 0; ; i++ {
		if i == len(c.notes) {
			c.notes = append(c.notes, c.rs.recv(t))
		}
		n := c.notes[i]
		if n["method"] != "notifications/tasks/status" {
			continue
		}
		p := n["params"].(map[string]any)
		if p["taskId"] != id {
			continue
		}
		out = append(out, p["status"])
		if p["status"] == last {
			return out
		}
	}
}

func outcomeOf(res map[string]any) map[string]any {
	meta, _ := res["_meta"].(map[string]any)
	o, _ := meta[OutcomeKey].(map[string]any)
	return o
}

// sameResult: what a task hands out is what the ordinary call returned —
// text, structured content, error flag, outcome (but its duration).
func sameResult(t *testing.T, want, got map[string]any) {
	t.Helper()
	assert.Equal(t, want["content"], got["content"])
	assert.Equal(t, want["structuredContent"], got["structuredContent"])
	assert.Equal(t, want["isError"], got["isError"])
	wo, gotO := outcomeOf(want), outcomeOf(got)
	delete(wo, "duration_ms")
	delete(gotO, "duration_ms")
	assert.Equal(t, wo, gotO)
}

func startV1(t *testing.T, args ...string) *taskClient {
	t.Helper()
	c := &taskClient{rs: startRaw(t, args...)}
	r := c.ok(t, "initialize", `"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}`)
	caps := r["capabilities"].(map[string]any)
	require.Equal(t, map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
		"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}, caps["tasks"])
	c.rs.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func TestE2E_TasksV1(t *testing.T) {
	c := startV1(t)

	t.Run("tools say which may run as tasks", func(t *testing.T) {
		tools := c.ok(t, "tools/list", "")["tools"].([]any)
		support := map[string]any{}
		for _, raw := range tools {
			tool := raw.(map[string]any)
			support[tool["name"].(string)] = tool["execution"]
		}
		optional := map[string]any{"taskSupport": "optional"}
		assert.Equal(t, optional, support["live_pull"])
		assert.Equal(t, optional, support["mutate_store"])
		assert.Nil(t, support["read_echo"], "a READ tool runs as an ordinary call")
		assert.Nil(t, support["aeat_mcp_wait"])
	})

	t.Run("create, poll, result: the ordinary call's result", func(t *testing.T) {
		created := c.ok(t, "tools/call", `"name":"live_quick","arguments":{},"task":{"ttl":60000}`)
		task := created["task"].(map[string]any)
		id := task["taskId"].(string)
		assert.Regexp(t, `^r-[0-9a-f]{16}$`, id, "the task id is the run id")
		assert.Equal(t, "working", task["status"])
		assert.GreaterOrEqual(t, task["ttl"], 60000.0)
		assert.NotZero(t, task["pollInterval"])
		for _, k := range []string{"createdAt", "lastUpdatedAt"} {
			_, err := time.Parse(time.RFC3339, task[k].(string))
			assert.NoError(t, err, k)
		}
		got := c.ok(t, "tasks/get", fmt.Sprintf(`"taskId":%q`, id))
		assert.Contains(t, []any{"working", "completed"}, got["status"])

		res := c.ok(t, "tasks/result", fmt.Sprintf(`"taskId":%q`, id)) // blocks until the end
		assert.Equal(t, map[string]any{"taskId": id}, res["_meta"].(map[string]any)["io.modelcontextprotocol/related-task"])
		assert.Equal(t, string(CodeOK), outcomeOf(res)["code"])
		assert.Equal(t, "completed", c.ok(t, "tasks/get", fmt.Sprintf(`"taskId":%q`, id))["status"])

		sync := c.ok(t, "tools/call", `"name":"live_quick","arguments":{}`)
		assert.NotContains(t, sync, "task", "a call without \"task\" is answered as before")
		sameResult(t, sync, res)

		assert.Equal(t, []any{"completed"}, c.statuses(t, id, "completed"))

		list := c.ok(t, "tasks/list", "")["tasks"].([]any)
		var ids []string
		for _, l := range list {
			ids = append(ids, l.(map[string]any)["taskId"].(string))
		}
		assert.Contains(t, ids, id)
	})

	t.Run("progress for the task's life, then cancel kills the tree", func(t *testing.T) {
		id := c.ok(t, "tools/call", `"name":"live_pull","arguments":{},"task":{},"_meta":{"progressToken":"p2"}`)["task"].(map[string]any)["taskId"].(string)
		// The progress token stays valid after the handle (2025-11-25).
		for {
			n := c.rs.recv(t)
			if n["method"] == "notifications/progress" && n["params"].(map[string]any)["progressToken"] == "p2" {
				assert.Contains(t, n["params"].(map[string]any)["message"], "live_pull")
				break
			}
		}
		waitForFakecli(t, 3) // the CLI, a child, a setsid grandchild
		cancelled := c.ok(t, "tasks/cancel", fmt.Sprintf(`"taskId":%q`, id))
		assert.Equal(t, "cancelled", cancelled["status"])
		requireNoFakecli(t, proctest.HangAfter)
		res := c.ok(t, "tasks/result", fmt.Sprintf(`"taskId":%q`, id))
		assert.Equal(t, string(CodeCancelled), outcomeOf(res)["code"])
		assert.Equal(t, true, res["isError"])
		msg := c.refused(t, -32602, "tasks/cancel", fmt.Sprintf(`"taskId":%q`, id))
		assert.Contains(t, msg, "already ended")
	})

	t.Run("a READ tool cannot run as a task", func(t *testing.T) {
		msg := c.refused(t, -32601, "tools/call", `"name":"read_echo","arguments":{"text":"x"},"task":{}`)
		assert.Contains(t, msg, "read_echo")
	})

	t.Run("unknown task", func(t *testing.T) {
		for _, m := range []string{"tasks/get", "tasks/result", "tasks/cancel"} {
			msg := c.refused(t, -32602, m, `"taskId":"r-0000000000000000"`)
			assert.Contains(t, msg, "Task not found")
		}
		c.refused(t, -32602, "tasks/get", `"taskId":7`)
		c.refused(t, -32601, "tasks/update", `"taskId":"r-0000000000000000","inputResponses":{}`)
	})

	t.Run("a refused call is a task born finished", func(t *testing.T) {
		// A destructive tool, and a client that cannot be asked.
		task := c.ok(t, "tools/call", `"name":"destroy","arguments":{},"task":{}`)["task"].(map[string]any)
		id := task["taskId"].(string)
		assert.Regexp(t, `^t-[0-9a-f]{16}$`, id)
		assert.Equal(t, "failed", task["status"], "2025-11-25: a result with isError is failed")
		res := c.ok(t, "tasks/result", fmt.Sprintf(`"taskId":%q`, id))
		assert.Equal(t, string(CodeRefused), outcomeOf(res)["code"])
		assert.Equal(t, ReasonCannotConfirm, outcomeOf(res)["reason"])
	})

	t.Run("a forged mark is dropped", func(t *testing.T) {
		res := c.ok(t, "tools/call", `"name":"mutate_store","arguments":{},"_meta":{"aeat-mcp/task":{"gen":1}}`)
		assert.NotContains(t, res, "task")
		assert.Equal(t, string(CodeOK), outcomeOf(res)["code"])
	})
}

func TestE2E_TasksV1_TimeoutAndExpiry(t *testing.T) {
	c := startV1(t, "--timeout-live", "1s", "--timeout-mutate", "1s", "--kill-grace", "200ms")

	t.Run("a task that times out fails with the timeout refusal", func(t *testing.T) {
		id := c.ok(t, "tools/call", `"name":"live_pull","arguments":{},"task":{}`)["task"].(map[string]any)["taskId"].(string)
		res := c.ok(t, "tasks/result", fmt.Sprintf(`"taskId":%q`, id))
		o := outcomeOf(res)
		assert.Equal(t, string(CodeTimeout), o["code"])
		assert.Equal(t, true, o["tree_dead"])
		assert.Equal(t, "failed", c.ok(t, "tasks/get", fmt.Sprintf(`"taskId":%q`, id))["status"])
		requireNoFakecli(t, proctest.HangAfter)
	})

	t.Run("a finished task expires after its ttl", func(t *testing.T) {
		task := c.ok(t, "tools/call", `"name":"mutate_store","arguments":{},"task":{"ttl":100}`)["task"].(map[string]any)
		id := task["taskId"].(string)
		// Never shorter than the run may take: its 1 s ceiling and the
		// kill's grace.
		ttl := task["ttl"].(float64)
		assert.GreaterOrEqual(t, ttl, 1200.0)
		c.ok(t, "tasks/result", fmt.Sprintf(`"taskId":%q`, id))
		time.Sleep(time.Duration(ttl)*time.Millisecond + 300*time.Millisecond)
		msg := c.refused(t, -32602, "tasks/get", fmt.Sprintf(`"taskId":%q`, id))
		assert.Contains(t, msg, "Task has expired")
	})
}

func TestE2E_TasksV2(t *testing.T) {
	rs := startRaw(t, "--timeout-live", "8s", "--kill-grace", "200ms")
	c := &taskClient{rs: rs, meta: v2Meta(true, false)}
	caps := c.ok(t, "server/discover", "")["capabilities"].(map[string]any)
	assert.Equal(t, map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}, caps["extensions"])
	plain := &taskClient{rs: rs, meta: v2Meta(false, false)}
	sync := func(name string) map[string]any {
		plain.next = c.next + 1000
		return plain.ok(t, "tools/call", fmt.Sprintf(`"name":%q,"arguments":{}`, name))
	}

	t.Run("create, poll to completion: the ordinary call's result", func(t *testing.T) {
		h := c.ok(t, "tools/call", `"name":"live_quick","arguments":{}`)
		assert.Equal(t, "task", h["resultType"])
		id := h["taskId"].(string)
		assert.Regexp(t, `^r-[0-9a-f]{16}$`, id)
		assert.Equal(t, "working", h["status"])
		assert.Positive(t, h["ttlMs"])
		assert.Positive(t, h["pollIntervalMs"])
		done := c.poll(t, id, "completed")
		assert.Equal(t, "complete", done["resultType"])
		res := done["result"].(map[string]any)
		assert.Equal(t, "complete", res["resultType"])
		want := sync("live_quick")
		assert.NotEqual(t, "task", want["resultType"], "a client that did not declare tasks gets the result")
		sameResult(t, want, res)
	})

	t.Run("a READ call is answered at once", func(t *testing.T) {
		r := c.ok(t, "tools/call", `"name":"read_echo","arguments":{"text":"hi"}`)
		assert.Equal(t, "complete", r["resultType"])
		assert.Equal(t, string(CodeOK), outcomeOf(r)["code"])
	})

	t.Run("cancel kills the tree", func(t *testing.T) {
		id := c.ok(t, "tools/call", `"name":"live_submit","arguments":{}`)["taskId"].(string)
		waitForFakecli(t, 2) // the CLI and a setsid grandchild
		ack := c.ok(t, "tasks/cancel", fmt.Sprintf(`"taskId":%q`, id))
		assert.Equal(t, map[string]any{"resultType": "complete"}, ack)
		requireNoFakecli(t, proctest.HangAfter)
		got := c.poll(t, id, "cancelled")
		assert.NotContains(t, got, "result")
	})

	t.Run("a timeout completes with the refusal as the result", func(t *testing.T) {
		id := c.ok(t, "tools/call", `"name":"live_pull","arguments":{}`)["taskId"].(string)
		got := c.poll(t, id, "completed", "failed", "cancelled")
		assert.Equal(t, "completed", got["status"], "2026-07-28 keeps failed for JSON-RPC errors")
		res := got["result"].(map[string]any)
		assert.Equal(t, true, res["isError"])
		assert.Equal(t, string(CodeTimeout), outcomeOf(res)["code"])
		requireNoFakecli(t, proctest.HangAfter)
	})

	t.Run("errors", func(t *testing.T) {
		assert.Contains(t, c.refused(t, -32602, "tasks/get", `"taskId":"r-0000000000000000"`), "Task not found")
		assert.Contains(t, c.refused(t, -32602, "tasks/cancel", `"taskId":"r-0000000000000000"`), "Task not found")
		c.refused(t, -32601, "tasks/result", `"taskId":"r-0000000000000000"`)
		c.refused(t, -32601, "tasks/list", "")
		msg := plain.refused(t, -32021, "tasks/get", `"taskId":"r-0000000000000000"`)
		assert.Contains(t, msg, "io.modelcontextprotocol/tasks")
		msg = plain.refused(t, -32021, "subscriptions/listen", `"notifications":{"taskIds":["r-0000000000000000"]}`)
		assert.Contains(t, msg, "io.modelcontextprotocol/tasks")
	})

	t.Run("listening for task notifications: none are promised", func(t *testing.T) {
		rs.send(t, `{"jsonrpc":"2.0","id":"listen-1","method":"subscriptions/listen","params":{"notifications":{"taskIds":["r-0000000000000000"]},"_meta":`+v2Meta(true, false)+`}}`)
		for {
			m := rs.recv(t)
			require.Nil(t, m["error"], "%v", m)
			if m["method"] == "notifications/subscriptions/acknowledged" {
				n, _ := m["params"].(map[string]any)["notifications"].(map[string]any)
				assert.Empty(t, n["taskIds"], "the server agrees to push no task status: hosts poll")
				break
			}
		}
		rs.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"listen-1"}}`)
		rs.send(t, `{"jsonrpc":"2.0","id":"after-listen","method":"ping","params":{"_meta":`+v2Meta(true, false)+`}}`)
		for m := rs.recv(t); m["id"] != "after-listen"; m = rs.recv(t) {
			require.Contains(t, []any{"listen-1", nil}, m["id"], "%v", m)
		}
	})
}

// TestE2E_TasksV2_AskBeforeTheKill: a task that reaches its ceiling asks its
// requester, as an input request, whether it may go on; an answer to a
// question it did not ask is refused and changes nothing; a yes extends the
// run once.
func TestE2E_TasksV2_AskBeforeTheKill(t *testing.T) {
	rs := startRaw(t, "--timeout-live", "1s", "--kill-grace", "200ms")
	c := &taskClient{rs: rs, meta: v2Meta(true, true)}
	c.ok(t, "server/discover", "")
	id := c.ok(t, "tools/call", `"name":"live_pull","arguments":{}`)["taskId"].(string)

	forged := `"taskId":%q,"inputResponses":{"q-0000000000000000":{"action":"accept","content":{"extend":true}}}`
	msg := c.refused(t, -32602, "tasks/update", fmt.Sprintf(forged, id))
	assert.Contains(t, msg, "did not ask")

	asking := c.poll(t, id, "input_required")
	requests := asking["inputRequests"].(map[string]any)
	require.Len(t, requests, 1)
	var key string
	for k, v := range requests {
		key = k
		req := v.(map[string]any)
		assert.Equal(t, "elicitation/create", req["method"])
		assert.Contains(t, req["params"].(map[string]any)["message"], "live_pull")
	}
	// A forged key while the real question is open: refused, the question
	// stays open.
	c.refused(t, -32602, "tasks/update", fmt.Sprintf(forged, id))
	assert.Equal(t, "input_required", c.ok(t, "tasks/get", fmt.Sprintf(`"taskId":%q`, id))["status"])

	yes := fmt.Sprintf(`"taskId":%q,"inputResponses":{%q:{"action":"accept","content":{"extend":true}}}`, id, key)
	assert.Equal(t, map[string]any{"resultType": "complete"}, c.ok(t, "tasks/update", yes))
	c.refused(t, -32602, "tasks/update", yes) // a key answers once

	got := c.poll(t, id, "completed")
	res := got["result"].(map[string]any)
	o := outcomeOf(res)
	assert.Equal(t, string(CodeTimeout), o["code"])
	assert.Equal(t, 2.0, o["timeout_seconds"], "extended once, by its ceiling")
	text := res["content"].([]any)[0].(map[string]any)["text"].(string)
	assert.True(t, strings.Contains(text, "given 1 s more, once"), text)
	requireNoFakecli(t, proctest.HangAfter)
}

// TestE2E_TasksV1_WaitingForAResult: a tasks/result the client cancels is
// never answered, and the task goes on; one still waiting when the host
// closes our stdin is answered (the run stopped after the drain) before the
// server exits, and no process is left.
func TestE2E_TasksV1_WaitingForAResult(t *testing.T) {
	c := startV1(t, "--drain", "300ms", "--kill-grace", "200ms")
	id := c.ok(t, "tools/call", `"name":"live_pull","arguments":{},"task":{}`)["task"].(map[string]any)["taskId"].(string)
	waitForFakecli(t, 3)

	c.rs.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":"wait-1","method":"tasks/result","params":{"taskId":%q}}`, id))
	c.rs.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"wait-1"}}`)
	r, e := c.request(t, "ping", "")
	assert.Nil(t, e)
	assert.NotNil(t, r, "the next answer is the ping's, not the cancelled wait's")
	assert.Equal(t, "working", c.ok(t, "tasks/get", fmt.Sprintf(`"taskId":%q`, id))["status"], "the task goes on")

	c.rs.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":"wait-2","method":"tasks/result","params":{"taskId":%q}}`, id))
	require.NoError(t, c.rs.in.Close())
	for {
		m := c.rs.recv(t)
		if m["id"] != "wait-2" {
			continue // progress, status notifications
		}
		res := m["result"].(map[string]any)
		assert.Equal(t, string(CodeCancelled), outcomeOf(res)["code"])
		break
	}
	require.NoError(t, c.rs.cmd.Wait())
	requireNoFakecli(t, proctest.HangAfter)
}

// TestE2E_TasksOff: with --tasks=false nothing is a task, whatever the
// client asks.
func TestE2E_TasksOff(t *testing.T) {
	c := &taskClient{rs: startRaw(t, "--tasks=false")}
	r := c.ok(t, "initialize", `"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}`)
	assert.NotContains(t, r["capabilities"], "tasks")
	assert.NotContains(t, r["capabilities"], "extensions")
	res := c.ok(t, "tools/call", `"name":"mutate_store","arguments":{},"task":{}`)
	assert.NotContains(t, res, "task")
	assert.Equal(t, string(CodeOK), outcomeOf(res)["code"])
	c.refused(t, -32601, "tasks/get", `"taskId":"r-0000000000000000"`)
}

// TestE2E_TasksV2_ConfirmFirst: a destructive tool is confirmed before its
// task exists (multi round-trip on the original request, as the extension
// asks), then runs as a task; a forged answer starts nothing.
func TestE2E_TasksV2_ConfirmFirst(t *testing.T) {
	c := &taskClient{rs: startRaw(t), meta: v2Meta(true, true)}
	c.ok(t, "server/discover", "")
	ask := c.ok(t, "tools/call", `"name":"destroy","arguments":{}`)
	require.Equal(t, "input_required", ask["resultType"], "%v", ask)
	state := ask["requestState"].(string)
	require.Contains(t, ask["inputRequests"], confirmID)

	forged := c.ok(t, "tools/call", `"name":"destroy","arguments":{},"requestState":"q-00000000000000000000000000000000",`+
		`"inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}}`)
	assert.NotEqual(t, "task", forged["resultType"], "nothing starts")
	assert.Equal(t, ReasonUnverified, outcomeOf(forged)["reason"])

	h := c.ok(t, "tools/call", fmt.Sprintf(`"name":"destroy","arguments":{},"requestState":%q,`+
		`"inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}}`, state))
	require.Equal(t, "task", h["resultType"], "%v", h)
	done := c.poll(t, h["taskId"].(string), "completed")
	res := done["result"].(map[string]any)
	assert.Equal(t, string(CodeOK), outcomeOf(res)["code"])
	assert.Equal(t, "destroyed\n", res["content"].([]any)[0].(map[string]any)["text"])
}

// TestE2E_TasksV1_AskBeforeTheKill: a 2025-11-25 task at its ceiling asks
// through the session, the question tied to its task, and is
// input_required meanwhile; a no stops it as before.
func TestE2E_TasksV1_AskBeforeTheKill(t *testing.T) {
	c := &taskClient{rs: startRaw(t, "--timeout-live", "1s", "--kill-grace", "200ms")}
	c.ok(t, "initialize", `"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}`)
	c.rs.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var asked []map[string]any
	c.answer = func(req map[string]any) any {
		asked = append(asked, req)
		return map[string]any{"action": "accept", "content": map[string]any{"extend": false}}
	}
	id := c.ok(t, "tools/call", `"name":"live_pull","arguments":{},"task":{}`)["task"].(map[string]any)["taskId"].(string)
	res := c.ok(t, "tasks/result", fmt.Sprintf(`"taskId":%q`, id))
	require.Len(t, asked, 1)
	assert.Equal(t, "elicitation/create", asked[0]["method"])
	params := asked[0]["params"].(map[string]any)
	assert.Equal(t, map[string]any{"taskId": id}, params["_meta"].(map[string]any)["io.modelcontextprotocol/related-task"])
	assert.Equal(t, string(CodeTimeout), outcomeOf(res)["code"])
	statuses := c.statuses(t, id, "failed")
	// working again in between, if the watcher saw it before the kill.
	assert.Equal(t, "input_required", statuses[0], "%v", statuses)
	assert.Equal(t, "failed", statuses[len(statuses)-1], "%v", statuses)
	requireNoFakecli(t, proctest.HangAfter)
}

// TestE2E_TaskKeysAreDecoded: whether a call becomes a task is decided from
// the decoded params, as the SDK reads them: a mark a client forges with
// escapes in its key, or hides in a second "_meta", is dropped (the call is
// answered as an ordinary one, not with an empty result); a "task" param or
// an extension id written with escapes still asks for a task.
func TestE2E_TaskKeysAreDecoded(t *testing.T) {
	t.Run("2025-11-25", func(t *testing.T) {
		c := startV1(t)
		for name, params := range map[string]string{
			"escaped slash":         `"name":"mutate_store","arguments":{},"_meta":{"aeat-mcp\/task":{"gen":1}}`,
			"escaped dash":          `"name":"mutate_store","arguments":{},"_meta":{"aeat\u002dmcp/task":{"gen":2}}`,
			"every letter escaped":  `"name":"mutate_store","arguments":{},"_meta":{"\u0061\u0065\u0061\u0074\u002d\u006d\u0063\u0070\u002f\u0074\u0061\u0073\u006b":{"gen":1}}`,
			"in a first _meta":      `"name":"mutate_store","arguments":{},"_meta":{"aeat-mcp/task":{"gen":1}},"_meta":{"progressToken":"x"}`,
			"escaped _meta key":     `"name":"mutate_store","arguments":{},"_m\u0065ta":{"aeat-mcp/task":{"gen":1}}`,
			"escaped, second _meta": `"name":"mutate_store","arguments":{},"_meta":{"aeat-mcp\/task":{"gen":1}},"_meta":{}`,
		} {
			t.Run("forged mark, "+name, func(t *testing.T) {
				res := c.ok(t, "tools/call", params)
				assert.NotContains(t, res, "task", "no task handle")
				assert.Equal(t, string(CodeOK), outcomeOf(res)["code"], "the ordinary result: %v", res)
				if content, _ := res["content"].([]any); assert.NotEmpty(t, content, "an empty result") {
					assert.Equal(t, "stored\n", content[0].(map[string]any)["text"])
				}
			})
		}
		for name, params := range map[string]string{
			"escaped task key": `"name":"mutate_store","arguments":{},"t\u0061sk":{"ttl":60000}`,
			"escaped ttl key":  `"name":"mutate_store","arguments":{},"task":{"tt\u006c":60000}`,
		} {
			t.Run(name, func(t *testing.T) {
				task, _ := c.ok(t, "tools/call", params)["task"].(map[string]any)
				require.NotNil(t, task, "a task handle")
				assert.GreaterOrEqual(t, task["ttl"], 60000.0)
				res := c.ok(t, "tasks/result", fmt.Sprintf(`"taskId":%q`, task["taskId"]))
				assert.Equal(t, string(CodeOK), outcomeOf(res)["code"])
			})
		}
	})
	t.Run("2026-07-28", func(t *testing.T) {
		rs := startRaw(t)
		escaped := strings.Replace(v2Meta(true, false), `io.modelcontextprotocol/tasks`, `io.modelcontextprotocol\/t\u0061sks`, 1)
		require.NotEqual(t, v2Meta(true, false), escaped)
		c := &taskClient{rs: rs, meta: escaped}
		h := c.ok(t, "tools/call", `"name":"mutate_store","arguments":{}`)
		assert.Equal(t, "task", h["resultType"], "the extension declared with escapes: %v", h)
		plain := &taskClient{rs: rs, meta: v2Meta(false, false), next: 100}
		res := plain.ok(t, "tools/call", `"name":"mutate_store","arguments":{},"_meta":{"aeat-mcp\/task":{"gen":2}}`)
		assert.NotEqual(t, "task", res["resultType"])
		assert.Equal(t, string(CodeOK), outcomeOf(res)["code"], "%v", res)
		msg := plain.refused(t, -32021, "subscriptions/listen", `"notifications":{"t\u0061skIds":["r-0000000000000000"]}`)
		assert.Contains(t, msg, "io.modelcontextprotocol/tasks")
	})
}
