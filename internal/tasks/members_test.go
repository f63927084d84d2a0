package tasks

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMark_CopiesParamsOnce: marking a tools/call whose arguments are
// megabytes costs one copy of its params (the params passed on), not a
// decoding and an encoding of them (issue 32 item 3: a 15 MiB call peaked
// 40% higher once every call was re-encoded).
func TestMark_CopiesParamsOnce(t *testing.T) {
	const size = 8 << 20
	params := json.RawMessage(`{"name":"read_echo","arguments":{"text":"` + strings.Repeat("a", size) + `"},"_meta":{"progressToken":1}}`)
	c := &conn{t: &Transport{Requests: &Requests{}}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rq, out, rerr := c.mark(params)
	runtime.ReadMemStats(&after)
	require.Nil(t, rerr)
	require.NotNil(t, rq)
	allocated := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, allocated, uint64(size+size/4), "marking allocated %d bytes for params of %d", allocated, len(params))

	var got struct {
		Name      string
		Arguments struct{ Text string }
		Meta      map[string]any `json:"_meta"`
	}
	require.NoError(t, json.Unmarshal(out, &got))
	assert.Equal(t, "read_echo", got.Name)
	assert.Len(t, got.Arguments.Text, size)
	assert.Equal(t, rq.ticket, got.Meta[ticketKey])
	assert.Equal(t, float64(1), got.Meta["progressToken"])
}

// TestMark_Members: the params passed on hold one of each key — the last
// written, as Go's decoder keeps — with its key unescaped, every other
// value byte for byte, and no "task".
func TestMark_Members(t *testing.T) {
	c := &conn{t: &Transport{Requests: &Requests{}}}
	_, out, rerr := c.mark(json.RawMessage(` { "n\u0061me" : "a", "arguments": {"x": [1, "]}\"", {"y": null}]} , "name":"b", "task":{}, "\u005fmeta":{"k":1} } `))
	require.Nil(t, rerr)
	members, ok := membersOf(out)
	require.True(t, ok, "%s", out)
	keys := []string{}
	for _, m := range members {
		keys = append(keys, m.key)
	}
	assert.Equal(t, []string{"_meta", "arguments", "name"}, keys)
	assert.Equal(t, `{"x": [1, "]}\"", {"y": null}]}`, string(members[1].value), "the value as written")
	assert.Equal(t, `"b"`, string(members[2].value), "the last of a key written twice")
	assert.Contains(t, string(out), `"name":"b"`)

	for _, bad := range []string{``, `[]`, `null`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1}x`, `{"a":[}`, `{"a":"x}`} {
		_, got, rerr := c.mark(json.RawMessage(bad))
		assert.Nil(t, rerr, "%q", bad)
		assert.Equal(t, bad, string(got), "%q is passed on as it is, for the SDK to refuse", bad)
	}
}

// FuzzMembersOf: membersOf never fails on what Go's decoder reads as an
// object, and finds the same members in it (the last of each key, values
// equal once compacted); on anything else it may fail, never panic.
func FuzzMembersOf(f *testing.F) {
	for _, seed := range []string{`{}`, `{"a":1}`, `{"a":"\"}","b":[{"c":"]"}],"a":null}`, `{"t\u0061sk":{}}`, `[1]`, `{"a":tru}`, " {\"\\\\\":\"\\\\\"} ", `{"\xff":1}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		members, ok := membersOf(data)
		var want map[string]json.RawMessage
		if json.Unmarshal(data, &want) != nil || want == nil {
			return
		}
		require.True(t, ok, "%q", data)
		got := map[string]json.RawMessage{}
		for _, m := range members {
			got[m.key] = m.value
		}
		require.Equal(t, len(want), len(got), "%q", data)
		for k, v := range want {
			var a, b bytes.Buffer
			require.NoError(t, json.Compact(&a, v))
			require.NoError(t, json.Compact(&b, got[k]), "%q: member %q", data, k)
			require.Equal(t, a.String(), b.String(), "%q: member %q", data, k)
		}
	})
}

// BenchmarkMark15MiB: what marking a 15 MiB tools/call allocates and costs
// (B/op is the number to read: one copy of the params is 15.7 MB).
func BenchmarkMark15MiB(b *testing.B) {
	params := json.RawMessage(`{"name":"read_echo","arguments":{"text":"` + strings.Repeat("a", 15<<20) + `"}}`)
	c := &conn{t: &Transport{Requests: &Requests{}}}
	b.ReportAllocs()
	b.SetBytes(int64(len(params)))
	for b.Loop() {
		rq, _, _ := c.mark(params)
		c.t.Requests.forget(rq)
	}
}
