package annotations_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The keys that say what the real CLI means (docs/manifest.md, "`cli`").

const meaningManifest = `{
  "version": 1,
  "cli": {
    "command": "aeat",
    "env": {"pass": ["CADRUMO_*"], "keychain": ["UNLOCK", {"name": "OPTIONAL_ONE", "optional": true}]},
    "exit_codes": {"2": {"meaning": "refused", "hint": "read the error"}, "7": {"meaning": "locked", "retryable": true}},
    "error_output": {"format": "json", "suggestion": "/error/next"},
    "error_codes": {
      "REFUSED_CLI_BOUNDARY": [
        {"match": {"/error/context/reason": ["absent", "keychain_entry_missing"]}, "meaning": "login_required", "hint": "log in"},
        {"match": {"/error/context/reason": "expired_idle", "/error/retryable": false}, "meaning": "session_expired"}
      ],
      "AUTH_X": {"meaning": "keychain_unavailable", "retryable": true}
    },
    "health": {"command": ["config", "auth", "status"], "version": ["--version"]}
  },
  "tools": [
    {"name": "check", "title": "T", "description": "D", "command": ["config", "check"],
     "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
     "output": "json",
     "exit_codes": {"2": {"meaning": "findings", "ok": "with_stdout"}},
     "error_codes": {"AUTH_X": {"meaning": "mine"}}},
    {"name": "secret_set", "title": "T", "description": "D", "command": ["secret", "set", "--secrets-stdin"],
     "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
     "stdin": {"keychain": "CERT_PASSPHRASE", "json_key": "secret"}, "error_output": "text"}
  ]
}`

func TestMeaning_Load(t *testing.T) {
	m, err := annotations.Parse([]byte(meaningManifest), "m.json")
	require.NoError(t, err)
	assert.Equal(t, []annotations.KeychainVar{{Name: "UNLOCK"}, {Name: "OPTIONAL_ONE", Optional: true}}, m.CLI.Keychain)
	assert.Equal(t, &annotations.Health{Command: []string{"config", "auth", "status"}, Version: []string{"--version"}}, m.CLI.Health)
	// error_output as an object: the pointers given, the defaults for the rest.
	want := annotations.DefaultErrorPointers
	want.Suggestion = "/error/next"
	assert.Equal(t, want, m.CLI.ErrorOutput)
	check, secret := m.Tools[0], m.Tools[1]
	assert.Equal(t, want, check.ErrorOutput, "inherited")
	assert.Equal(t, annotations.ErrorOutput{Format: annotations.OutputText}, secret.ErrorOutput, "the tool's own wins")
	assert.Equal(t, annotations.OKWithStdout, check.ExitCodes[2].OK)
	assert.Equal(t, annotations.OKNever, secret.ExitCodes[2].OK)
	// error_codes: the tool's code replaces the cli's entries for it.
	assert.Len(t, check.ErrorCodes["REFUSED_CLI_BOUNDARY"], 2)
	assert.Equal(t, "mine", check.ErrorCodes["AUTH_X"][0].Meaning)
	assert.Equal(t, "keychain_unavailable", secret.ErrorCodes["AUTH_X"][0].Meaning)
	require.NotNil(t, secret.ErrorCodes["AUTH_X"][0].Retryable)
	assert.True(t, *secret.ErrorCodes["AUTH_X"][0].Retryable)
	assert.Equal(t, &annotations.StdinSource{Keychain: "CERT_PASSPHRASE", JSONKey: "secret"}, secret.Stdin)
	assert.Equal(t, "CERT_PASSPHRASE", secret.Stdin.Secret())
}

