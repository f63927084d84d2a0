//go:build linux

package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
)

// The shipped examples/aeat.manifest.json, served over a fake aeat that
// behaves like the real one where aeat-mcp meets it (testdata/fakeaeat):
// each addition of DESIGN §3.1 proven on the manifest users will run.

const exampleManifest = "../../examples/aeat.manifest.json"

// aeatServer serves the example manifest over fakeaeat; started counts the
// processes it starts. The environment is the test's (t.Setenv).
func aeatServer(t *testing.T, adjust func(*Config)) (s *Server, started *atomic.Int32) {
	t.Helper()
	r, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	m, err := annotations.Load(exampleManifest)
	require.NoError(t, err)
	cfg := Config{Manifest: m, CLIPath: fakeaeat, Runner: r, KillGrace: 300 * time.Millisecond,
		Printer: i18n.For(language.English)}
	if adjust != nil {
		adjust(&cfg)
	}
	s, err = New(cfg)
	require.NoError(t, err)
	t.Cleanup(s.Shutdown)
	started = &atomic.Int32{}
	s.beforeRun = func(string) { started.Add(1) }
	return s, started
}

// withStore is the environment of a configured aeat.
func withStore(t *testing.T) {
	t.Setenv("CADRUMO_STORAGE_ROOT", t.TempDir())
}

func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(raw, &v), "structuredContent: %s", raw)
	return v
}

// TestAeat_GlobalsBeforeTheVerb: the real CLI refuses --profile after the
// verb; cli.params render before it, so the call succeeds as that profile.
func TestAeat_GlobalsBeforeTheVerb(t *testing.T) {
	withStore(t)
	s, _ := aeatServer(t, nil)
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "ledger_list", map[string]any{"profile": "casa", "lang": "es", "limit": 2})
	require.False(t, res.IsError, text(res))
	v := structured(t, res)
	assert.Equal(t, "es", v["lang"])
	assert.Equal(t, "casa", v["result"].(map[string]any)["profile"])
	assert.Len(t, v["result"].(map[string]any)["entries"], 2)
}

// TestAeat_MissingEnv: without the variable the CLI needs, every call
// refuses naming it, and nothing starts (the real CLI would "succeed" with
// an empty profile).
func TestAeat_MissingEnv(t *testing.T) {
	t.Setenv("CADRUMO_STORAGE_ROOT", "")
	s, started := aeatServer(t, nil)
	assert.Equal(t, []string{"AEAT_CERT_SECRETS_JSON", "CADRUMO_STORAGE_ROOT"}, s.MissingEnv())
	cs := connect(t, s, "", nil)
	for _, name := range []string{"ledger_list", "filed_list", "config_check"} {
		res := callTool(t, cs, name, nil)
		o := outcome(t, res)
		assert.True(t, res.IsError)
		assert.Equal(t, CodeCLIUnavailable, o.Code)
		assert.Equal(t, ReasonMissingEnv, o.Reason)
		assert.Equal(t, []string{"CADRUMO_STORAGE_ROOT"}, o.MissingEnv)
		assert.Contains(t, text(res), "CADRUMO_STORAGE_ROOT")
		assert.Contains(t, text(res), `"env" block`)
	}
	assert.Zero(t, started.Load(), "nothing runs without the variables")
}

