package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/keychain"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
)

// The shipped examples/aeat.manifest.json, served over a fake aeat that
// refuses what the real one refuses (testdata/fakeaeat, its rules held to
// facts.json by internal/aeatfacts): DESIGN §3.1 and §3.2 proven on the
// manifest users will run.

const exampleManifest = "../../examples/aeat.manifest.json"

// memKeychain is an OS keychain in memory.
type memKeychain struct {
	mu      sync.Mutex
	secrets map[string]string
	down    error
}

func (k *memKeychain) Get(name string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.down != nil {
		return "", &keychain.UnavailableError{Err: k.down}
	}
	v, ok := k.secrets[name]
	if !ok {
		return "", keychain.ErrNotFound
	}
	return v, nil
}

func (k *memKeychain) Set(name, value string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.secrets == nil {
		k.secrets = map[string]string{}
	}
	k.secrets[name] = value
	return nil
}

func (k *memKeychain) Delete(name string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.secrets, name)
	return nil
}

// aeatServer serves the example manifest over fakeaeat; started counts the
// processes it starts. The environment is the test's (t.Setenv); the
// keychain is empty unless adjust sets one.
func aeatServer(t *testing.T, adjust func(*Config)) (s *Server, started *atomic.Int32) {
	t.Helper()
	r, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	m, err := annotations.Load(exampleManifest)
	require.NoError(t, err)
	cfg := Config{Manifest: m, CLIPath: fakeaeat, Runner: r, KillGrace: 300 * time.Millisecond,
		Printer: i18n.For(language.English), Keychain: &memKeychain{}}
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

// aeatUser: the fake aeat's user, from the kit.
type aeatUser = proctest.AeatUser

func loggedIn(t *testing.T) string { return aeatUser{LoggedIn: true}.Setup(t) }

var fakeStore = proctest.FakeAeatStore

func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(raw, &v), "structuredContent: %s", raw)
	return v
}

func resultOfCLI(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	r, _ := structured(t, res)["result"].(map[string]any)
	return r
}

// TestAeat_GlobalsBeforeTheVerb: the real CLI refuses --profile after the
// verb; cli.params render before it, so the call succeeds as that profile.
func TestAeat_GlobalsBeforeTheVerb(t *testing.T) {
	loggedIn(t)
	s, _ := aeatServer(t, nil)
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "ledger_list", map[string]any{"profile": "casa", "lang": "es", "limit": 2})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, "casa", structured(t, res)["active_profile"])
	assert.Len(t, resultOfCLI(t, res)["rows"], 2)
}

// TestAeat_NothingSet: a user who logged in from a terminal and set
// nothing in the host's config gets answers: no variable is required, the
// store is found through XDG_DATA_HOME, the keychain through D-Bus.
func TestAeat_NothingSet(t *testing.T) {
	loggedIn(t)
	s, started := aeatServer(t, nil)
	assert.Empty(t, union(s.missingEnv), "nothing the CLI reads is required")
	cs := connect(t, s, "", nil)
	for _, name := range []string{"ledger_list", "ledger_status", "profile_list", "modelo_list", "auth_status", "overview_status", "debts_list"} {
		res := callTool(t, cs, name, nil)
		assert.False(t, res.IsError, "%s: %s", name, text(res))
	}
	assert.EqualValues(t, 7, started.Load())
}

