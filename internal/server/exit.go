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
// what it means (docs/manifest.md, "`cli`"): an exit that is ok — always, or
// with_stdout when stdout holds the CLI's result — is a success like 0;
// otherwise the CLI's error document (error_output) gives its code, its
// retryable flag, its message and its own remedy; error_codes, keyed on
// that code, say what it means and what to do, winning over the exit
// code's entry; the document's retryable wins over both.
func (w *work) exited(r callruntime.Result) *mcp.CallToolResult {
	code := r.ExitCode
	w.o.ExitCode = &code
	if ec, mapped := w.t.ExitCode(code); code == 0 || ec.OK == annotations.OKAlways ||
		(ec.OK == annotations.OKWithStdout && w.holdsResult(r)) {
		return w.succeeded(r, ec, mapped && code != 0)
	}
	return w.failed(r)
}

// succeeded is the result of an exit that is a success: stdout, and, for
// an exit code the manifest maps (hinted), what to do with the verdict.
func (w *work) succeeded(r callruntime.Result, ec annotations.ExitCode, hinted bool) *mcp.CallToolResult {
	w.o.ExitMeaning = ec.Meaning
	text := w.okText(r)
	structured, found := w.structured(r)
	if found {
		// stdout held a secret in a form only decoding showed: the model
		// gets the decoded document, redacted, instead.
		text = string(structured)
	}
	if hinted && ec.Hint != "" {
		// A verdict, not a failure (findings, a report with issues): the
		// model still needs to be told what to do with it.
		text += "\n\n" + w.s.cfg.Printer.Sprintf(i18n.ExitHint, ec.Hint)
	}
	if structured == nil {
		return w.finish(CodeOK, text, nil) // not a nil json.RawMessage in an interface
	}
	return w.finish(CodeOK, text, structured)
}

// failed is the result of an exit that is a failure: what the exit code
// and the CLI's error document mean, the CLI's own words and remedy, then
// ours.
func (w *work) failed(r callruntime.Result) *mcp.CallToolResult {
	code := r.ExitCode
	ec, mapped := w.t.FailedExitCode(code)
	meaning, hint := ec.Meaning, ec.Hint
	w.o.Retryable = ec.Retryable
	doc, compact, cut := w.jsonError(r.Stderr)
	var said annotations.CLIError
	if doc != nil {
		w.cliError = doc
		said = w.t.ErrorOutput.Read(doc)
		w.o.CLIErrorCode = said.Code
		if e, ok := w.t.ErrorCodeFor(said.Code, doc); ok {
			mapped, meaning, hint = true, e.Meaning, e.Hint
			if e.Retryable != nil {
				w.o.Retryable = *e.Retryable
			}
		}
		if said.Retryable != nil {
			w.o.Retryable = *said.Retryable // the CLI knows its own error best
		}
	}
	w.o.ExitMeaning = meaning
	p := w.s.cfg.Printer
	headline := p.Sprintf(i18n.ExitCode, w.t.Name, code)
	if mapped && meaning != "" {
		headline = p.Sprintf(i18n.ExitCodeMeaning, w.t.Name, code, meaning)
	}
	// The CLI's own words and remedy first, then ours.
	for _, line := range []struct {
		key  i18n.Key
		text string
	}{{i18n.CLISays, said.Message}, {i18n.CLIRemedy, said.Suggestion}, {i18n.ExitHint, hint}} {
		if line.text != "" {
			headline += "\n" + p.Sprintf(line.key, line.text)
		}
	}
	for _, line := range w.in.sourceLines(p, hint, said.Message, said.Suggestion) {
		headline += "\n" + line
	}
	return w.finish(CodeExit, w.failureText(headline, r, compact, cut), nil)
}

// failure is the text of a call that ended badly some other way (a
// signal, the memory ceiling): the headline, then what the CLI said.
func (w *work) failure(headline string, r callruntime.Result) string {
	doc, compact, cut := w.jsonError(r.Stderr)
	if doc != nil {
		w.cliError = doc
	}
	return w.failureText(headline, r, compact, cut)
}

// holdsResult reports whether stdout holds the CLI's result (ok:
// "with_stdout"): something besides whitespace and, for output "json",
// valid JSON. A stdout too long to keep whole is a result.
func (w *work) holdsResult(r callruntime.Result) bool {
	o := r.Stdout
	if len(bytes.TrimSpace(o.Head)) == 0 && len(bytes.TrimSpace(o.Tail)) == 0 {
		return false
	}
	if w.t.Output != annotations.OutputJSON || o.Omitted() > 0 {
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
func (w *work) failureText(headline string, r callruntime.Result, compact string, cut bool) string {
	p := w.s.cfg.Printer
	var b strings.Builder
	b.WriteString(headline)
	room := w.s.cfg.MaxResultBytes - len(headline) - 128
	switch {
	case compact != "":
		b.WriteString("\n\n" + p.Sprintf(i18n.CLIError) + "\n" + compact)
		room -= len(compact)
	case r.Stderr.Total > 0:
		budget := room
		if r.Stdout.Total > 0 {
			budget = max(room/3, room-int(min(r.Stdout.Total, int64(room))))
		}
		if cut {
			b.WriteString("\n\n" + p.Sprintf(i18n.CLIErrorCut, r.Stderr.Total))
		}
		errText := w.output(callruntime.Stderr, r.Stderr, budget)
		b.WriteString("\n\n" + p.Sprintf(i18n.Stderr) + "\n" + errText)
		room -= len(errText)
	}
	if r.Stdout.Total > 0 && room > 0 {
		b.WriteString("\n\n" + p.Sprintf(i18n.Stdout) + "\n" + w.output(callruntime.Stdout, r.Stdout, room))
	}
	return b.String()
}

// jsonError is the CLI's error document: the last JSON object on stderr,
// for a tool whose error_output is "json". compact is the object on one
// line, within a third of the result's budget. cut reports a document that
// was not kept whole: the capture left out the middle of stderr and its
// last line, which ends like a JSON object, starts before what was kept.
func (w *work) jsonError(o callruntime.Output) (doc map[string]any, compact string, cut bool) {
	if !w.t.ErrorOutput.IsJSON() || o.Total == 0 {
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
	p := w.s.cfg.Printer
	if _, found := redactValue(w.secrets, doc); found {
		raw, _ = json.Marshal(doc) // a secret only decoding showed
	}
	var buf bytes.Buffer
	_ = json.Compact(&buf, raw)
	compact = fit(buf.String(), w.s.cfg.MaxResultBytes/3, func(n int) string { return p.Sprintf(i18n.Truncated, n) })
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
