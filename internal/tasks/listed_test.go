package tasks

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// mapTaskSupport is how withTaskSupport once marked a tools/list result —
// decoded into maps and encoded again — kept as the oracle of what the
// marked result means.
func mapTaskSupport(result json.RawMessage, supports func(string) bool) (json.RawMessage, error) {
	var r map[string]json.RawMessage
	if err := json.Unmarshal(result, &r); err != nil {
		return nil, err
	}
	var tools []map[string]json.RawMessage
	if err := json.Unmarshal(r["tools"], &tools); err != nil {
		return nil, err
	}
	for _, t := range tools {
		var name string
		if json.Unmarshal(t["name"], &name) == nil && supports != nil && supports(name) {
			t["execution"] = v1Execution
		}
	}
	var err error
	if r["tools"], err = json.Marshal(tools); err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// toolsList is a tools/list result of n tools, some written as the SDK
// does not (escaped keys and names, an execution member of their own,
// spaces), with input schemas of some depth.
func toolsList(rng *rand.Rand, n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		name := fmt.Sprintf("tool_%d", i)
		if rng.IntN(7) == 0 {
			name = fmt.Sprintf(`t\u006fol_%d`, i) // "tool_i", escaped
		}
		props := []string{}
		for k := range rng.IntN(6) {
			props = append(props, fmt.Sprintf(`"p%d":{"type":"string","description":"a \"quoted\" {brace} [bracket] \\ %d","enum":["a","b"]}`, k, k))
		}
		fmt.Fprintf(&b, `{"name":"%s","description":"does %d","inputSchema":{"type":"object","properties":{%s},"additionalProperties":false}`, name, i, strings.Join(props, ","))
		switch rng.IntN(5) {
		case 0:
			b.WriteString(`,"execution":{"taskSupport":"forbidden"}`)
		case 1:
			b.WriteString(` , "annot\u0061tions" : {"readOnlyHint":true} `)
		}
		b.WriteString("}")
	}
	b.WriteString(`],"nextCursor":"c1","_meta":{"k":[1,2,{"x":null}]}}`)
	return json.RawMessage(b.String())
}

// TestWithTaskSupport_AsTheMapsSaid: marking a tools/list result where it
// lies means what decoding it into maps and encoding it again meant, for
// every tool — supported or not, its name escaped, its own execution
// member replaced — and keeps the result's other members.
func TestWithTaskSupport_AsTheMapsSaid(t *testing.T) {
	for seed := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, 9))
		result := toolsList(rng, rng.IntN(40))
		supports := func(name string) bool { return len(name)%2 == int(seed%2) }
		got, err := withTaskSupport(result, supports)
		require.NoError(t, err)
		want, err := mapTaskSupport(result, supports)
		require.NoError(t, err)
		var g, w any
		require.NoError(t, json.Unmarshal(got, &g), "%s", got)
		require.NoError(t, json.Unmarshal(want, &w))
		require.Equal(t, w, g, "seed %d", seed)
	}
	for _, bad := range []string{`[]`, `{"tools":{}}`, `{"tools":[1]}`, `{"tools":[{"name":"a"}`} {
		_, err := withTaskSupport(json.RawMessage(bad), func(string) bool { return true })
		require.Error(t, err, bad)
	}
}

