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

// exited is the result of a CLI that exited by itself. The manifest says
// what it means (DESIGN.md §3.1, §3.2): an exit that is ok — always, or
// with_stdout when stdout holds the CLI's result — is a success like 0;
// otherwise the CLI's error document (error_output) gives its code, its
// retryable flag, its message and its own remedy; error_codes, keyed on
// that code, say what it means and what to do, winning over the exit
// code's entry; the document's retryable wins over both.
func (c *call) exited(r callruntime.Result) *mcp.CallToolResult {
	code := r.ExitCode
	c.o.ExitCode = &code
	if ec, mapped := c.t.ExitCode(code); code == 0 || ec.OK == annotations.OKAlways ||
		(ec.OK == annotations.OKWithStdout && c.holdsResult(r)) {
		c.o.Code = CodeOK
		c.o.ExitMeaning = ec.Meaning
		text := c.okText(r)
		structured, found := c.structured(r)
		if found {
			// stdout held a secret in a form only decoding showed: the
			// model gets the decoded document, redacted, instead.
			text = string(structured)
		}
		if mapped && code != 0 && ec.Hint != "" {
			// A verdict, not a failure (findings, a report with issues):
			// the model still needs to be told what to do with it.
			text += "\n\n" + c.p.Sprintf(i18n.ExitHint, ec.Hint)
		}
		if structured == nil {
			return c.finish(text, nil)
		}
		return c.finish(text, structured)
	}
	c.o.Code = CodeExit
	ec, mapped := c.t.FailedExitCode(code)
	meaning, hint := ec.Meaning, ec.Hint
	c.o.Retryable = ec.Retryable
	doc, compact, cut := c.jsonError(r.Stderr)
	var said annotations.CLIError
	if doc != nil {
		c.cliError = doc
		said = c.t.ErrorOutput.Read(doc)
		c.o.CLIErrorCode = said.Code
		if e, ok := c.t.ErrorCodeFor(said.Code, doc); ok {
			mapped, meaning, hint = true, e.Meaning, e.Hint
			if e.Retryable != nil {
				c.o.Retryable = *e.Retryable
			}
		}
		if said.Retryable != nil {
			c.o.Retryable = *said.Retryable // the CLI knows its own error best
		}
	}
	c.o.ExitMeaning = meaning
	var b strings.Builder
	if mapped && meaning != "" {
		b.WriteString(c.p.Sprintf(i18n.ExitCodeMeaning, c.t.Name, code, meaning))
	} else {
		b.WriteString(c.p.Sprintf(i18n.ExitCode, c.t.Name, code))
	}
	// The CLI's own words and remedy first, then ours (DESIGN.md §3.2).
	if said.Message != "" {
		b.WriteString("\n" + c.p.Sprintf(i18n.CLISays, said.Message))
	}
	if said.Suggestion != "" {
		b.WriteString("\n" + c.p.Sprintf(i18n.CLIRemedy, said.Suggestion))
	}
	if hint != "" {
		b.WriteString("\n" + c.p.Sprintf(i18n.ExitHint, hint))
	}
	return c.finish(c.failureText(b.String(), r, compact, cut), nil)
}

// failure is the text of a call that ended badly some other way (a
// signal, the memory ceiling): the headline, then what the CLI said.
func (c *call) failure(headline string, r callruntime.Result) string {
	doc, compact, cut := c.jsonError(r.Stderr)
	if doc != nil {
		c.cliError = doc
	}
	return c.failureText(headline, r, compact, cut)
}

// holdsResult reports whether stdout holds the CLI's result (ok:
// "with_stdout"): something besides whitespace and, for output "json",
// valid JSON. A stdout too long to keep whole is a result.
func (c *call) holdsResult(r callruntime.Result) bool {
	o := r.Stdout
	if len(bytes.TrimSpace(o.Head)) == 0 && len(bytes.TrimSpace(o.Tail)) == 0 {
		return false
	}
	if c.t.Output != annotations.OutputJSON || o.Omitted() > 0 {
		return true
	}
	return json.Valid(append(append([]byte{}, o.Head...), o.Tail...))
}

// failureText puts what the CLI said under the localized headline. The
// CLI's error document, when it printed one, is shown compactly (and kept
// in _meta), not the noise before it; a document too long to keep whole is
// said to be cut. Otherwise the end of stderr comes first (that is where
// the error is), then stdout, each with its share of --max-result-bytes,
// stderr at most a third.
func (c *call) failureText(headline string, r callruntime.Result, compact string, cut bool) string {
	var b strings.Builder
	b.WriteString(headline)
	room := c.s.cfg.MaxResultBytes - len(headline) - 128
	switch {
	case compact != "":
		b.WriteString("\n\n" + c.p.Sprintf(i18n.CLIError) + "\n" + compact)
		room -= len(compact)
	case r.Stderr.Total > 0:
		budget := room
		if r.Stdout.Total > 0 {
			budget = max(room/3, room-int(min(r.Stdout.Total, int64(room))))
		}
		if cut {
			b.WriteString("\n\n" + c.p.Sprintf(i18n.CLIErrorCut, r.Stderr.Total))
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

// jsonError is the CLI's error document: the last JSON object on stderr,
// for a tool whose error_output is "json". compact is the object on one
// line, within a third of the result's budget. cut reports a document that
// was not kept whole: the capture left out the middle of stderr and its
// last line, which ends like a JSON object, starts before what was kept.
func (c *call) jsonError(o callruntime.Output) (doc map[string]any, compact string, cut bool) {
	if !c.t.ErrorOutput.IsJSON() || o.Total == 0 {
		return nil, "", false
	}
	text := string(o.Tail) // where a report after noise is
	if o.Omitted() == 0 {
		text = string(o.Head) + text
	}
	raw, ok := lastJSONObject(text)
	if !ok || json.Unmarshal(raw, &doc) != nil {
		last := strings.TrimRight(text, " \t\r\n")
		return nil, "", o.Omitted() > 0 && strings.HasSuffix(last, "}") && !strings.Contains(last, "\n")
	}
	if _, found := redactValue(c.secrets, doc); found {
		raw, _ = json.Marshal(doc) // a secret only decoding showed
	}
	var buf bytes.Buffer
	_ = json.Compact(&buf, raw)
	compact = fit(buf.String(), c.s.cfg.MaxResultBytes/3, func(n int) string { return c.p.Sprintf(i18n.Truncated, n) })
	return doc, compact, false
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