// TestAeat_LoggedOut: exempt verbs answer; the others refuse with the
// CLI's own message and remedy and our login hint — never "fix the
// arguments".
func TestAeat_LoggedOut(t *testing.T) {
	aeatUser{}.Setup(t)
	s, _ := aeatServer(t, nil)
	cs := connect(t, s, "", nil)
	for _, name := range []string{"profile_list", "modelo_list"} {
		res := callTool(t, cs, name, nil)
		assert.False(t, res.IsError, "%s is exempt from the login gate: %s", name, text(res))
	}
	for _, name := range []string{"ledger_list", "auth_status", "config_check", "overview_agenda", "filed_list", "debts_list"} {
		res := callTool(t, cs, name, nil)
		o := outcome(t, res)
		assert.True(t, res.IsError, name)
		assert.Equal(t, CodeExit, o.Code, name)
		assert.Equal(t, "login_required", o.ExitMeaning, name)
		assert.Equal(t, "REFUSED_CLI_BOUNDARY", o.CLIErrorCode, name)
		assert.False(t, o.Retryable, name)
		txt := text(res)
		says := strings.Index(txt, "The CLI says: You are not logged in.")
		remedy := strings.Index(txt, "The CLI's own remedy: aeat config login")
		hint := strings.Index(txt, "What to do: The user is not logged in to aeat.")
		assert.True(t, says > 0 && remedy > says && hint > remedy, "%s: the CLI's message, its remedy, then our hint:\n%s", name, txt)
		assert.Contains(t, txt, "15 idle minutes", name)
		assert.NotContains(t, txt, "fix the arguments", name)
	}
}

// TestAeat_SessionExpired: a session idle past 15 minutes is "expired",
// told apart from never having logged in.
func TestAeat_SessionExpired(t *testing.T) {
	root := loggedIn(t)
	st := fakeStore(t, root)
	st["session"].(map[string]any)["last_used"] = time.Now().Add(-20 * time.Minute).UTC()
	raw, _ := json.Marshal(st)
	require.NoError(t, os.WriteFile(filepath.Join(root, "fake-store.json"), raw, 0o600))
	s, _ := aeatServer(t, nil)
	res := callTool(t, connect(t, s, "", nil), "ledger_list", nil)
	assert.Equal(t, "session_expired", outcome(t, res).ExitMeaning)
	assert.Contains(t, text(res), "Your profile session has expired.")
}

