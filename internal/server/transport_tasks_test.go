package server

import (
	"encoding/json"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/tasks"
)

// BenchmarkMarkTask is what the transport does to an ordinary tools/call's
// params on a session that serves tasks (issue 22 item 6: it decodes and
// re-encodes them, where it used to search their bytes).
func BenchmarkMarkTask(b *testing.B) {
	c := &stdioConn{initDone: true, gen: tasks.V1, taskTools: func(string) bool { return true }}
	params := json.RawMessage(`{"name":"filed_pull","arguments":{"year":2025,"period":"1T","modelo":["303","390"],"profile":"default"},"_meta":{"progressToken":"tok-17"}}`)
	for b.Loop() {
		if _, _, rerr := c.markTask(params); rerr != nil {
			b.Fatal(rerr)
		}
	}
}
