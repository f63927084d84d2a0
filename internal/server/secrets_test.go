//go:build linux

package server

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/stretchr/testify/assert"
	"golang.org/x/text/language"
)

func TestSecretsOf(t *testing.T) {
	got := secretsOf([]byte(`{"secret":"hunter2","nested":{"list":["a-b-c",7]},"empty":""}` + "\n"))
	var s []string
	for _, b := range got {
		s = append(s, string(b))
	}
	assert.ElementsMatch(t, []string{`{"secret":"hunter2","nested":{"list":["a-b-c",7]},"empty":""}` + "\n",
		`{"secret":"hunter2","nested":{"list":["a-b-c",7]},"empty":""}`, "hunter2", "a-b-c"}, s)
	assert.Nil(t, secretsOf(nil))
	assert.Equal(t, [][]byte{[]byte("plain")}, secretsOf([]byte("plain")))
}

// TestSecretsAfterCleaningAndDecoding: what the stream could not see — a
// secret split by a terminal escape that cleaning removes, or written with
// JSON escapes that decoding resolves — is redacted from the text, the
// structuredContent and the cli_error all the same.
func TestSecretsAfterCleaningAndDecoding(t *testing.T) {
	s := newServer(t, nil)
	call := func(tool string) *call {
		t := s.tools[tool]
		c := &call{s: s, t: t, begin: time.Now(), p: i18n.For(language.English)}
		c.secrets = callruntime.RedactSecrets(secretsOf([]byte("hunter2-secret")))
		return c
	}
	out := func(s string) callruntime.Output { return callruntime.Output{Head: []byte(s), Total: int64(len(s))} }
	t.Run("joined by cleaning", func(t *testing.T) {
		res := call("read_echo").exited(callruntime.Result{Outcome: callruntime.Exited, Stdout: out("hunter2\x1b[0m-secret\n")})
		assert.Equal(t, callruntime.RedactedSecret+"\n", text(res))
	})
	t.Run("revealed by decoding stdout", func(t *testing.T) {
		res := call("read_leak_env").exited(callruntime.Result{Outcome: callruntime.Exited, Stdout: out(`{"v":"\u0068unter2-secret"}`)})
		assert.JSONEq(t, `{"v":"`+callruntime.RedactedSecret+`"}`, string(res.StructuredContent.(json.RawMessage)))
		assert.Equal(t, `{"v":"`+callruntime.RedactedSecret+`"}`, text(res))
	})
	t.Run("revealed by decoding the JSON error", func(t *testing.T) {
		res := call("read_leak_env").exited(callruntime.Result{Outcome: callruntime.Exited, ExitCode: 2,
			Stderr: out(`{"error":{"message":"bad \u0068unter2-secret","h\u0075nter2-secret":1}}`)})
		assert.Equal(t, map[string]any{"error": map[string]any{"message": "bad " + callruntime.RedactedSecret, callruntime.RedactedSecret: 1.0}}, res.Meta[CLIErrorKey])
		assert.NotContains(t, text(res), `\u0068unter2`)
		assert.Contains(t, text(res), callruntime.RedactedSecret)
	})
}

// TestStructuredContent: structuredContent is stdout's own bytes when they
// are a valid JSON object in valid UTF-8 (no decoded copy of a large
// document); invalid UTF-8 is decoded (and replaced) instead of passed on.
func TestStructuredContent(t *testing.T) {
	s := newServer(t, nil)
	c := &call{s: s, t: s.tools["read_json"], begin: time.Now(), p: i18n.For(language.English)}
	out := func(s string) callruntime.Result {
		return callruntime.Result{Outcome: callruntime.Exited, Stdout: callruntime.Output{Head: []byte(s), Total: int64(len(s))}}
	}
	v, _ := c.structured(out(" {\"a\": [1, 2.50, \"x\"]}\n"))
	assert.Equal(t, `{"a": [1, 2.50, "x"]}`, string(v), "as written")
	v, _ = c.structured(out("{\"a\":\"\xff\"}"))
	assert.Equal(t, `{"a":"`+"\ufffd"+`"}`, string(v))
	for _, notObject := range []string{`[1]`, `null`, `{"a":`, ``, `"x"`} {
		v, _ = c.structured(out(notObject))
		assert.Nil(t, v, notObject)
	}
}