// TestAeat_KeychainUnreachable: logged in from a terminal on a Linux
// desktop, but the server was started without the session bus: the CLI
// cannot reach its keychain; the model is told what to pass or set.
func TestAeat_KeychainUnreachable(t *testing.T) {
	loggedIn(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	s, _ := aeatServer(t, nil)
	res := callTool(t, connect(t, s, "", nil), "ledger_list", nil)
	o := outcome(t, res)
	assert.Equal(t, 3, *o.ExitCode)
	assert.Equal(t, "keychain_unavailable", o.ExitMeaning)
	assert.Equal(t, "AUTH_STORAGE_KEYRING_UNAVAILABLE", o.CLIErrorCode)
	assert.Contains(t, text(res), "DBUS_SESSION_BUS_ADDRESS")
	assert.Contains(t, text(res), "aeat-mcp secret set CADRUMO_SECRET_PASSPHRASE")
	assert.NotContains(t, text(res), "certificate", "not a hint about AEAT certificates")
}

// TestAeat_PassphraseFromKeychain: a logged-out user who stored the master
// passphrase with `aeat-mcp secret set` gets answers: the keychain's value
// reaches the CLI at call time, and nowhere else.
func TestAeat_PassphraseFromKeychain(t *testing.T) {
	aeatUser{}.Setup(t)
	kc := &memKeychain{}
	var logs bytes.Buffer
	s, _ := aeatServer(t, func(c *Config) {
		c.Keychain = kc
		c.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "ledger_list", nil)
	assert.Equal(t, "login_required", outcome(t, res).ExitMeaning, "an optional secret not stored: the call runs without it")

	require.NoError(t, kc.Set("CADRUMO_SECRET_PASSPHRASE", "pw"))
	res = callTool(t, cs, "ledger_list", nil)
	require.False(t, res.IsError, "stored after start-up, used at the next call: %s", text(res))
	for _, kv := range s.env {
		assert.False(t, strings.HasPrefix(kv, "CADRUMO_SECRET_PASSPHRASE="), "not in the server's standing environment for the CLI")
	}

	require.NoError(t, kc.Set("CADRUMO_SECRET_PASSPHRASE", "wrong"))
	res = callTool(t, cs, "ledger_list", nil)
	assert.Equal(t, "wrong_passphrase", outcome(t, res).ExitMeaning)
	assert.Contains(t, text(res), "aeat-mcp secret set CADRUMO_SECRET_PASSPHRASE")

	kc.down = os.ErrPermission
	res = callTool(t, cs, "ledger_list", nil)
	assert.Equal(t, "login_required", outcome(t, res).ExitMeaning, "an optional secret the keychain cannot give: the call runs without it")
	assert.NotContains(t, logs.String(), "wrong")
	assert.NotContains(t, logs.String(), `"pw"`)

	// The server's own variable (the env block) wins over the keychain.
	kc.down = nil
	t.Setenv("CADRUMO_SECRET_PASSPHRASE", "pw")
	s2, _ := aeatServer(t, func(c *Config) { c.Keychain = kc })
	res = callTool(t, connect(t, s2, "", nil), "ledger_list", nil)
	assert.False(t, res.IsError, text(res))
}

// TestAeat_ExitCodes: the CLI's error document decides: its code reaches
// the outcome, its retryable flag wins over the exit code's entry (two
// LOCKED codes are not retryable), its message comes before our hint.
func TestAeat_ExitCodes(t *testing.T) {
	for _, tc := range []struct {
		fail, meaning, code string
		exit                int
		retryable           bool
		hint                string
	}{
		{"auth", "keychain_unavailable", "AUTH_STORAGE_KEYRING_UNAVAILABLE", 3, false, "DBUS_SESSION_BUS_ADDRESS"},
		{"locked", "locked", "LOCKED_STORAGE_BUCKET_BUSY", 7, true, "wait a minute"},
		{"locked_session", "locked", "LOCKED_STORAGE_BUCKET_SESSION", 7, false, "wait a minute"},
		{"internal", "internal", "INTERNAL_CLI_UNEXPECTED_BOUNDARY", 6, false, "retrying will not help"},
	} {
		t.Run(tc.fail, func(t *testing.T) {
			loggedIn(t)
			t.Setenv("CADRUMO_FAKE_FAIL", tc.fail)
			s, _ := aeatServer(t, nil)
			res := callTool(t, connect(t, s, "", nil), "filed_list", nil)
			o := outcome(t, res)
			assert.True(t, res.IsError)
			assert.Equal(t, CodeExit, o.Code)
			assert.Equal(t, tc.exit, *o.ExitCode)
			assert.Equal(t, tc.meaning, o.ExitMeaning)
			assert.Equal(t, tc.code, o.CLIErrorCode)
			assert.Equal(t, tc.retryable, o.Retryable, "the document's retryable wins")
			txt := text(res)
			assert.Contains(t, txt, "("+tc.meaning+")")
			assert.Contains(t, txt, tc.hint)
			assert.Contains(t, txt, `"code":"`+tc.code+`"`, "the CLI's error, compact")
			assert.NotContains(t, txt, "auth_preflight=", "not the preflight lines before it")
			cliErr, ok := res.Meta[CLIErrorKey].(map[string]any)
			require.True(t, ok, "cli_error in _meta: %v", res.Meta)
			assert.Equal(t, tc.code, cliErr["error"].(map[string]any)["code"])
		})
	}
}

// TestAeat_ConfigCheck: config check exits 2 both when it found gaps (a
// success envelope: ok, with its structured result) and when the login
// gate refused it (no stdout: a failure).
func TestAeat_ConfigCheck(t *testing.T) {
	aeatUser{Profile: map[string]any{"check_issues": []string{"llm_vision is on but ollama is not running"}}}.Setup(t)
	s, _ := aeatServer(t, nil)
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "config_check", nil)
	assert.True(t, res.IsError, "logged out: a failure, not \"ok (no output)\"")
	assert.Equal(t, "login_required", outcome(t, res).ExitMeaning)

	root := loggedIn(t)
	st := fakeStore(t, root)
	st["profiles"].(map[string]any)["casa"].(map[string]any)["check_issues"] = []string{"llm_vision is on but ollama is not running"}
	raw, _ := json.Marshal(st)
	require.NoError(t, os.WriteFile(filepath.Join(root, "fake-store.json"), raw, 0o600))
	s, _ = aeatServer(t, nil)
	res = callTool(t, connect(t, s, "", nil), "config_check", nil)
	require.False(t, res.IsError, text(res))
	o := outcome(t, res)
	assert.Equal(t, CodeOK, o.Code)
	assert.Equal(t, 2, *o.ExitCode)
	assert.Equal(t, "problems_found", o.ExitMeaning)
	assert.Equal(t, []any{"llm_vision is on but ollama is not running"}, resultOfCLI(t, res)["issues"])
	assert.Contains(t, text(res), "What to do: The check found gaps")
}

// TestAeat_ProfileShowUnreadable: profile show NAME skips the login gate
// but cannot read the record without a session; the report suggests a
// repair, and the model is told not to run it.
func TestAeat_ProfileShowUnreadable(t *testing.T) {
	aeatUser{}.Setup(t)
	s, _ := aeatServer(t, nil)
	res := callTool(t, connect(t, s, "", nil), "profile_show", map[string]any{"name": "casa"})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, "profile_record_unreadable", resultOfCLI(t, res)["status"])
	assert.Contains(t, text(res), "Do not run `aeat config repair")
	assert.Contains(t, text(res), "aeat config login")
}