// TestAeat_ExitCodes: an exit code the manifest maps gives exit_meaning,
// retryable and the hint; the CLI's JSON error is returned compactly and in
// _meta, without the noise before it.
func TestAeat_ExitCodes(t *testing.T) {
	withStore(t)
	for _, tc := range []struct {
		fail, meaning string
		code          int
		retryable     bool
		hint          string
	}{
		{"auth", "auth", 3, false, "ask the user to check the certificate"},
		{"locked", "locked", 7, true, "wait a minute and retry"},
		{"internal", "internal", 6, false, "retrying will not help"},
	} {
		t.Run(tc.fail, func(t *testing.T) {
			t.Setenv("CADRUMO_FAKE_FAIL", tc.fail)
			s, _ := aeatServer(t, nil)
			cs := connect(t, s, "", nil)
			res := callTool(t, cs, "debts_list", nil)
			o := outcome(t, res)
			assert.True(t, res.IsError)
			assert.Equal(t, CodeExit, o.Code)
			require.NotNil(t, o.ExitCode)
			assert.Equal(t, tc.code, *o.ExitCode)
			assert.Equal(t, tc.meaning, o.ExitMeaning)
			assert.Equal(t, tc.retryable, o.Retryable)
			txt := text(res)
			assert.Contains(t, txt, "exited with code")
			assert.Contains(t, txt, "("+tc.meaning+")")
			assert.Contains(t, txt, tc.hint)
			assert.Contains(t, txt, `"code":"`+tc.fail+`"`, "the CLI's error, compact")
			assert.NotContains(t, txt, "DeprecationWarning", "not the noise before it")
			assert.NotContains(t, txt, "not json, a log line")
			cliErr, ok := res.Meta[CLIErrorKey].(map[string]any)
			require.True(t, ok, "cli_error in _meta: %v", res.Meta)
			assert.Equal(t, tc.fail, cliErr["error"].(map[string]any)["code"])
		})
	}
}

// TestAeat_ExitOK: config check exits 2 when it finds problems, with a
// success envelope: the manifest maps 2 to ok for that tool.
func TestAeat_ExitOK(t *testing.T) {
	withStore(t)
	s, _ := aeatServer(t, nil)
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "config_check", nil)
	require.False(t, res.IsError, text(res))
	o := outcome(t, res)
	assert.Equal(t, CodeOK, o.Code)
	require.NotNil(t, o.ExitCode)
	assert.Equal(t, 2, *o.ExitCode)
	assert.Equal(t, "problems_found", o.ExitMeaning)
	assert.NotEmpty(t, structured(t, res)["result"].(map[string]any)["findings"])

	// Another tool's exit 2 is the CLI's refusal, an error.
	res = callTool(t, cs, "ledger_view", map[string]any{"transaction_id": "tx-1", "profile": "x y"})
	assert.False(t, res.IsError, "a profile with a space is one token: %s", text(res))
}

// TestAeat_StdinSecret: the certificate's passphrase comes from the
// server's environment to the CLI's stdin: never in argv, the CLI's
// environment, logs or the result.
func TestAeat_StdinSecret(t *testing.T) {
	withStore(t)
	const secret = "hunter2-s3cr3t-passphrase"
	t.Setenv("AEAT_CERT_SECRETS_JSON", `{"passphrase": "`+secret+`"}`)
	var logs bytes.Buffer
	s, _ := aeatServer(t, func(c *Config) {
		c.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	assert.Empty(t, s.MissingEnv())
	for _, kv := range s.env {
		assert.NotContains(t, kv, secret, "the secret is not in the CLI's environment")
	}
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "certificate_secret_set", map[string]any{"name": "fnmt"})
	require.False(t, res.IsError, text(res))
	assert.EqualValues(t, 1, structured(t, res)["result"].(map[string]any)["stored_keys"])
	raw, _ := json.Marshal(res)
	assert.NotContains(t, string(raw), secret)
	assert.NotContains(t, logs.String(), secret)

	args, err := s.tools["certificate_secret_set"].Validate(json.RawMessage(`{"name": "fnmt"}`))
	require.NoError(t, err)
	inv, err := s.tools["certificate_secret_set"].Render(args, false)
	require.NoError(t, err)
	assert.NotContains(t, strings.Join(inv.Argv, " "), secret)
	assert.Equal(t, []byte(`{"passphrase": "`+secret+`"}`), s.stdin(s.tools["certificate_secret_set"], inv))
}

// TestAeat_StdinSecretMissing: without the secret, only the tool that
// reads it refuses.
func TestAeat_StdinSecretMissing(t *testing.T) {
	withStore(t)
	t.Setenv("AEAT_CERT_SECRETS_JSON", "")
	s, started := aeatServer(t, nil)
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "certificate_secret_set", map[string]any{"name": "fnmt"})
	assert.Equal(t, ReasonMissingEnv, outcome(t, res).Reason)
	assert.Equal(t, []string{"AEAT_CERT_SECRETS_JSON"}, outcome(t, res).MissingEnv)
	assert.Zero(t, started.Load())
	res = callTool(t, cs, "ledger_view", map[string]any{"transaction_id": "tx-1"})
	assert.False(t, res.IsError, text(res))
}

