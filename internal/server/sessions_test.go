package server

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// rawSession is a host speaking JSON-RPC to a server in process, over the
// SDK's in-memory transport — raw, because the SDK's client does not speak
// MCP Tasks. Every message the server writes is read by one goroutine and
// handed on in order.
type rawSession struct {
	name string
	conn mcp.Connection
	in   chan map[string]any
	next int64
}

func openRaw(t *testing.T, s *Server, name string) *rawSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	conn, err := ct.Connect(context.Background())
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	rs := &rawSession{name: name, conn: conn, in: make(chan map[string]any, 64)}
	go func() {
		defer close(rs.in)
		for {
			msg, err := conn.Read(context.Background())
			if err != nil {
				return
			}
			raw, err := jsonrpc.EncodeMessage(msg)
			if err != nil {
				return
			}
			var m map[string]any
			if json.Unmarshal(raw, &m) == nil {
				rs.in <- m
			}
		}
	}()
	return rs
}

// send writes a request (id > 0) or a notification (id 0).
func (rs *rawSession) send(t *testing.T, id int64, method, params string) {
	t.Helper()
	req := &jsonrpc.Request{Method: method, Params: json.RawMessage(params)}
	if id > 0 {
		req.ID, _ = jsonrpc.MakeID(float64(id))
	}
	require.NoError(t, rs.conn.Write(context.Background(), req))
}

// call sends a request and returns its result, keeping aside for later
// what comes before the answer.
func (rs *rawSession) call(t *testing.T, method, params string, kept *[]map[string]any) map[string]any {
	t.Helper()
	rs.next++
	id := rs.next
	rs.send(t, id, method, params)
	for m := range rs.in {
		if m["id"] == float64(id) {
			require.Nil(t, m["error"], "%s: %s", rs.name, method)
			return m["result"].(map[string]any)
		}
		*kept = append(*kept, m)
	}
	t.Fatalf("%s: the connection ended before %s was answered", rs.name, method)
	return nil
}

// Each session hears the status of its own tasks: the task table is the
// server's, but where a task's notifications/tasks/status go is the
// session's that asked for the task — not the last session connected.
func TestTasks_StatusGoesToItsOwnSession(t *testing.T) {
	s := newServer(t, nil)
	sessions := []*rawSession{openRaw(t, s, "first"), openRaw(t, s, "second")}
	kept := make([][]map[string]any, len(sessions))
	ids := make([]string, len(sessions))
	owner := map[string]string{}
	for i, rs := range sessions {
		rs.call(t, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`, &kept[i])
		rs.send(t, 0, "notifications/initialized", `{}`)
		// Different arguments: the same call would join the first's run.
		created := rs.call(t, "tools/call", fmt.Sprintf(`{"name":"mutate_sleep","arguments":{"duration":"%ds"},"task":{}}`, 600+i), &kept[i])
		ids[i] = created["task"].(map[string]any)["taskId"].(string)
		owner[ids[i]] = rs.name
	}
	// A task's status changes once its handle is on the wire: cancel each,
	// and each session must hear "cancelled" for its own task only.
	for i, rs := range sessions {
		rs.call(t, "tasks/cancel", fmt.Sprintf(`{"taskId":%q}`, ids[i]), &kept[i])
	}
	// Both sessions are read at once: a status sent to the wrong session
	// fails the test when it arrives, rather than leave the right one
	// waiting. Bounded only by the test's own deadline: the kill that
	// changes each status is event-driven.
	pending := len(sessions)
	done := make([]bool, len(sessions))
	heard := func(i int, m map[string]any) {
		if m["method"] != "notifications/tasks/status" {
			return
		}
		p := m["params"].(map[string]any)
		id, _ := p["taskId"].(string)
		require.Equal(t, ids[i], id, "session %s heard the status of task %s, which session %s asked for", sessions[i].name, id, owner[id])
		if p["status"] == "cancelled" && !done[i] {
			done[i] = true
			pending--
		}
	}
	for i := range sessions {
		for _, m := range kept[i] {
			heard(i, m)
		}
	}
	for pending > 0 {
		select {
		case m, ok := <-sessions[0].in:
			require.True(t, ok, "session %s ended", sessions[0].name)
			heard(0, m)
		case m, ok := <-sessions[1].in:
			require.True(t, ok, "session %s ended", sessions[1].name)
			heard(1, m)
		}
	}
}