// TestAeat_StdinSecret: the certificate's passphrase comes from the
// keychain, wrapped as the exact object the CLI reads ({"secret": …}): it
// reaches the CLI, and never argv, the CLI's environment, logs or the
// result.
func TestAeat_StdinSecret(t *testing.T) {
	root := loggedIn(t)
	const secret = `hunter2 "s3cr3t"\passphrase`
	kc := &memKeychain{}
	require.NoError(t, kc.Set("AEAT_CERT_PASSPHRASE", secret))
	var logs bytes.Buffer
	s, _ := aeatServer(t, func(c *Config) {
		c.Keychain = kc
		c.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	assert.Empty(t, union(s.missingEnv))
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "certificate_secret_set", map[string]any{"name": "fnmt"})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, true, resultOfCLI(t, res)["has_secret"])
	assert.Equal(t, secret, fakeStore(t, root)["secrets"].(map[string]any)["fnmt"], "the CLI got exactly the secret")
	raw, _ := json.Marshal(res)
	assert.NotContains(t, string(raw), "hunter2")
	assert.NotContains(t, logs.String(), "hunter2")
	for _, kv := range s.env {
		assert.NotContains(t, kv, "hunter2")
	}
	args, err := s.tools["certificate_secret_set"].Validate(json.RawMessage(`{"name": "fnmt"}`))
	require.NoError(t, err)
	inv, err := s.tools["certificate_secret_set"].Render(args, false)
	require.NoError(t, err)
	assert.NotContains(t, strings.Join(inv.Argv, " "), "hunter2")
}

// TestAeat_StdinSecretMissing: without the secret, only the tool that
// reads it refuses, naming how to store it; nothing starts.
func TestAeat_StdinSecretMissing(t *testing.T) {
	loggedIn(t)
	s, started := aeatServer(t, nil)
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "certificate_secret_set", map[string]any{"name": "fnmt"})
	assert.Equal(t, ReasonMissingEnv, outcome(t, res).Reason)
	assert.Equal(t, []string{"AEAT_CERT_PASSPHRASE"}, outcome(t, res).MissingEnv)
	assert.Contains(t, text(res), "aeat-mcp secret set AEAT_CERT_PASSPHRASE")
	assert.Zero(t, started.Load())
	res = callTool(t, cs, "ledger_view", map[string]any{"transaction_id": "7f3a9c"})
	assert.False(t, res.IsError, text(res))
}

