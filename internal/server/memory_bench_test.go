//go:build linux

package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Memory under load (issue 22, items 7 and 8): the scenarios,
// played against the built binary over stdio, each reporting the server's
// peak resident memory (VmHWM) in MB. Reproduce with
//
//	go test -run '^$' -bench BenchmarkMemoryPeaks -benchtime 1x ./internal/server
//
// The numbers and what they were before are in BENCHMARKS.md.

// rpcClient speaks raw JSON-RPC to a server over its pipes, many requests
// at once: a reader goroutine hands each answer to the request waiting for
// it, and drops notifications.
type rpcClient struct {
	wmu     sync.Mutex
	in      io.Writer
	mu      sync.Mutex
	next    int64
	waiting map[string]chan map[string]any
	done    chan struct{}
}

func newRPCClient(in io.Writer, out io.Reader) *rpcClient {
	c := &rpcClient{in: in, waiting: map[string]chan map[string]any{}, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			var m map[string]any
			if json.Unmarshal(line, &m) != nil || m["id"] == nil || m["method"] != nil {
				continue // a notification, or a request of the server's
			}
			key := fmt.Sprint(m["id"])
			c.mu.Lock()
			ch := c.waiting[key]
			delete(c.waiting, key)
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		}
	}()
	return c
}

// send sends a request and returns the channel its answer comes on.
func (c *rpcClient) send(method string, params any) <-chan map[string]any {
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan map[string]any, 1)
	c.waiting[strconv.FormatInt(id, 10)] = ch
	c.mu.Unlock()
	raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	c.wmu.Lock()
	_, _ = c.in.Write(append(raw, '\n'))
	c.wmu.Unlock()
	return ch
}

func (c *rpcClient) call(method string, params any) map[string]any { return <-c.send(method, params) }

// startMeasured starts the binary in a 2025-11-25 session (tasks served)
// and returns a client and a function that reads the server's peak RSS.
func startMeasured(b *testing.B, args ...string) (*rpcClient, func() (peakMB, nowMB float64)) {
	b.Helper()
	cmd := serverCmd(b, nil, append([]string{"--log-level", "error"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	c := newRPCClient(in, out)
	c.call("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "bench", "version": "1"}})
	raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	_, _ = in.Write(append(raw, '\n'))
	return c, func() (float64, float64) { return rssMB(b, cmd.Process.Pid) }
}

// rssMB reads a process's peak (VmHWM) and current (VmRSS) resident size.
func rssMB(b *testing.B, pid int) (peak, now float64) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmHWM:":
			peak = kb / 1024
		case "VmRSS:":
			now = kb / 1024
		}
	}
	return peak, now
}

func BenchmarkMemoryPeaks(b *testing.B) {
	b.Run("10000-task-calls", memTaskCalls)
	b.Run("2000-tasks-60KB", memTasks60KB)
	b.Run("10000-blocked-tasks-result", memBlockedTasksResult)
	b.Run("64MiB-result", memBigResult)
	b.Run("59MB-json-result", memBigJSONResult)
	b.Run("15MiB-call", memBigCall)
}

// memTaskCalls: 10,000 task-augmented calls of a MUTATE tool, each with arguments of
// its own (so none joins another): all but one wait for the one MUTATE
// slot.
func memTaskCalls(b *testing.B) {
	for b.Loop() {
		c, rss := startMeasured(b)
		var answers []<-chan map[string]any
		for i := range 10000 {
			answers = append(answers, c.send("tools/call", map[string]any{"name": "mutate_sleep",
				"arguments": map[string]any{"duration": fmt.Sprintf("%dms", 60000+i)}, "task": map[string]any{}}))
		}
		refused := 0 // a task born finished with the busy refusal, or a busy error
		for _, a := range answers {
			m := <-a
			res, _ := m["result"].(map[string]any)
			if task, _ := res["task"].(map[string]any); m["error"] != nil || task["status"] == "failed" {
				refused++
			}
		}
		peak, _ := rss()
		b.ReportMetric(peak, "MB-peak")
		b.ReportMetric(float64(refused), "refused")
	}
}

// memTasks60KB: 2,000 tasks whose results are 60 KB each, 16 at a time, each
// collected with tasks/result; then what the server holds.
func memTasks60KB(b *testing.B) {
	for b.Loop() {
		c, rss := startMeasured(b)
		var wg sync.WaitGroup
		next := make(chan int)
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					h := c.call("tools/call", map[string]any{"name": "live_flood",
						"arguments": map[string]any{"bytes": strconv.Itoa(60000 + i)}, "task": map[string]any{}})
					res, _ := h["result"].(map[string]any)
					task, _ := res["task"].(map[string]any)
					if id, ok := task["taskId"].(string); ok {
						c.call("tasks/result", map[string]any{"taskId": id})
					}
				}
			}()
		}
		for i := range 2000 {
			next <- i
		}
		close(next)
		wg.Wait()
		time.Sleep(3 * time.Second) // a GC cycle or two: what is held, not garbage
		peak, now := rss()
		b.ReportMetric(peak, "MB-peak")
		b.ReportMetric(now, "MB-held")
	}
}

