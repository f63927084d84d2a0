package server

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CLIErrorKey is the _meta key of the CLI's own error report, for tools
// whose errors are JSON on stderr (error_output "json").
const CLIErrorKey = "aeat-mcp/cli_error"

// exited is the result of a CLI that exited by itself. The manifest's
// exit_codes say what a code means: the meaning goes to the outcome, the
// hint to the text, and an "ok" code is a success like 0.
func (c *call) exited(r callruntime.Result) *mcp.CallToolResult {
	code := r.ExitCode
	c.o.ExitCode = &code
	ec, mapped := c.t.ExitCode(code)
	if mapped {
		c.o.ExitMeaning = ec.Meaning
		c.o.Retryable = ec.Retryable
	}
	if code == 0 || ec.OK {
		c.o.Code = CodeOK
		text := c.okText(r)
		structured, found := c.structured(r)
		if found {
			// stdout held a secret in a form only decoding showed: the
			// model gets the decoded document, redacted, instead.
			text = string(structured)
		}
		if structured == nil {
			return c.finish(text, nil)
		}
		return c.finish(text, structured)
	}
	c.o.Code = CodeExit
	headline := c.p.Sprintf(i18n.ExitCode, c.t.Name, code)
	if mapped {
		headline = c.p.Sprintf(i18n.ExitCodeMeaning, c.t.Name, code, ec.Meaning)
	}
	if ec.Hint != "" {
		headline += "\n" + c.p.Sprintf(i18n.ExitHint, ec.Hint)
	}
	return c.finish(c.failureText(headline, r), nil)
}

// failureText puts what the CLI said under the localized headline. A CLI
// whose errors are JSON gets its last JSON object on stderr shown compactly
// (and kept in _meta), not the noise before it. Otherwise the end of
// stderr comes first (that is where the error is), then stdout, each with
// its share of --max-result-bytes, stderr at most a third.
func (c *call) failureText(headline string, r callruntime.Result) string {
	var b strings.Builder
	b.WriteString(headline)
	room := c.s.cfg.MaxResultBytes - len(headline) - 128
	if obj, compact, ok := c.jsonError(r.Stderr); ok {
		c.cliError = obj
		b.WriteString("\n\n" + c.p.Sprintf(i18n.CLIError) + "\n" + compact)
		room -= len(compact)
	} else if r.Stderr.Total > 0 {
		budget := room
		if r.Stdout.Total > 0 {
			budget = max(room/3, room-int(min(r.Stdout.Total, int64(room))))
		}
		errText := c.output(r.Stderr, budget)
		b.WriteString("\n\n" + c.p.Sprintf(i18n.Stderr) + "\n" + errText)
		room -= len(errText)
	}
	if r.Stdout.Total > 0 && room > 0 {
		b.WriteString("\n\n" + c.p.Sprintf(i18n.Stdout) + "\n" + c.output(r.Stdout, room))
	}
	return b.String()
}

// jsonError is the CLI's error report: the last JSON object on stderr,
// for a tool whose error_output is "json". compact is the object on one
// line, within a third of the result's budget.
func (c *call) jsonError(o callruntime.Output) (obj map[string]any, compact string, ok bool) {
	if c.t.ErrorOutput != annotations.OutputJSON || o.Total == 0 {
		return nil, "", false
	}
	text := string(o.Tail) // where a report after noise is
	if o.Omitted() == 0 {
		text = string(o.Head) + text
	}
	raw, ok := lastJSONObject(text)
	if !ok || json.Unmarshal(raw, &obj) != nil {
		return nil, "", false
	}
	if _, found := redactValue(c.secrets, obj); found {
		raw, _ = json.Marshal(obj) // a secret only decoding showed
	}
	var buf bytes.Buffer
	_ = json.Compact(&buf, raw)
	compact = fit(buf.String(), c.s.cfg.MaxResultBytes/3, func(n int) string { return c.p.Sprintf(i18n.Truncated, n) })
	return obj, compact, true
}

// maxJSONStarts bounds the candidate starts lastJSONObject tries.
const maxJSONStarts = 256

// lastJSONObject finds the last JSON object in text: it ends at the last
// "}" and starts at a "{" that opens a line (after indentation), the
// nearest one that makes the whole a valid object. A CLI prints its
// report as a line or a pretty-printed block after whatever warnings and
// progress came before it.
func lastJSONObject(text string) ([]byte, bool) {
	end := strings.LastIndexByte(text, '}')
	if end < 0 {
		return nil, false
	}
	body := text[:end+1]
	tries := 0
	for i := strings.LastIndexByte(body, '{'); i >= 0 && tries < maxJSONStarts; i = strings.LastIndexByte(body[:i], '{') {
		lineStart := strings.LastIndexByte(body[:i], '\n') + 1
		if strings.TrimLeft(body[lineStart:i], " \t\r") != "" {
			continue // a "{" inside a line: not where a report starts
		}
		tries++
		cand := []byte(body[i:])
		if json.Valid(cand) {
			return cand, true
		}
	}
	return nil, false
}