// TestMeaning_HealthReady: cli.health.ready judges the health answer by
// the value at its pointer — whatever the exit code said — and carries the
// CLI's own next action.
func TestMeaning_HealthReady(t *testing.T) {
	m, err := annotations.Parse([]byte(`{"version": 1, "cli": {"command": "aeat", "health": {"command": ["config", "auth", "status"],
	  "ready": {"pointer": "/result/active_profile_status", "values": ["ready", "incomplete"], "fix": "/result/active_profile_next_action"}}},
	  "tools": [`+tool("a")+`]}`), "m.json")
	require.NoError(t, err)
	r := m.CLI.Health.Ready
	require.NotNil(t, r)
	assert.Equal(t, annotations.OutputJSON, m.HealthTools()[0].Output, "a ready condition reads the answer's JSON")
	doc := func(s string) any {
		var v any
		require.NoError(t, json.Unmarshal([]byte(s), &v))
		return v
	}
	none := r.Judge(doc(`{"result": {"active_profile_status": "none", "active_profile_next_action": "aeat config login NAME"}}`))
	assert.Equal(t, annotations.Readiness{Value: "none", Found: true, Fix: "aeat config login NAME"}, none)
	assert.True(t, r.Judge(doc(`{"result": {"active_profile_status": "incomplete"}}`)).Ready)
	assert.Equal(t, annotations.Readiness{}, r.Judge(doc(`{"result": {}}`)), "nothing there: not ready")
	assert.False(t, r.Judge(doc(`{"result": {"active_profile_status": ["ready"]}}`)).Ready, "a list is not its element")

	num, err := annotations.Parse([]byte(`{"version": 1, "cli": {"command": "x", "health": {"command": ["s"], "ready": {"pointer": "/ok", "values": true}}}, "tools": [`+tool("a")+`]}`), "")
	require.NoError(t, err)
	assert.True(t, num.CLI.Health.Ready.Judge(doc(`{"ok": true}`)).Ready)
	assert.False(t, num.CLI.Health.Ready.Judge(doc(`{"ok": "true"}`)).Ready, "the string is not the boolean")
}