// memBlockedTasksResult: 10,000 tasks/result requests blocked on one task that runs for a
// minute.
func memBlockedTasksResult(b *testing.B) {
	for b.Loop() {
		c, rss := startMeasured(b)
		h := c.call("tools/call", map[string]any{"name": "mutate_sleep",
			"arguments": map[string]any{"duration": "60s"}, "task": map[string]any{}})
		id := h["result"].(map[string]any)["task"].(map[string]any)["taskId"]
		var answers []<-chan map[string]any
		for range 10000 {
			answers = append(answers, c.send("tasks/result", map[string]any{"taskId": id}))
		}
		time.Sleep(4 * time.Second) // every refusal is answered; the rest wait
		refused := 0
		for _, a := range answers {
			select {
			case m := <-a:
				if m["error"] != nil {
					refused++
				}
			default:
			}
		}
		peak, _ := rss()
		b.ReportMetric(peak, "MB-peak")
		b.ReportMetric(float64(refused), "refused")
	}
}

// memBigResult: One call whose output (96 MiB) is over --max-result-bytes 64 MiB.
func memBigResult(b *testing.B) {
	for b.Loop() {
		c, rss := startMeasured(b, "--max-result-bytes", strconv.Itoa(64<<20))
		m := c.call("tools/call", map[string]any{"name": "read_flood_n", "arguments": map[string]any{"bytes": strconv.Itoa(96 << 20)}})
		res, _ := m["result"].(map[string]any)
		content, _ := res["content"].([]any)
		if len(content) == 0 {
			b.Fatalf("no result: %v", m["error"])
		}
		peak, _ := rss()
		b.ReportMetric(peak, "MB-peak")
		b.ReportMetric(peak/64, "x-cap")
	}
}

// memBigJSONResult: One call of an output "json" tool whose 59 MB JSON object fits
// within --max-result-bytes 64 MiB: the text and the structured
// content.
func memBigJSONResult(b *testing.B) {
	for b.Loop() {
		c, rss := startMeasured(b, "--max-result-bytes", strconv.Itoa(64<<20))
		m := c.call("tools/call", map[string]any{"name": "read_bigjson_n", "arguments": map[string]any{"bytes": strconv.Itoa(56 << 20)}})
		res, _ := m["result"].(map[string]any)
		if res["structuredContent"] == nil {
			b.Fatalf("no structured content: %v", m["error"])
		}
		peak, _ := rss()
		b.ReportMetric(peak, "MB-peak")
		b.ReportMetric(peak/64, "x-cap")
	}
}

// memBigCall: one tools/call whose line is 15 MiB (a 15 MiB argument, under
// the 16 MiB a line may hold), on a 2025-11-25 session (tasks served): what
// reading, marking, decoding and validating the request costs. The CLI
// cannot be given the argument (no command line holds 15 MiB), so the answer
// is a refusal; the peak is the request's. MB-over-idle is the peak minus
// what the server held before the call.
func memBigCall(b *testing.B) {
	text := strings.Repeat("a", 15<<20)
	for b.Loop() {
		c, rss := startMeasured(b)
		_, idle := rss()
		m := c.call("tools/call", map[string]any{"name": "read_echo", "arguments": map[string]any{"text": text}})
		if m["result"] == nil {
			b.Fatalf("no result: %v", m["error"])
		}
		peak, _ := rss()
		b.ReportMetric(peak, "MB-peak")
		b.ReportMetric(peak-idle, "MB-over-idle")
	}
}