// TestAeat_Confirm: the CLI's own --yes is added only after a person said
// yes to a question that showed it; a dry run asks nobody and gets no
// --yes; a decline or a forged answer runs nothing.
func TestAeat_Confirm(t *testing.T) {
	withStore(t)
	var asked atomic.Value
	var answer atomic.Value
	opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked.Store(req.Params.Message)
		return answer.Load().(*mcp.ElicitResult), nil
	}}
	s, started := aeatServer(t, nil)
	cs := connect(t, s, "2025-11-25", opts)

	answer.Store(&mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}})
	res := callTool(t, cs, "ledger_remove", map[string]any{"transaction_id": "tx-9", "reason": "duplicada"})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, true, structured(t, res)["result"].(map[string]any)["removed"])
	q := asked.Load().(string)
	assert.Contains(t, q, "Remove a ledger entry")
	assert.Contains(t, q, "aeat --format json app ledger remove --reason=duplicada --yes -- tx-9", "the question shows what runs")

	asked.Store("")
	res = callTool(t, cs, "ledger_remove", map[string]any{"transaction_id": "tx-9", "dry_run": true})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, false, structured(t, res)["result"].(map[string]any)["removed"])
	assert.Equal(t, false, structured(t, res)["result"].(map[string]any)["confirmed_with_yes"], "no --yes without a yes")
	assert.Equal(t, "", asked.Load(), "a dry run asks nobody")

	n := started.Load()
	answer.Store(&mcp.ElicitResult{Action: "decline"})
	res = callTool(t, cs, "ledger_remove", map[string]any{"transaction_id": "tx-9"})
	assert.Equal(t, ReasonDeclined, outcome(t, res).Reason)
	assert.Equal(t, n, started.Load(), "declined: nothing ran")

	// The newest protocol: an answer the server did not ask for adds no --yes.
	cs2 := connect(t, s, "", &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}})
	res, err := cs2.CallTool(context.Background(), &mcp.CallToolParams{Name: "ledger_remove",
		Arguments:      map[string]any{"transaction_id": "tx-9"},
		InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}}})
	require.NoError(t, err)
	assert.Equal(t, ReasonUnverified, outcome(t, res).Reason)
	assert.Equal(t, n, started.Load(), "a forged yes: nothing ran")
}

// TestAeat_ConfirmNever: whoever starts the server with --confirm=never
// said yes to every destructive call: the flag is added.
func TestAeat_ConfirmNever(t *testing.T) {
	withStore(t)
	s, _ := aeatServer(t, func(c *Config) { c.Confirm = ConfirmNever })
	res := callTool(t, connect(t, s, "", nil), "sandbox_discard", map[string]any{"name": "pruebas", "dry_run": false})
	require.False(t, res.IsError, text(res))
	opts := structured(t, res)["result"].(map[string]any)
	assert.Equal(t, "config profile sandbox discard", opts["command"])
	assert.Contains(t, opts["options"], "--yes")
	assert.Contains(t, opts["options"], "--no-dry-run")
}

// TestAeat_Requires: a cross-field rule is checked before anything starts,
// naming both fields.
func TestAeat_Requires(t *testing.T) {
	withStore(t)
	s, started := aeatServer(t, nil)
	res := callTool(t, connect(t, s, "", nil), "ledger_list", map[string]any{"year": 2025})
	o := outcome(t, res)
	assert.Equal(t, CodeInvalidArguments, o.Code)
	require.NotNil(t, o.Field)
	assert.Equal(t, "year", *o.Field)
	assert.Contains(t, text(res), `requires "period"`)
	assert.Zero(t, started.Load())
}