// BenchmarkWithTaskSupport: marking a whole CLI's tools/list (300 tools)
// where it lies, against the maps it was once decoded into (the floor it
// replaced, measured in the same run).
func BenchmarkWithTaskSupport(b *testing.B) {
	result := toolsList(rand.New(rand.NewPCG(1, 2)), 300)
	supports := func(name string) bool { return strings.HasSuffix(name, "1") }
	for _, v := range []struct {
		name string
		mark func(json.RawMessage, func(string) bool) (json.RawMessage, error)
	}{{"in-place", withTaskSupport}, {"maps", mapTaskSupport}} {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(int64(len(result)))
			for b.Loop() {
				if _, err := v.mark(result, supports); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMarkLast_AsWithTaskSupport: a tool marked by MarkLast, as a
// server that lists its tools as bytes marks them, is byte for byte what
// withTaskSupport makes of it in a tools/list result.
func TestMarkLast_AsWithTaskSupport(t *testing.T) {
	tools := []string{
		`{"annotations":{"destructiveHint":false,"readOnlyHint":true,"title":"A & <b>"},"description":"x","inputSchema":{"type":"object","properties":{"p":{"type":"string","enum":["{","}"]}},"additionalProperties":false},"name":"a_tool","title":"A"}`,
		`{"inputSchema":{"type":"object"},"name":"b"}`,
		`{"name":"ünï\u00e7ode"}`,
	}
	for _, tool := range tools {
		want, err := withTaskSupport(json.RawMessage(`{"ttlMs":0,"tools":[`+tool+`]}`), func(string) bool { return true })
		require.NoError(t, err)
		got := string(MarkLast([]byte(`{"ttlMs":0,"tools":[`+tool))) + `]}`
		require.Equal(t, string(want), got)
	}
}

// mapCapability is how withCapability once set the tasks capability —
// the initialize result decoded into maps and encoded again — kept as the
// oracle of what the result means.
func mapCapability(result json.RawMessage) (json.RawMessage, error) {
	var r map[string]json.RawMessage
	if err := json.Unmarshal(result, &r); err != nil {
		return nil, err
	}
	caps := map[string]json.RawMessage{}
	if raw := r["capabilities"]; len(raw) > 0 {
		if err := json.Unmarshal(raw, &caps); err != nil {
			return nil, err
		}
	}
	caps["tasks"] = v1Capability
	var err error
	if r["capabilities"], err = json.Marshal(caps); err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// TestWithCapability_AsTheMapsSaid: setting the tasks capability where the
// initialize result lies means what decoding it into maps and encoding it
// again meant — a capability of its own replaced, none added, the other
// members (escaped text, nesting, spaces) kept — and the protocol version
// reads as encoding/json read it.
func TestWithCapability_AsTheMapsSaid(t *testing.T) {
	for _, result := range []string{
		`{"capabilities":{"logging":{},"tools":{"listChanged":true}},"instructions":"a \"quoted\" {brace} <b> & \\ \u00e9","protocolVersion":"2025-11-25","serverInfo":{"name":"aeat-mcp","version":"1"}}`,
		`{"protocolVersion":"2025-11-25","capabilities":{"tasks":{"list":{}},"resources":{}},"serverInfo":{"name":"x"}}`,
		`{ "protocolVersion" : "2025-06-18" , "capabilities" : { } }`,
		`{"protocolVersion":"2025-11-25","serverInfo":{"name":"x"}}`,
		`{}`,
		`{"prot\u006fcolVersion":"2025-11-25","capabilities":{"experimental":{"a":[1,{"b":null}]}}}`,
		`{"capabilities":{"x<y\"z\u00e9":{},"tasks":{}},"protocolVersion":"2025-11-25","protocolVersion":"2026-07-28"}`,
		`{"capabilities":{},"protocolVersion":"2025-11-25","capabilities":{"logging":{}}}`, // the last one counts
	} {
		got, err := withCapability(json.RawMessage(result))
		require.NoError(t, err, result)
		want, err := mapCapability(json.RawMessage(result))
		require.NoError(t, err)
		var g, w any
		require.NoError(t, json.Unmarshal(got, &g), "%s", got)
		require.NoError(t, json.Unmarshal(want, &w))
		require.Equal(t, w, g, result)

		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal([]byte(result), &r)
		require.Equal(t, r.ProtocolVersion, protocolVersionOf(json.RawMessage(result)), result)
	}
	for _, bad := range []string{`[]`, `{"capabilities":[]}`, `{"capabilities":{"a":}}`} {
		_, err := withCapability(json.RawMessage(bad))
		require.Error(t, err, bad)
	}
}

// BenchmarkWithCapability: the tasks capability set in an initialize
// result as the server writes it (instructions of 1.5 KB) where it lies,
// against the maps it was once decoded into (the floor it replaced,
// measured in the same run).
func BenchmarkWithCapability(b *testing.B) {
	result := json.RawMessage(`{"capabilities":{"logging":{},"resources":{},"tools":{"listChanged":true}},"instructions":"` +
		strings.Repeat(`These tools run a command-line program \"aeat\"; `, 30) + `","protocolVersion":"2025-11-25","serverInfo":{"name":"aeat-mcp","title":"aeat-mcp","version":"dev"}}`)
	for _, v := range []struct {
		name string
		set  func(json.RawMessage) (json.RawMessage, error)
	}{{"in-place", withCapability}, {"maps", mapCapability}} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.set(result); err != nil {
					b.Fatal(err)
				}
				_ = protocolVersionOf(result)
			}
		})
	}
}