func TestMeaning_ErrorCodeFor(t *testing.T) {
	m, err := annotations.Parse([]byte(meaningManifest), "m.json")
	require.NoError(t, err)
	tl := m.Tools[1]
	doc := func(s string) any {
		var v any
		require.NoError(t, json.Unmarshal([]byte(s), &v))
		return v
	}
	for _, tc := range []struct {
		name, code, doc, meaning string
	}{
		{"logged out", "REFUSED_CLI_BOUNDARY", `{"error": {"context": {"reason": "absent"}}}`, "login_required"},
		{"keychain entry missing", "REFUSED_CLI_BOUNDARY", `{"error": {"context": {"reason": "keychain_entry_missing"}}}`, "login_required"},
		{"expired: every pointer must hold", "REFUSED_CLI_BOUNDARY", `{"error": {"context": {"reason": "expired_idle"}, "retryable": false}}`, "session_expired"},
		{"expired, but retryable true", "REFUSED_CLI_BOUNDARY", `{"error": {"context": {"reason": "expired_idle"}, "retryable": true}}`, ""},
		{"a bad parameter: no reason", "REFUSED_CLI_BOUNDARY", `{"error": {"context": null}}`, ""},
		{"the string false is not false", "REFUSED_CLI_BOUNDARY", `{"error": {"context": {"reason": "expired_idle"}, "retryable": "false"}}`, ""},
		{"no match: the code alone", "AUTH_X", `{}`, "keychain_unavailable"},
		{"unknown code", "NOPE", `{}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ec, ok := tl.ErrorCodeFor(tc.code, doc(tc.doc))
			assert.Equal(t, tc.meaning != "", ok)
			assert.Equal(t, tc.meaning, ec.Meaning)
		})
	}
}

func TestMeaning_Pointers(t *testing.T) {
	var doc any
	require.NoError(t, json.Unmarshal([]byte(`{"error": {"code": "C", "retryable": true, "message": "m", "suggestion": null,
		"a/b": {"~x": [1, "two"]}}}`), &doc))
	for _, tc := range []struct {
		ptr  annotations.Pointer
		want any
		ok   bool
	}{
		{"/error/code", "C", true},
		{"/error/suggestion", nil, true},
		{"/error/missing", nil, false},
		{"/error/a~1b/~0x/1", "two", true},
		{"/error/a~1b/~0x/01", nil, false},
		{"/error/a~1b/~0x/2", nil, false},
		{"/error/code/x", nil, false},
	} {
		got, ok := tc.ptr.Lookup(doc)
		assert.Equal(t, tc.ok, ok, tc.ptr)
		assert.Equal(t, tc.want, got, tc.ptr)
	}
	e := annotations.DefaultErrorPointers.Read(doc)
	require.NotNil(t, e.Retryable)
	assert.Equal(t, annotations.CLIError{Code: "C", Message: "m", Retryable: e.Retryable}, e)
	assert.True(t, *e.Retryable)
	// A field of the wrong type is absent: the document is the CLI's.
	require.NoError(t, json.Unmarshal([]byte(`{"error": {"code": 7, "retryable": "yes"}}`), &doc))
	assert.Equal(t, annotations.CLIError{}, annotations.DefaultErrorPointers.Read(doc))
}

func TestMeaning_StdinBytes(t *testing.T) {
	s := &annotations.StdinSource{Keychain: "X", JSONKey: "secret"}
	assert.Equal(t, `{"secret":"p\"a<s>s&\\ü"}`, string(s.Bytes(`p"a<s>s&\ü`)))
	var back map[string]string
	require.NoError(t, json.Unmarshal(s.Bytes("x\n\x01y"), &back))
	assert.Equal(t, map[string]string{"secret": "x\n\x01y"}, back)
	assert.Equal(t, "raw value", string((&annotations.StdinSource{Env: "X"}).Bytes("raw value")))
}

func TestMeaning_Errors(t *testing.T) {
	cliWith := func(cli string) string {
		return `{"version": 1, "cli": {"command": "aeat", ` + cli + `}, "tools": [` + tool("a") + `]}`
	}
	for _, tc := range []struct {
		name string
		data string
		want []string
	}{
		{"ok not a word", string(manifestWith(tool("a", `"exit_codes": {"2": {"meaning": "x", "ok": "sometimes"}}`))),
			[]string{`m.json: tool "a": exit_codes.2.ok: must be true, false or "with_stdout" (a success only when stdout holds the result)`}},
		{"with_stdout and retryable", string(manifestWith(tool("a", `"exit_codes": {"2": {"meaning": "x", "ok": "with_stdout", "retryable": true}}`))),
			[]string{`m.json: tool "a": exit_codes.2: a successful exit (ok) is not retryable`}},
		{"error output format", cliWith(`"error_output": {"format": "text"}`),
			[]string{`m.json: cli.error_output.format: is "text"; pointers read a JSON document, so it must be "json"`}},
		{"error output bad pointer", cliWith(`"error_output": {"code": "error/code", "message": "/a~2"}`),
			[]string{`m.json: cli.error_output.code: "error/code" is not a JSON Pointer (RFC 6901: "" or "/a/b", with ~0 for ~ and ~1 for /)`,
				`m.json: cli.error_output.message: "/a~2" is not a JSON Pointer (RFC 6901: "" or "/a/b", with ~0 for ~ and ~1 for /)`}},
		{"error output unknown key", cliWith(`"error_output": {"cod": "/x"}`),
			[]string{`m.json: cli.error_output.cod: unknown key (known: format, code, retryable, message, suggestion)`}},
		{"error codes not an object", cliWith(`"error_codes": ["X"]`),
			[]string{`m.json: cli.error_codes: must be an object of the CLI's error codes ("REFUSED_CLI_BOUNDARY": {"meaning": "login_required", "hint": "…"})`}},
		{"error code without meaning", cliWith(`"error_codes": {"X": {"hint": "h"}}`),
			[]string{`m.json: cli.error_codes.X.meaning: missing: a short word for programs ("login_required")`}},
		{"error code list entry", cliWith(`"error_codes": {"X": [{"meaning": "a"}, {"meaning": "B b"}]}`),
			[]string{`m.json: cli.error_codes.X[1].meaning: "B b" must match ^[a-z][a-z0-9_]{0,39}$ (a word programs can test)`}},
		{"error code empty list", cliWith(`"error_codes": {"X": []}`),
			[]string{`m.json: cli.error_codes.X: is an empty list: give one entry, or a list tried in order`}},
		{"error code bad match", cliWith(`"error_codes": {"X": {"meaning": "a", "match": {"reason": "x", "/a": {"b": 1}, "/c": []}}}`),
			[]string{`m.json: cli.error_codes.X.match./a: must be a string, number, boolean or null, or a non-empty list of them`,
				`m.json: cli.error_codes.X.match./c: must be a string, number, boolean or null, or a non-empty list of them`,
				`m.json: cli.error_codes.X.match.reason: "reason" is not a JSON Pointer (RFC 6901: "/a/b")`}},
		{"keychain bad name", cliWith(`"env": {"keychain": ["A-B", {"name": "C", "optional": "yes"}, {"optional": true}]}`),
			[]string{`m.json: cli.env.keychain[0]: "A-B" is not a variable name`,
				`m.json: cli.env.keychain[1].optional: must be true or false`,
				`m.json: cli.env.keychain[2].name: missing`}},
		{"keychain twice and set", cliWith(`"env": {"set": {"K": "v"}, "keychain": ["K", "J", "J"]}`),
			[]string{`m.json: cli.env.keychain[0]: "K" is also in cli.env.set: a fixed value and a secret from the keychain cannot both be it`,
				`m.json: cli.env.keychain[2]: "J" is listed twice`}},
		{"health empty", cliWith(`"health": []`),
			[]string{`m.json: cli.health: names no command: give the words of a read-only verb, e.g. ["config", "auth", "status"]`}},
		{"health object", cliWith(`"health": {"version": ["--version"], "extra": 1}`),
			[]string{`m.json: cli.health.extra: unknown key (known: command, version, ready)`,
				`m.json: cli.health.command: missing (the read-only command doctor runs, e.g. ["config", "auth", "status"])`,
				`m.json: cli.health: names no command: give the words of a read-only verb, e.g. ["config", "auth", "status"]`}},
		{"health ready", cliWith(`"health": {"command": ["s"], "ready": {"pointer": "result/status", "values": [], "fix": "", "why": 1}}`),
			[]string{`m.json: cli.health.ready.why: unknown key (known: pointer, values, fix)`,
				`m.json: cli.health.ready.pointer: "result/status" is not a JSON Pointer (RFC 6901: "/a/b")`,
				`m.json: cli.health.ready.fix: "" is not a JSON Pointer to the CLI's next action (RFC 6901: "/a/b")`,
				`m.json: cli.health.ready.values: must be a string, number, boolean or null, or a non-empty list of them`}},
		{"health ready without values", cliWith(`"health": {"command": ["s"], "ready": {"pointer": "/status"}}`),
			[]string{`m.json: cli.health.ready.values: missing: the values at pointer that mean the CLI can serve calls (e.g. ["ready"])`}},
		{"stdin two sources", string(manifestWith(tool("a", `"stdin": {"env": "X", "keychain": "Y"}`))),
			[]string{`m.json: tool "a": stdin: give exactly one of env (a server variable the model never sees), keychain (a secret stored with aeat-mcp secret set) and param`}},
		{"stdin bad keychain", string(manifestWith(tool("a", `"stdin": {"keychain": "X Y", "json_key": ""}`))),
			[]string{`m.json: tool "a": stdin.keychain: "X Y" is not a variable name`,
				`m.json: tool "a": stdin.json_key: must be a non-empty key, e.g. "secret" for {"secret": "…"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := annotations.Parse([]byte(tc.data), "m.json")
			require.Error(t, err)
			assert.Equal(t, strings.Join(tc.want, "\n"), err.Error())
		})
	}
}

// TestDocsManifestLoads: the manifest docs/manifest.md shows first
// loads, with the §3.2 keys it demonstrates.
func TestDocsManifestLoads(t *testing.T) {
	raw, err := os.ReadFile("../../docs/manifest.md")
	require.NoError(t, err)
	_, block, ok := strings.Cut(string(raw), "```json\n")
	require.True(t, ok)
	block, _, _ = strings.Cut(block, "```")
	m, err := annotations.Parse([]byte(block), "docs/manifest.md")
	require.NoError(t, err)
	assert.NotNil(t, m.CLI.Health)
	assert.NotEmpty(t, m.CLI.ErrorCodes)
	assert.NotEmpty(t, m.CLI.Keychain)
}
