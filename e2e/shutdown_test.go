//go:build unix

package e2e

import (
	"encoding/json"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2E_StopAnswersCallsInFlight plays a host's stop sequence against the
// built binary — close stdin, SIGTERM, then SIGKILL — and a bare SIGTERM
// (then SIGKILL): every call in flight is answered before the SIGKILL — a
// tree that honours SIGTERM, one that ignores it (it gets at most
// shutdownGrace, not its own ten minutes), and, after the input's end, a
// call that finishes by itself during the drain with its own result — and
// no process is left. The host's waits are events here (the drained call's
// answer) and its SIGKILL the hang bound: a stop that waited out the
// kill grace would take ten minutes.
func TestE2E_StopAnswersCallsInFlight(t *testing.T) {
	for _, mode := range []string{"signal", "eof then signal"} {
		t.Run(mode, func(t *testing.T) {
			rs := startRaw(t, "--kill-grace", "10m") // the default drain
			rs.initialize(t)
			answers := make(chan map[string]any, 16)
			go func() {
				defer close(answers)
				for {
					line, err := rs.out.ReadString('\n')
					if err != nil {
						return
					}
					var m map[string]any
					if json.Unmarshal([]byte(line), &m) == nil && m["id"] != nil {
						answers <- m
					}
				}
			}()
			call := func(id int, tool, args string) {
				rs.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args))
			}
			want := map[float64]Code{1: CodeCancelled, 2: CodeCancelled}
			call(1, "live_pull", `{}`)                     // honours SIGTERM (a child, a setsid grandchild)
			call(2, "read_stubborn", `{"duration":"60s"}`) // ignores SIGTERM
			waitForFakecli(t, 4)
			got := map[float64]Code{}
			if mode == "eof then signal" {
				call(3, "read_sleep", `{"duration":"500ms"}`) // ends by itself in the drain
				want[3] = CodeOK
				require.NoError(t, rs.in.Close())
				// The host waits; the call ends in the drain meanwhile.
				for got[3] == "" {
					select {
					case m, ok := <-answers:
						require.True(t, ok, "the server ended; stderr: %s", rs.errs.String())
						res, _ := m["result"].(map[string]any)
						code, _ := outcomeOf(res)["code"].(string)
						got[m["id"].(float64)] = Code(code)
					case <-time.After(proctest.HangAfter):
						t.Fatalf("the drained call was not answered; stderr: %s", rs.errs.String())
					}
				}
			}
			require.NoError(t, rs.cmd.Process.Signal(syscall.SIGTERM))
			kill := time.NewTimer(proctest.HangAfter) // then the host kills
			defer kill.Stop()
		collect:
			for len(got) < len(want) {
				select {
				case m, ok := <-answers:
					if !ok {
						break collect
					}
					res, _ := m["result"].(map[string]any)
					code, _ := outcomeOf(res)["code"].(string)
					got[m["id"].(float64)] = Code(code)
				case <-kill.C:
					_ = rs.cmd.Process.Kill()
					break collect
				}
			}
			assert.Equal(t, want, got, "every call answered before the SIGKILL; stderr: %s", rs.errs.String())
			assert.NoError(t, rs.cmd.Wait(), "exit 0; stderr: %s", rs.errs.String())
			requireNoFakecli(t, proctest.HangAfter)
		})
	}
}