// TestAeat_SelectTools: --tools advertises and allows only the matching
// tools; the built-ins stay; a hidden tool is refused with the reason.
func TestAeat_SelectTools(t *testing.T) {
	withStore(t)
	sel, err := annotations.ParseSelection([]string{"ledger_*", "!ledger_remove"})
	require.NoError(t, err)
	s, started := aeatServer(t, func(c *Config) { c.Select = sel })
	cs := connect(t, s, "", nil)
	list, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	assert.ElementsMatch(t, []string{"ledger_list", "ledger_view", "ledger_status", "ledger_import",
		ToolWait, ToolCancel, ToolRuns}, names)
	res := callTool(t, cs, "ledger_remove", map[string]any{"transaction_id": "tx-1"})
	assert.Equal(t, CodeRefused, outcome(t, res).Code)
	assert.Equal(t, ReasonNotSelected, outcome(t, res).Reason)
	assert.Contains(t, text(res), "--tools")
	assert.Zero(t, started.Load())
}

// TestAeat_ProgressFromStderr: a JSON tool's progress comes from stderr,
// where the CLI narrates; stdout's JSON never shows up as progress.
func TestAeat_ProgressFromStderr(t *testing.T) {
	withStore(t)
	t.Setenv("CADRUMO_FAKE_DELAY", "1500ms")
	s, _ := aeatServer(t, func(c *Config) { c.Heartbeat = 200 * time.Millisecond })
	opts, msgs := progressMessages()
	cs := connect(t, s, "", opts)
	params := &mcp.CallToolParams{Name: "filed_list"}
	params.SetProgressToken("p")
	res, err := cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	all := strings.Join(msgs(), "\n")
	assert.Contains(t, all, "abriendo la sede electrónica")
	assert.NotContains(t, all, "schema_version")
	assert.NotContains(t, all, "— {")
}

// TestE2E_RealAeatManifest: the built binary serves the shipped example
// over real stdio, as a host would start it, against the fake aeat.
func TestE2E_RealAeatManifest(t *testing.T) {
	const secret = "e2e-secret-value-9f3a"
	cmd := exec_(t, []string{"CADRUMO_STORAGE_ROOT=" + t.TempDir(), "AEAT_CERT_SECRETS_JSON={\"passphrase\":\"" + secret + "\"}", "AEAT_MCP_LANG=es"},
		"--manifest", exampleManifest, "--cli", fakeaeat, "--log-level", "debug")
	var logs syncBuffer
	cmd.Stderr = &logs
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	defer cs.Close()
	list, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	assert.Len(t, list.Tools, 19+3)

	res := callTool(t, cs, "ledger_list", map[string]any{"profile": "casa", "limit": 5})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, "casa", structured(t, res)["result"].(map[string]any)["profile"])

	res = callTool(t, cs, "config_check", nil)
	assert.Equal(t, "problems_found", outcome(t, res).ExitMeaning)

	res = callTool(t, cs, "justificante_pull", map[string]any{"modelo": "303", "year": 2025})
	assert.Equal(t, CodeInvalidArguments, outcome(t, res).Code, "period is required by the CLI and by the tool")

	res = callTool(t, cs, "ledger_remove", map[string]any{"transaction_id": "tx-1"})
	assert.Equal(t, ReasonCannotConfirm, outcome(t, res).Reason, "this client cannot be asked")
	assert.Contains(t, text(res), "confirmación", "in the user's language")
	res = callTool(t, cs, "ledger_remove", map[string]any{"transaction_id": "tx-1", "dry_run": true})
	require.False(t, res.IsError, text(res))

	res = callTool(t, cs, "certificate_secret_set", map[string]any{"name": "fnmt"})
	require.False(t, res.IsError, text(res))
	raw, _ := json.Marshal(res)
	assert.NotContains(t, string(raw), secret)
	require.NoError(t, cs.Close())
	assert.NotContains(t, logs.String(), secret, "not in the logs, at debug level either")
	assert.NotContains(t, logs.String(), "casa", "argument values never reach the logs")
}

// exec_ is the built binary with exactly env (plus PATH and HOME).
func exec_(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	return cmd
}