// TestAeat_Confirm: the CLI's own --yes is added only after a person said
// yes to a question that showed it (a value with a space quoted as a
// shell would); a dry run asks nobody and gets no --yes; a decline or a
// forged answer runs nothing.
func TestAeat_Confirm(t *testing.T) {
	loggedIn(t)
	var asked atomic.Value
	var answer atomic.Value
	opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked.Store(req.Params.Message)
		return answer.Load().(*mcp.ElicitResult), nil
	}}
	s, started := aeatServer(t, nil)
	cs := connect(t, s, "2025-11-25", opts)

	answer.Store(&mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}})
	res := callTool(t, cs, "ledger_remove", map[string]any{"transaction_id": "7f3a9c", "reason": "duplicada del banco"})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, true, resultOfCLI(t, res)["removed"])
	q := asked.Load().(string)
	assert.Contains(t, q, "Remove a ledger transaction")
	assert.Contains(t, q, "aeat --format json app ledger remove '--reason=duplicada del banco' --yes -- 7f3a9c", "the question shows what runs, quoted as a shell would")

	asked.Store("")
	res = callTool(t, cs, "ledger_remove", map[string]any{"transaction_id": "7f3a9c", "dry_run": true})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, false, resultOfCLI(t, res)["removed"])
	assert.Equal(t, "", asked.Load(), "a dry run asks nobody")

	n := started.Load()
	answer.Store(&mcp.ElicitResult{Action: "decline"})
	res = callTool(t, cs, "ledger_remove", map[string]any{"transaction_id": "7f3a9c"})
	assert.Equal(t, ReasonDeclined, outcome(t, res).Reason)
	assert.Equal(t, n, started.Load(), "declined: nothing ran")

	// The newest protocol: an answer the server did not ask for adds no --yes.
	cs2 := connect(t, s, "", &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}})
	res, err := cs2.CallTool(context.Background(), &mcp.CallToolParams{Name: "ledger_remove",
		Arguments:      map[string]any{"transaction_id": "7f3a9c"},
		InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}}})
	require.NoError(t, err)
	assert.Equal(t, ReasonUnverified, outcome(t, res).Reason)
	assert.Equal(t, n, started.Load(), "a forged yes: nothing ran")
}

// TestAeat_ConfirmNever: whoever starts the server with --confirm=never
// said yes to every destructive call: the flag is added.
func TestAeat_ConfirmNever(t *testing.T) {
	loggedIn(t)
	s, _ := aeatServer(t, func(c *Config) { c.Confirm = ConfirmNever })
	res := callTool(t, connect(t, s, "", nil), "sandbox_discard", map[string]any{"name": "pruebas", "dry_run": false})
	require.False(t, res.IsError, "--no-dry-run and --yes: %s", text(res))
	assert.Equal(t, true, resultOfCLI(t, res)["discarded"])
}

