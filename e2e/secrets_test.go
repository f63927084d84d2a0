package e2e

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2E_StdinSecretNeverReachesTheModel: a CLI that prints back the secret
// it read on stdin — in progress lines, in its JSON result, in a JSON error
// on stderr, each write cut in the middle of the secret, JSON-escaped,
// ASCII-escaped and in base64 — has it redacted from every line the server
// writes: results (text, structuredContent, cli_error) and progress.
func TestE2E_StdinSecretNeverReachesTheModel(t *testing.T) {
	const value = `s3cr"et-pässwörd<&>`
	doc := `{"secret":"s3cr\"et-pässwörd<&>"}`
	rs := startRawEnv(t, []string{"AEAT_TEST_SECRET=" + doc}, "--log-level", "debug")
	rs.initialize(t)

	calls := []struct {
		tool string
		args map[string]any
	}{
		{"read_leak_env", map[string]any{"code": "0"}},
		{"read_leak_env", map[string]any{"code": "2"}},
		{"read_leak_param", map[string]any{"doc": doc, "code": "0"}},
		{"read_leak_param", map[string]any{"doc": doc, "code": "2"}},
	}
	for i, call := range calls {
		t.Run(fmt.Sprintf("%s exit %s", call.tool, call.args["code"]), func(t *testing.T) {
			id := i + 1
			params, _ := json.Marshal(map[string]any{"name": call.tool, "arguments": call.args, "_meta": map[string]any{"progressToken": id}})
			rs.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, params))
			lines, progress, result := rs.answerTo(t, id)
			// Nothing the server wrote holds the secret, in any form.
			forms := []string{value, doc, base64.StdEncoding.EncodeToString([]byte(doc)), "pässwörd", `p\u00e4ssw\u00f6rd`, "s3cr"}
			for _, line := range lines {
				for _, f := range forms {
					assert.NotContains(t, line, f)
				}
				var v any
				require.NoError(t, json.Unmarshal([]byte(line), &v))
				for _, s := range stringsIn(v, nil) {
					assert.NotContains(t, s, "pässwörd", "a decoded string of %s", line)
				}
			}
			// And it was there to be redacted: the CLI echoed it everywhere.
			assert.Contains(t, strings.Join(progress, "\n"), redactedSecret, "progress")
			raw, _ := json.Marshal(result)
			assert.Contains(t, string(raw), redactedSecret)
			meta, _ := result["_meta"].(map[string]any)
			if call.args["code"] == "0" {
				sc, _ := result["structuredContent"].(map[string]any)
				require.NotNil(t, sc, "structuredContent of %s", raw)
				assert.Equal(t, redactedSecret, sc["input"], "the whole document, the longest form")
				assert.Equal(t, redactedSecret, sc["input_b64"])
			} else {
				ce, _ := meta[CLIErrorKey].(map[string]any)
				require.NotNil(t, ce, "cli_error of %s", raw)
				msg := ce["error"].(map[string]any)["message"].(string)
				assert.Contains(t, msg, "input_value='"+redactedSecret+"'")
				o := meta[OutcomeKey].(map[string]any)
				assert.Equal(t, strconv.Itoa(2), fmt.Sprint(o["exit_code"]))
			}
		})
	}
	assert.NotContains(t, rs.errs.String(), "pässwörd", "logs")
}

// TestE2E_RedactionGaps: what the CLI prints of private keys in the forms
// issue 22 found passing — legacy PGP armor, JSON-escaped and Unicode
// dashes, PuTTY private lines, a JWK "d" — and invisible characters reach
// the model redacted and cleaned, over stdio against the built binary.
func TestE2E_RedactionGaps(t *testing.T) {
	cs, _ := connectBinary(t, "2025-11-25", nil)
	tests := []struct{ name, in, want string }{
		{"legacy pgp", "a\n-----BEGIN PGP SECRET KEY BLOCK-----\nlQHPBFsecret\n-----END PGP SECRET KEY BLOCK-----\nb", "a\n[redacted private key]\nb\n"},
		{"json dashes", `{"k":"\u002d\u002d\u002d\u002d\u002dBEGIN RSA PRIVATE KEY\u002d\u002d\u002d\u002d\u002d\nMIIEsecret\n\u002d\u002d\u002d\u002d\u002dEND RSA PRIVATE KEY\u002d\u002d\u002d\u002d\u002d"}`, `{"k":"[redacted private key]"}` + "\n"},
		{"unicode hyphens", "‐‐‐‐‐BEGIN OPENSSH PRIVATE KEY‐‐‐‐‐\nb3BlbnNzaC1secret\n‐‐‐‐‐END OPENSSH PRIVATE KEY‐‐‐‐‐", "[redacted private key]\n"},
		{"ppk", "Public-Lines: 1\nAAAAC3Nz\nPrivate-Lines: 1\nAAAAIGsecret\nPrivate-MAC: 00", "Public-Lines: 1\nAAAAC3Nz\n[redacted private key]\nPrivate-MAC: 00\n"},
		{"jwk d", `{"kty":"OKP","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}`, `{"kty":"OKP","d":"[redacted private key]"}` + "\n"},
		{"zero-width", "pa\u200by \u2060now\ufeff", "pay now\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := callTool(t, cs, "read_echo", map[string]any{"text": tc.in})
			assert.Equal(t, tc.want, text(res))
		})
	}
}
