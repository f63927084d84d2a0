//go:build unix

package server

import (
	"encoding/json"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2E_StopAnswersCallsInFlight plays a host's stop sequence against the
// built binary — close stdin, 2 s, SIGTERM, 2 s, SIGKILL — and a bare
// SIGTERM (then SIGKILL 2 s later): every call in flight is answered before
// the SIGKILL — a tree that honours SIGTERM, one that ignores it (it gets at
// most callruntime.ShutdownGrace), and, after the input's end, a call that
// finishes by itself during the drain with its own result — and no process
// is left.
func TestE2E_StopAnswersCallsInFlight(t *testing.T) {
	for _, mode := range []string{"signal", "eof then signal"} {
		t.Run(mode, func(t *testing.T) {
			rs := startRaw(t) // the default drain and kill grace
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
			if mode == "eof then signal" {
				call(3, "read_sleep", `{"duration":"500ms"}`) // ends by itself in the drain
				want[3] = CodeOK
				require.NoError(t, rs.in.Close())
				time.Sleep(2 * time.Second) // the host waits, then signals
			}
			require.NoError(t, rs.cmd.Process.Signal(syscall.SIGTERM))
			kill := time.NewTimer(2 * time.Second) // then the host kills
			defer kill.Stop()
			got := map[float64]Code{}
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
			requireNoFakecli(t, 3*time.Second)
		})
	}
}