// TestAeat_Requires: the CLI's cross-field rules are checked before
// anything starts, naming both fields, in the CLI's direction.
func TestAeat_Requires(t *testing.T) {
	loggedIn(t)
	s, started := aeatServer(t, nil)
	cs := connect(t, s, "", nil)
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		field string
	}{
		{"ledger_list", map[string]any{"year": 2025}, "year"},
		{"ledger_list", map[string]any{"period": "1T"}, "period"},
		{"ledger_status", map[string]any{"period": "1T"}, "period"},
		{"filed_pull", map[string]any{"year": 2025, "period": "1T"}, "period"},
		{"filed_pull", map[string]any{"from_year": 2024}, "from_year"},
	} {
		res := callTool(t, cs, tc.tool, tc.args)
		o := outcome(t, res)
		assert.Equal(t, CodeInvalidArguments, o.Code, "%s %v", tc.tool, tc.args)
		require.NotNil(t, o.Field)
		assert.Equal(t, tc.field, *o.Field)
	}
	assert.Zero(t, started.Load())
	// …and what the CLI accepts runs: year alone on ledger_status.
	res := callTool(t, cs, "ledger_status", map[string]any{"year": 2025})
	assert.False(t, res.IsError, text(res))
	res = callTool(t, cs, "filed_pull", map[string]any{"year": 2025, "period": "1T", "modelo": []any{"303"}})
	assert.False(t, res.IsError, text(res))
	res = callTool(t, cs, "filed_pull", map[string]any{"year": 2025, "period": "1T", "modelo": []any{"303", "390"}})
	assert.Equal(t, "refused", outcome(t, res).ExitMeaning, "two modelos with a period: the CLI's own refusal")
	assert.Contains(t, text(res), "only valid for one --modelo with --year")
}

// TestAeat_SelectTools: --tools advertises and allows only the matching
// tools; the built-ins stay; a hidden tool is refused with the reason.
func TestAeat_SelectTools(t *testing.T) {
	loggedIn(t)
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
	res := callTool(t, cs, "ledger_remove", map[string]any{"transaction_id": "7f3a9c"})
	assert.Equal(t, CodeRefused, outcome(t, res).Code)
	assert.Equal(t, ReasonNotSelected, outcome(t, res).Reason)
	assert.Contains(t, text(res), "--tools")
	assert.Zero(t, started.Load())
}

// TestAeat_ProgressFromStderr: a JSON tool's progress comes from stderr,
// where the CLI narrates; a line is said once (heartbeats after it say the
// time), and neither stdout's JSON nor the CLI's final error document is
// ever progress.
func TestAeat_ProgressFromStderr(t *testing.T) {
	loggedIn(t)
	t.Setenv("CADRUMO_FAKE_DELAY", "1500ms")
	s, _ := aeatServer(t, func(c *Config) { c.Heartbeat = 150 * time.Millisecond })
	opts, msgs := progressMessages()
	cs := connect(t, s, "", opts)
	params := &mcp.CallToolParams{Name: "filed_list"}
	params.SetProgressToken("p")
	res, err := cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	handled(func() bool {
		all := msgs()
		return strings.Contains(strings.Join(all, "\n"), "auth_p") &&
			slices.ContainsFunc(all, func(m string) bool { return !strings.Contains(m, " — ") })
	})
	all := msgs()
	joined := strings.Join(all, "\n")
	assert.Contains(t, joined, "auth_p", "the CLI's stderr lines")
	assert.NotContains(t, joined, "schema_version")
	seen := map[string]int{}
	for _, m := range all {
		if _, line, ok := strings.Cut(m, " — "); ok {
			seen[line]++
		}
	}
	require.NotEmpty(t, seen)
	for line, n := range seen {
		assert.Equal(t, 1, n, "%q was said %d times", line, n)
	}
	assert.Greater(t, len(all), len(seen), "heartbeats went on, saying the time only")

	// A failing live call: its final error document is the result, not
	// progress.
	t.Setenv("CADRUMO_FAKE_FAIL", "locked")
	t.Setenv("CADRUMO_FAKE_DELAY", "0s")
	s, _ = aeatServer(t, func(c *Config) { c.Heartbeat = 100 * time.Millisecond })
	opts, msgs = progressMessages()
	cs = connect(t, s, "", opts)
	params = &mcp.CallToolParams{Name: "filed_list"}
	params.SetProgressToken("p")
	res, err = cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	require.True(t, res.IsError)
	for _, m := range msgs() {
		assert.NotContains(t, m, "LOCKED_STORAGE_BUCKET_BUSY", "the error document is not progress")
	}
}

