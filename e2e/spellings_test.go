//go:build linux

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spellingsManifest is a manifest whose CLI is testdata/spellings.py of
// callruntime (Python, run with this machine's python3): a careless CLI
// that prints the secret it reads on stdin back in every spelling
// Python's, Node's and bash's own libraries make of it, and wrapped by
// textwrap and MIME base64 — spell_ok on stdout and as progress lines,
// spell_err in a JSON error document (cli_error), spell_json in a JSON
// result (structuredContent) — and writes what it printed to printed.
func spellingsManifest(t *testing.T, python, printed string) string {
	t.Helper()
	script, err := filepath.Abs("../internal/callruntime/testdata/spellings.py")
	require.NoError(t, err)
	read := `"annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}`
	tool := func(name, mode, extra string) string {
		return fmt.Sprintf(`{"name": %q, "title": "Echoes its secret", "description": "Prints its stdin secret back in every spelling.",
			"command": [%q], "stdin": {"env": "AEAT_TEST_SECRET"}, "progress": "stderr", %s %s}`, name, mode, extra, read)
	}
	m := fmt.Sprintf(`{"version": 1, "cli": {"command": %q, "args": [%q, "echo"], "env": {"set": {"SPELLINGS_PRINTED": %q}}},
		"tools": [%s, %s, %s]}`, python, script, printed,
		tool("spell_ok", "ok", ""), tool("spell_err", "err", `"error_output": "json",`), tool("spell_json", "json", `"output": "json",`))
	path := filepath.Join(t.TempDir(), "spellings.manifest.json")
	require.NoError(t, os.WriteFile(path, []byte(m), 0o644))
	return path
}

// TestE2E_SecretInEverySpelling: a CLI that echoes its stdin secret in
// every spelling its own libraries make of it (Python's repr, ascii and
// bytes repr, json.dumps and JSON inside JSON, urllib's quote and
// quote_plus, shlex, csv, html; Node's JSON.stringify, util.inspect,
// encodeURIComponent, encodeURI, URLSearchParams, Buffer; bash's printf %q
// and ${v@Q}; hex, base64, NFC and NFD), wrapped by textwrap at 70 columns
// and by MIME base64 at 76, each write cut in two: nothing the server writes
// — results, structuredContent, cli_error, progress — holds any of them,
// raw or decoded, wrapped or not; and the secret was there to be redacted.
func TestE2E_SecretInEverySpelling(t *testing.T) {
	python := proctest.Python(t)
	secrets := []string{
		`Ünïcode'q"uote$ \&<pass>€😀-2024`,
		`correct-horse-battery-staple-correct-horse-battery-staple-ÄÖ'"x`,
		`correct horse battery staple, Ünïcode 'q' "x" and more words`,
	}
	for _, secret := range secrets {
		t.Run(secret[:10], func(t *testing.T) {
			printed := filepath.Join(t.TempDir(), "printed.json")
			cmd := exec.Command(binary, "--manifest", spellingsManifest(t, python, printed), "--log-level", "debug")
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), proctest.CacheEnv(), "AEAT_TEST_SECRET=" + secret}
			rs := startRawCmd(t, cmd)
			rs.initialize(t)

			for id, tool := range []string{"spell_ok", "spell_err", "spell_json"} {
				params, _ := json.Marshal(map[string]any{"name": tool, "arguments": map[string]any{}, "_meta": map[string]any{"progressToken": id}})
				rs.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, params))
				lines, progress, result := rs.answerTo(t, id)

				var what struct{ Forms, Wrapped []string }
				raw, err := os.ReadFile(printed)
				require.NoError(t, err)
				require.NoError(t, json.Unmarshal(raw, &what))
				require.NotEmpty(t, what.Forms)
				for _, line := range lines {
					assertNoSpelling(t, tool, line, secret, what.Forms)
				}
				res, _ := json.Marshal(result)
				assert.Contains(t, string(res), redactedSecret, "%s: the secret was there to be redacted", tool)
				meta, _ := result["_meta"].(map[string]any)
				switch tool {
				case "spell_ok":
					assert.Contains(t, strings.Join(progress, "\n"), redactedSecret, "progress")
				case "spell_err":
					ce, _ := json.Marshal(meta[CLIErrorKey])
					assert.Contains(t, string(ce), redactedSecret, "cli_error of %s", res)
				case "spell_json":
					sc, _ := json.Marshal(result["structuredContent"])
					assert.Contains(t, string(sc), redactedSecret, "structuredContent of %s", res)
				}
			}
			assert.NotContains(t, rs.errs.String(), secret, "logs")
		})
	}
}

// assertNoSpelling checks that a line the server wrote holds none of the
// forms the CLI printed, raw or in any string the line decodes to, with its
// line breaks (and the indentation after them) taken out or not, and that
// no decoded string holds the secret itself.
func assertNoSpelling(t *testing.T, tool, line, secret string, forms []string) {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(line), &v))
	texts := []string{line}
	for _, s := range stringsIn(v, nil) {
		texts = append(texts, s, unwrapLines(s))
	}
	for _, text := range texts {
		for _, piece := range strings.Split(text, redactedSecret) {
			for _, f := range forms {
				if len(f) >= 8 && strings.Contains(piece, f) {
					t.Errorf("%s: %q is in %q", tool, f, text)
				}
			}
		}
	}
	for _, s := range stringsIn(v, nil) {
		assert.NotContains(t, unwrapLines(s), secret, "%s: a decoded string of %s", tool, line)
	}
}

// unwrapLines is s without its line breaks and the blanks after them.
func unwrapLines(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		b.WriteString(strings.TrimLeft(l, " \t"))
	}
	return b.String()
}
