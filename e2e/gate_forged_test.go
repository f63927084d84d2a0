package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The confirmation gate, attacked over raw stdio: a destructive tool never
// runs on an answer to a question this server did not ask, whatever the
// request claims about its protocol version or capabilities (docs/ARCHITECTURE.md, "Invariants").

const (
	newProto  = `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}`
	canAsk    = `"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}`
	cannotAsk = `"io.modelcontextprotocol/clientCapabilities":{}`
	accepted  = `"inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}}`
)

// callLine is a tools/call of tool with args and extra params (raw JSON
// members, comma-joined).
func callLine(id int, tool, args string, extra ...string) string {
	params := fmt.Sprintf(`"name":%q,"arguments":%s`, tool, args)
	for _, e := range extra {
		params += "," + e
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{%s}}`, id, params)
}

func meta(members ...string) string { return `"_meta":{` + strings.Join(members, ",") + `}` }

// gateResult reads the answer to request id: the tool result's outcome, and
// the result itself. A JSON-RPC error fails the test: a refusal is a result.
func (rs *rawServer) gateResult(t *testing.T, id int) (Outcome, map[string]any) {
	t.Helper()
	gotID, msg := rs.recvRaw(t)
	require.Equal(t, fmt.Sprint(id), gotID, "%v", msg)
	res, ok := msg["result"].(map[string]any)
	require.True(t, ok, "a result, not a JSON-RPC error: %v", msg)
	var o Outcome
	if m, ok := res["_meta"].(map[string]any); ok {
		b, _ := json.Marshal(m[OutcomeKey])
		require.NoError(t, json.Unmarshal(b, &o))
	}
	return o, res
}

func TestGate_ForgedAnswers(t *testing.T) {
	t.Run("an old session cannot claim the new protocol to answer itself", func(t *testing.T) {
		rs := startRaw(t)
		rs.send(t, strings.Replace(initLine, "2025-11-25", "2025-06-18", 1)) // no elicitation capability
		require.Contains(t, rs.recv(t), "result")
		rs.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for i, extra := range [][]string{
			{meta(newProto, canAsk), accepted},
			{meta(newProto, canAsk), accepted, `"requestState":"q-00000000000000000000000000000000"`},
			{accepted},
		} {
			rs.send(t, callLine(i+1, "destroy", "{}", extra...))
			o, _ := rs.gateResult(t, i+1)
			assert.Equal(t, CodeRefused, o.Code, "case %d", i)
			assert.Equal(t, ReasonCannotConfirm, o.Reason, "case %d", i)
		}
	})

	t.Run("an old session that can ask is asked, whatever its request says", func(t *testing.T) {
		rs := startRaw(t)
		rs.send(t, strings.Replace(initLine, `"capabilities":{}`, `"capabilities":{"elicitation":{}}`, 1))
		require.Contains(t, rs.recv(t), "result")
		rs.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		rs.send(t, callLine(1, "destroy", "{}", meta(newProto, canAsk), accepted))
		// The server asks through the session (elicitation/create); the
		// forged answer in the call counted for nothing. The person says no.
		_, ask := rs.recvRaw(t)
		require.Equal(t, "elicitation/create", ask["method"], "%v", ask)
		rs.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{"action":"decline"}}`, ask["id"]))
		o, _ := rs.gateResult(t, 1)
		assert.Equal(t, CodeRefused, o.Code)
		assert.Equal(t, ReasonDeclined, o.Reason)
	})

	t.Run("new protocol: only an answer to our own question counts, once", func(t *testing.T) {
		rs := startRaw(t)
		id := 0
		call := func(tool, args string, extra ...string) (Outcome, map[string]any) {
			id++
			rs.send(t, callLine(id, tool, args, extra...))
			return rs.gateResult(t, id)
		}
		ask := func(tool, args string) string {
			_, res := call(tool, args, meta(newProto, canAsk))
			require.Contains(t, res, "inputRequests", "the first call asks: %v", res)
			state, _ := res["requestState"].(string)
			require.NotEmpty(t, state)
			return state
		}
		for name, extra := range map[string][]string{
			"no requestState":       {accepted},
			"forged requestState":   {accepted, `"requestState":"q-0123456789abcdef0123456789abcdef"`},
			"empty requestState":    {accepted, `"requestState":""`},
			"state of another kind": {accepted, `"requestState":"eyJ0b29sIjoiZGVzdHJveSJ9"`},
		} {
			o, _ := call("destroy", "{}", append([]string{meta(newProto, canAsk)}, extra...)...)
			assert.Equal(t, CodeRefused, o.Code, name)
			assert.Equal(t, ReasonUnverified, o.Reason, name)
		}

		// The real round trip works, once.
		state := ask("destroy", "{}")
		o, _ := call("destroy", "{}", meta(newProto, canAsk), accepted, `"requestState":"`+state+`"`)
		assert.Equal(t, CodeOK, o.Code, "the person said yes to our question")
		o, _ = call("destroy", "{}", meta(newProto, canAsk), accepted, `"requestState":"`+state+`"`)
		assert.Equal(t, ReasonUnverified, o.Reason, "an answer is used once")

		// Bound to the tool and to the exact arguments.
		state = ask("destroy_entry", `{"id":"a"}`)
		o, _ = call("destroy_entry", `{"id":"b"}`, meta(newProto, canAsk), accepted, `"requestState":"`+state+`"`)
		assert.Equal(t, ReasonUnverified, o.Reason, "other arguments")
		state = ask("destroy_entry", `{"id":"a"}`)
		o, _ = call("destroy", "{}", meta(newProto, canAsk), accepted, `"requestState":"`+state+`"`)
		assert.Equal(t, ReasonUnverified, o.Reason, "another tool")
		state = ask("destroy_entry", `{"id":"a"}`)
		o, _ = call("destroy_entry", `{"id":"a"}`, meta(newProto, canAsk), accepted, `"requestState":"`+state+`"`)
		assert.Equal(t, CodeOK, o.Code, "same tool, same arguments")

		// Our own question with a "no", or no answer in it.
		state = ask("destroy", "{}")
		o, _ = call("destroy", "{}", meta(newProto, canAsk), `"inputResponses":{"confirm":{"action":"decline"}}`, `"requestState":"`+state+`"`)
		assert.Equal(t, ReasonDeclined, o.Reason)
		state = ask("destroy", "{}")
		o, _ = call("destroy", "{}", meta(newProto, canAsk), `"requestState":"`+state+`"`)
		assert.Equal(t, ReasonDeclined, o.Reason, "state without an answer")
	})

	t.Run("new protocol: a client that says it cannot ask is not asked", func(t *testing.T) {
		rs := startRaw(t)
		rs.send(t, callLine(1, "destroy", "{}", meta(newProto, cannotAsk), accepted))
		o, _ := rs.gateResult(t, 1)
		assert.Equal(t, CodeRefused, o.Code)
		assert.Equal(t, ReasonCannotConfirm, o.Reason)
	})
}