// TestAeat_LongErrorDocument: a one-line error document longer than the
// kept stderr is said to be cut, its end shown, rather than silently lost.
func TestAeat_LongErrorDocument(t *testing.T) {
	aeatUser{}.Setup(t)
	t.Setenv("CADRUMO_FAKE_LONG_ERROR", "40000")
	s, _ := aeatServer(t, nil)
	res := callTool(t, connect(t, s, "", nil), "ledger_list", nil)
	assert.True(t, res.IsError)
	txt := text(res)
	assert.Contains(t, txt, "error report was longer than what aeat-mcp keeps")
	assert.Contains(t, txt, `"status":"error"}`, "its end")
	assert.Less(t, len(txt), DefaultMaxResultBytes+1)
}

// slowKeychain answers only when released, counting the reads.
type slowKeychain struct {
	memKeychain
	reads   atomic.Int32
	release chan struct{}
}

func (k *slowKeychain) Get(name string) (string, error) {
	k.reads.Add(1)
	<-k.release
	return k.memKeychain.Get(name)
}

// TestAeat_LockedKeychain: a keychain that does not answer (locked, with a
// prompt nobody sees) costs one bounded wait; optional secrets then skip
// it for a while, so calls that run without them are not slowed each time.
func TestAeat_LockedKeychain(t *testing.T) {
	loggedIn(t)
	kc := &slowKeychain{release: make(chan struct{})}
	t.Cleanup(func() { close(kc.release) })
	s, _ := aeatServer(t, func(c *Config) { c.Keychain = kc })
	s.keychainWait = 200 * time.Millisecond
	cs := connect(t, s, "", nil)
	res := callTool(t, cs, "ledger_list", nil)
	assert.False(t, res.IsError, "the optional passphrase is left out, the session serves: %s", text(res))
	assert.EqualValues(t, 1, kc.reads.Load())
	res = callTool(t, cs, "ledger_list", nil)
	assert.False(t, res.IsError, text(res))
	assert.EqualValues(t, 1, kc.reads.Load(), "the keychain is not asked again at once for an optional secret")
	res = callTool(t, cs, "certificate_secret_set", map[string]any{"name": "fnmt"})
	assert.Equal(t, ReasonMissingEnv, outcome(t, res).Reason, "a required secret still asks, and refuses with the reason")
	assert.Contains(t, text(res), "the OS keychain could not be read")
	assert.EqualValues(t, 2, kc.reads.Load())
}

// TestSecrets_BeforeConfirmation: a destructive call whose secret is
// missing is refused before anyone is asked to confirm it.
func TestSecrets_BeforeConfirmation(t *testing.T) {
	m, err := annotations.Parse([]byte(`{"version": 1, "cli": {"command": "x"}, "tools": [
	  {"name": "wipe", "title": "Wipe", "description": "d", "command": ["stdin"], "stdin": {"keychain": "WIPE_KEY"},
	   "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": false}}]}`), "")
	require.NoError(t, err)
	r, err := callruntime.NewRunner(callruntime.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	t.Setenv("WIPE_KEY", "")
	kc := &memKeychain{}
	s, err := New(Config{Manifest: m, CLIPath: fakecli, Runner: r, Keychain: kc, Printer: i18n.For(language.English)})
	require.NoError(t, err)
	t.Cleanup(s.Shutdown)
	var asked atomic.Int32
	cs := connect(t, s, "2025-11-25", &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked.Add(1)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
	}})
	res := callTool(t, cs, "wipe", nil)
	assert.Equal(t, ReasonMissingEnv, outcome(t, res).Reason)
	assert.Zero(t, asked.Load(), "nobody is asked to confirm a call that cannot run")
	require.NoError(t, kc.Set("WIPE_KEY", "k-1"))
	res = callTool(t, cs, "wipe", nil)
	require.False(t, res.IsError, text(res))
	assert.EqualValues(t, 1, asked.Load())
	assert.Equal(t, "stdin 3 bytes\n", text(res), "the keychain's value on stdin, after the yes")
}
