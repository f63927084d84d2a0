package aeatfacts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fake aeat (testdata/fakeaeat) refuses what the real one refuses: its
// rule table is held to facts.json here, fact by fact, and the built fake
// is driven against every rule of every example verb.

func fakeDir() string { return filepath.Join(proctest.AeatFacts(), "..", "fakeaeat") }

// fakeTable is testdata/fakeaeat/rules.json, as the test reads it.
type fakeTable struct {
	Version struct {
		Line string `json:"line"`
	} `json:"version"`
	Login struct {
		Refusal struct {
			ExitCode   int    `json:"exit_code"`
			Category   string `json:"category"`
			ErrorCode  string `json:"error_code"`
			Retryable  bool   `json:"retryable"`
			Suggestion string `json:"suggestion"`
			LoggedOut  struct {
				Reasons []string `json:"reasons"`
			} `json:"logged_out"`
			Lapsed struct {
				Reasons []string `json:"reasons"`
			} `json:"lapsed"`
		} `json:"refusal"`
		NoActiveProfile struct {
			ExitCode  int    `json:"exit_code"`
			ErrorCode string `json:"error_code"`
		} `json:"no_active_profile"`
		IdleEnv            string                 `json:"idle_env"`
		IdleMinutes        int                    `json:"idle_minutes"`
		HeadlessEnv        string                 `json:"headless_env"`
		KeyringUnavailable map[string]any         `json:"keyring_unavailable"`
		PassphraseMismatch map[string]any         `json:"passphrase_mismatch"`
		Extra              map[string]interface{} `json:"-"`
	} `json:"login"`
	Stdin struct {
		MaxBytes  int    `json:"max_bytes"`
		ErrorCode string `json:"error_code"`
		ExitCode  int    `json:"exit_code"`
	} `json:"stdin"`
	Verbs map[string]struct {
		Command            string `json:"command"`
		Exempt             bool   `json:"exempt"`
		ExemptWithArgument bool   `json:"exempt_with_argument"`
		Exit2WithSuccess   bool   `json:"exit2_with_success"`
		Options            map[string]struct {
			Value    bool     `json:"value"`
			Multiple bool     `json:"multiple"`
			Integer  bool     `json:"integer"`
			Choices  []string `json:"choices"`
			Min      *float64 `json:"min"`
			Max      *float64 `json:"max"`
			Negates  string   `json:"negates"`
		} `json:"options"`
		Arguments []struct {
			Name     string `json:"name"`
			Required bool   `json:"required"`
		} `json:"arguments"`
		Required []string `json:"required"`
		Stdin    *struct {
			Flag  string            `json:"flag"`
			Shape map[string]string `json:"shape"`
		} `json:"stdin"`
		Rules []struct {
			Rule      map[string]any `json:"rule"`
			ErrorCode string         `json:"error_code"`
			ExitCode  int            `json:"exit_code"`
			Source    string         `json:"source"`
			Command   string         `json:"command"`
		} `json:"rules"`
	} `json:"verbs"`
}

func loadFakeTable(t *testing.T) *fakeTable {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(fakeDir(), "rules.json"))
	require.NoError(t, err)
	var tb fakeTable
	dec := json.NewDecoder(bytes.NewReader(raw))
	require.NoError(t, dec.Decode(&tb))
	return &tb
}

// TestFakeRulesAreTheFacts: every entry of the fake's table is what
// facts.json and commands.json say of the real CLI, and the table covers
// every verb of the example manifest.
func TestFakeRulesAreTheFacts(t *testing.T) {
	f, err := Load()
	require.NoError(t, err)
	cmds, err := Commands()
	require.NoError(t, err)
	tb := loadFakeTable(t)

	assert.Equal(t, "CADRUMO "+f.Meta.Version, tb.Version.Line, "aeat --version (__init__.py:243)")
	ref := f.Login.Refusal
	lr := tb.Login.Refusal
	assert.Equal(t, []any{ref.ExitCode, ref.Category, ref.ErrorCode, ref.Retryable, ref.Suggestion},
		[]any{lr.ExitCode, lr.Category, lr.ErrorCode, lr.Retryable, lr.Suggestion}, "the login refusal")
	assert.ElementsMatch(t, []string{"absent", "keychain_entry_missing", "malformed", "schema_version_mismatch", "expired_idle", "expired_absolute", "tampered"},
		append(slices.Clone(lr.LoggedOut.Reasons), lr.Lapsed.Reasons...), "the refusal's context.reason values (_profile_session.py:16)")
	assert.Equal(t, []string{"absent", "keychain_entry_missing"}, lr.LoggedOut.Reasons, "_LOGGED_OUT_REFUSALS (__init__.py:538)")
	assert.Equal(t, f.Login.NoActiveProfileRefusal.ExitCode, tb.Login.NoActiveProfile.ExitCode)
	assert.Equal(t, f.Login.NoActiveProfileRefusal.ErrorCode, tb.Login.NoActiveProfile.ErrorCode)
	assert.Equal(t, f.Login.SessionLimits.IdleMinutes.Env, tb.Login.IdleEnv)
	assert.Equal(t, f.Login.SessionLimits.IdleMinutes.Default, tb.Login.IdleMinutes)
	assert.Equal(t, f.Login.HeadlessAlternative.Env, tb.Login.HeadlessEnv)
	for name, e := range map[string]map[string]any{"keyring_unavailable": tb.Login.KeyringUnavailable, "passphrase_mismatch": tb.Login.PassphraseMismatch} {
		code, _ := e["error_code"].(string)
		fe, ok := f.ErrorByCode(code)
		if assert.True(t, ok, "%s: %s is a registered code", name, code) {
			assert.EqualValues(t, fe.ExitCode, e["exit_code"], name)
			assert.Equal(t, fe.Category, e["category"], name)
			assert.Equal(t, fe.Retryable, e["retryable"], name)
		}
	}
	assert.Equal(t, f.Stdin.Common.MaxBytes, tb.Stdin.MaxBytes)
	assert.Equal(t, 2, tb.Stdin.ExitCode)
	assert.Equal(t, "REFUSED_CLI_BOUNDARY", tb.Stdin.ErrorCode)

	m, err := annotations.Load(filepath.Join(proctest.AeatFacts(), "..", "..", "examples", "aeat.manifest.json"))
	require.NoError(t, err)
	for _, tl := range m.Tools {
		_, ok := tb.Verbs[verbPath(tl)]
		assert.True(t, ok, "the fake answers %s (%s)", tl.Name, verbPath(tl))
	}

	for path, v := range tb.Verbs {
		t.Run(path, func(t *testing.T) {
			c, ok := cmds[path]
			require.True(t, ok, "a verb of the real CLI")
			assert.Equal(t, c.ClassKey, v.Command, "the envelope's command is the class_key")
			assert.Equal(t, f.Exempt(path), v.Exempt, "login exemption")
			conditional := slices.ContainsFunc(f.Login.ConditionalExemptions, func(e struct {
				Path string `json:"path"`
				When string `json:"when"`
			}) bool {
				return e.Path == path && strings.Contains(e.When, "positional")
			})
			assert.Equal(t, conditional, v.ExemptWithArgument, "exempt when an argument is given")
			assert.Equal(t, f.ExitsTwoWithSuccess(path), v.Exit2WithSuccess, "exit 2 after a success envelope")
			shape, reads := f.StdinShape(path)
			if assert.Equal(t, reads, v.Stdin != nil, "--secrets-stdin") && reads {
				assert.Equal(t, shape, v.Stdin.Shape)
				assert.Equal(t, "--secrets-stdin", v.Stdin.Flag)
			}
			// Options, arguments, required: commands.json.
			want := map[string]bool{}
			var required []string
			var args []string
			for _, p := range c.Params {
				if p.Kind == "argument" {
					args = append(args, p.Name)
					continue
				}
				if p.Required {
					required = append(required, p.Opts[0])
				}
				for _, o := range p.Opts {
					want[o] = true
					got, ok := v.Options[o]
					if !assert.True(t, ok, "option %s", o) {
						continue
					}
					assert.Equal(t, !p.IsFlag, got.Value, "%s takes a value", o)
					assert.Equal(t, p.Multiple, got.Multiple, "%s repeatable", o)
					assert.Equal(t, p.Choices, got.Choices, "%s choices", o)
					assert.Equal(t, strings.HasPrefix(p.Type, "int"), got.Integer, "%s integer", o)
					assert.Equal(t, p.Min, got.Min, "%s min", o)
					assert.Equal(t, p.Max, got.Max, "%s max", o)
				}
				for _, o := range p.Secondary {
					want[o] = true
					assert.Equal(t, p.Opts[0], v.Options[o].Negates, "%s negates %s", o, p.Opts[0])
				}
			}
			for o := range v.Options {
				assert.True(t, want[o], "the fake accepts %s, which the real verb has not", o)
			}
			assert.Equal(t, required, v.Required)
			var gotArgs []string
			for _, a := range v.Arguments {
				gotArgs = append(gotArgs, a.Name)
			}
			assert.Equal(t, args, gotArgs)
			// The cross-field rules, in order, exactly.
			facts := f.RulesOf(path)
			require.Len(t, v.Rules, len(facts), "the rules of %s", path)
			for i, r := range facts {
				got := v.Rules[i]
				assert.Equal(t, r.Rule, got.Rule, "rule %d", i)
				assert.Equal(t, r.ErrorCode, got.ErrorCode, "rule %d", i)
				assert.Equal(t, r.ExitCode, got.ExitCode, "rule %d", i)
				assert.Equal(t, r.Source, got.Source, "rule %d", i)
			}
		})
	}
}

// verbPath is a tool's command without its fixed options.
func verbPath(t *annotations.Tool) string {
	var words []string
	for _, w := range t.Command {
		if strings.HasPrefix(w, "-") {
			break
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// fake is the built fake aeat.
var fake string

func TestMain(m *testing.M) {
	var err error
	if fake, err = proctest.Built("testdata/fakeaeat"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	proctest.RemoveBuilds()
	os.Exit(code)
}

// fakeRun is one run of the fake aeat.
type fakeRun struct {
	exit   int
	stdout string
	doc    map[string]any // the error document on stderr
	stderr string
}

func (r fakeRun) errorField(k string) any {
	e, _ := r.doc["error"].(map[string]any)
	return e[k]
}

// store writes the fake's store: one profile "casa", its passphrase "pw".
func store(t *testing.T, profile map[string]any, session map[string]any) string {
	t.Helper()
	root := t.TempDir()
	p := map[string]any{"passphrase": "pw", "complete": true, "certificates": []string{"fnmt"}}
	for k, v := range profile {
		p[k] = v
	}
	st := map[string]any{"active": "casa", "profiles": map[string]any{"casa": p}}
	if session != nil {
		st["session"] = session
	}
	raw, _ := json.Marshal(st)
	require.NoError(t, os.WriteFile(filepath.Join(root, "fake-store.json"), raw, 0o600))
	return root
}

func runFake(t *testing.T, env []string, stdin string, argv ...string) fakeRun {
	t.Helper()
	cmd := exec.Command(fake, argv...)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := fakeRun{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.exit = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	_ = json.Unmarshal([]byte(lines[len(lines)-1]), &r.doc)
	return r
}

// firstRunVerbs make and open profiles: driven by "first run", not by the
// loops over every verb (which share one profile whose passphrase is "pw").
var firstRunVerbs = map[string]bool{"config profile create": true, "config login": true, "config logout": true}

// base is a valid call of each verb, to which a case adds the options
// under test.
var base = map[string][]string{
	"app ledger view":                    {"7f3a9c"},
	"app ledger import":                  {"--file", "/tmp/extracto.csv", "--provider", "csv"},
	"app ledger remove":                  {"7f3a9c"},
	"config profile sandbox discard":     {"pruebas"},
	"config auth certificate secret set": {"--name", "fnmt", "--secrets-stdin"},
	"app live justificante pull":         {"--modelo", "303", "--year", "2025", "--period", "1T"},
	"app live filed pull":                {"--year", "2025"},
}

// TestFakeRefuses drives the built fake through every cross-field rule of
// every example verb (derived from the facts' rule objects, so a rule
// reversed in the table fails here), the stdin reader and the output
// contract.
func TestFakeRefuses(t *testing.T) {
	f, err := Load()
	require.NoError(t, err)
	tb := loadFakeTable(t)
	unlocked := []string{"CADRUMO_LOCAL_STORAGE_ROOT=" + store(t, nil, nil), "CADRUMO_SECRET_PASSPHRASE=pw"}
	call := func(path string, extra ...string) fakeRun {
		argv := append([]string{"--format", "json"}, strings.Fields(path)...)
		argv = append(append(argv, base[path]...), extra...)
		stdin := ""
		if tb.Verbs[path].Stdin != nil {
			stdin = `{"secret": "s"}`
		}
		return runFake(t, unlocked, stdin, argv...)
	}
	refused := func(t *testing.T, r fakeRun, why string) {
		t.Helper()
		assert.Equal(t, 2, r.exit, "%s: %s", why, r.stderr)
		assert.Equal(t, "REFUSED_CLI_BOUNDARY", r.errorField("code"), why)
		assert.Empty(t, r.stdout, "%s: a refusal prints nothing on stdout", why)
	}
	ok := func(t *testing.T, r fakeRun, why string) {
		t.Helper()
		assert.Equal(t, 0, r.exit, "%s: %s", why, r.stderr)
	}
	for path := range tb.Verbs {
		if firstRunVerbs[path] {
			continue // "first run", below: they need a passphrase of their own
		}
		valid := map[string][]string{"app ledger remove": {"--dry-run"}, "config profile sandbox discard": {"--dry-run"}}
		ok(t, call(path, valid[path]...), path+" with its base arguments")
		for _, r := range f.RulesOf(path) {
			t.Run(path+" "+fmt.Sprint(r.Rule), func(t *testing.T) {
				rl := r.Rule
				list := func(k string) []string {
					var out []string
					for _, x := range rl[k].([]any) {
						if s, ok := x.(string); ok {
							out = append(out, s)
						}
					}
					return out
				}
				value := map[string]string{"--period": "1T", "--year": "2025"}
				opt := func(o string) []string {
					if v, ok := value[o]; ok {
						return []string{o, v}
					}
					return []string{o}
				}
				switch {
				case rl["together"] != nil && rl["mutually_exclusive"] == nil:
					a, b := list("together")[0], list("together")[1]
					refused(t, call(path, opt(a)...), a+" without "+b)
					refused(t, call(path, opt(b)...), b+" without "+a)
					ok(t, call(path, append(opt(a), opt(b)...)...), "both")
				case rl["unless"] != nil:
					refused(t, call(path), "neither "+rl["unless"].(string)+" nor "+list("requires")[0])
					ok(t, call(path, opt(rl["unless"].(string))...), rl["unless"].(string))
					ok(t, call(path, opt(list("requires")[0])...), list("requires")[0])
				case rl["if"] == "--period":
					refused(t, call(path, "--period", "1T"), "--period without --year")
					ok(t, call(path, "--period", "1T", "--year", "2025"), "--period with --year")
					ok(t, call(path, "--year", "2025"), "--year alone is not refused")
				case rl["value_range"] != nil:
					refused(t, call(path, "--allow-incomplete", "--horizon", "0"), "--horizon 0")
					ok(t, call(path, "--allow-incomplete", "--horizon", "1"), "--horizon 1")
				case rl["if"] != nil && strings.Contains(rl["if"].(string), "profile warnings"):
					incomplete := []string{"CADRUMO_LOCAL_STORAGE_ROOT=" + store(t, map[string]any{"complete": false}, nil), "CADRUMO_SECRET_PASSPHRASE=pw"}
					refused(t, runFake(t, incomplete, "", "--format", "json", "app", "overview", "agenda"), "an incomplete profile")
					ok(t, runFake(t, incomplete, "", "--format", "json", "app", "overview", "agenda", "--allow-incomplete"), "--allow-incomplete")
					ok(t, call(path), "a complete profile")
				case rl["if_any"] != nil:
					single := []string{"--modelo", "303", "--year", "2025"}
					ok(t, runFake(t, unlocked, "", append([]string{"--format", "json", "app", "live", "filed", "pull", "--period", "1T"}, single...)...), "one --modelo with --year")
					refused(t, call(path, "--modelo", "303", "--modelo", "390", "--period", "1T"), "two --modelo with --period")
					refused(t, runFake(t, unlocked, "", "--format", "json", "app", "live", "filed", "pull", "--modelo", "303", "--period", "1T", "--from-year", "2024", "--to-year", "2025"), "--period in a range")
					refused(t, runFake(t, unlocked, "", "--format", "json", "app", "live", "filed", "pull", "--modelo", "303", "--year", "2025", "--expediente", "x", "--modelo", "130"), "--expediente with two modelos")
				case rl["mutually_exclusive"] != nil:
					pull := func(extra ...string) fakeRun {
						return runFake(t, unlocked, "", append([]string{"--format", "json", "app", "live", "filed", "pull"}, extra...)...)
					}
					refused(t, pull(), "neither --year nor a range")
					refused(t, pull("--year", "2025", "--from-year", "2024", "--to-year", "2025"), "--year and a range")
					refused(t, pull("--from-year", "2024"), "--from-year alone")
					refused(t, pull("--from-year", "2025", "--to-year", "2024"), "a range backwards")
					ok(t, pull("--from-year", "2024", "--to-year", "2025"), "a range")
					ok(t, pull("--year", "2025", "--modelo", "303", "--modelo", "390"), "bulk with --year")
				default:
					t.Fatalf("no case for the rule %v: write one", rl)
				}
			})
		}
	}

	t.Run("usage", func(t *testing.T) {
		r := call("app ledger list", "--profile", "casa")
		refused(t, r, "a root option after the verb")
		assert.Nil(t, r.doc["command"], "a parse error has no command")
		refused(t, call("app ledger list", "--sort-by", "fecha"), "a choice not offered")
		refused(t, call("app live filed list", "--from-year", "1999"), "an integer out of range")
		refused(t, runFake(t, unlocked, "", "--format", "json", "app", "live", "justificante", "pull", "--modelo", "303", "--year", "2025"), "a required option missing")
		refused(t, runFake(t, unlocked, "", "--format", "json", "app", "ledger", "view"), "a required argument missing")
		refused(t, runFake(t, unlocked, "", "--format", "json", "--profile", "otro", "app", "ledger", "list"), "an unknown --profile")
		r = runFake(t, unlocked, "", "app", "ledger", "list", "--filter", "classification=unclassified", "--year", "2025")
		assert.Equal(t, 2, r.exit)
		assert.Nil(t, r.doc, "without --format json the error is text")
		assert.True(t, strings.HasPrefix(r.stderr, "Refused. "), r.stderr)
		v := runFake(t, nil, "", "--version")
		assert.Equal(t, "CADRUMO 0.2.2\n", v.stdout)
	})

	t.Run("stdin", func(t *testing.T) {
		path := "config auth certificate secret set"
		argv := append([]string{"--format", "json"}, append(strings.Fields(path), base[path]...)...)
		for _, tc := range []struct{ name, stdin, want string }{
			{"the exact shape", `{"secret": "p"}`, ""},
			{"the old shape", `{"passphrase": "p"}`, "missing required"},
			{"an extra key", `{"secret": "p", "name": "x"}`, "missing required"},
			{"not a string", `{"secret": 1}`, "missing required"},
			{"a duplicate key", `{"secret": "p", "secret": "q"}`, "not a valid JSON"},
			{"not an object", `["p"]`, "not a valid JSON"},
			{"too large", `{"secret": "` + strings.Repeat("x", f.Stdin.Common.MaxBytes) + `"}`, "exceeds the maximum"},
		} {
			r := runFake(t, unlocked, tc.stdin, argv...)
			if tc.want == "" {
				ok(t, r, tc.name)
				continue
			}
			assert.Equal(t, 2, r.exit, tc.name)
			assert.Contains(t, r.errorField("message"), tc.want, tc.name)
			assert.NotContains(t, r.stderr, `"p"`, "%s: the secret is not echoed", tc.name)
		}
		r := runFake(t, unlocked, "", "--format", "json", "config", "auth", "certificate", "secret", "set", "--name", "fnmt")
		assert.Equal(t, 2, r.exit, "without --secrets-stdin and without a terminal")
	})

	t.Run("login gate", func(t *testing.T) {
		fresh := map[string]any{"profile": "casa", "backend": "keyring", "last_used": time.Now().UTC()}
		stale := map[string]any{"profile": "casa", "backend": "keyring", "last_used": time.Now().Add(-16 * time.Minute).UTC()}
		loggedOut := []string{"CADRUMO_LOCAL_STORAGE_ROOT=" + store(t, nil, nil)}
		for path, v := range tb.Verbs {
			if firstRunVerbs[path] {
				continue
			}
			argv := append([]string{"--format", "json"}, append(strings.Fields(path), base[path]...)...)
			r := runFake(t, loggedOut, `{"secret": "s"}`, argv...)
			if v.Exempt {
				ok(t, r, path+": exempt")
				continue
			}
			refused(t, r, path+": logged out")
			assert.Equal(t, "aeat config login", r.errorField("suggestion"), path)
			assert.Equal(t, map[string]any{"reason": "absent"}, r.errorField("context"), path)
			assert.Equal(t, false, r.errorField("retryable"), path)
		}
		r := runFake(t, loggedOut, "", "--format", "json", "config", "profile", "show", "casa")
		assert.Equal(t, 2, r.exit, "profile show NAME passes the gate, and exits 2 after a report it could not read")
		assert.Nil(t, r.doc, "no error document: a report")
		assert.Contains(t, r.stdout, "aeat config repair profile", "whose next action is a repair")

		dbus := "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus"
		ok(t, runFake(t, []string{"CADRUMO_LOCAL_STORAGE_ROOT=" + store(t, nil, fresh), dbus}, "", "--format", "json", "app", "ledger", "list"), "a live session")
		r = runFake(t, []string{"CADRUMO_LOCAL_STORAGE_ROOT=" + store(t, nil, stale), dbus}, "", "--format", "json", "app", "ledger", "list")
		refused(t, r, "a session idle for 16 minutes")
		assert.Equal(t, map[string]any{"reason": "expired_idle"}, r.errorField("context"))
		r = runFake(t, []string{"CADRUMO_LOCAL_STORAGE_ROOT=" + store(t, nil, fresh)}, "", "--format", "json", "app", "ledger", "list")
		assert.Equal(t, 3, r.exit, "a session whose keychain the CLI cannot reach (no D-Bus)")
		assert.Equal(t, "AUTH_STORAGE_KEYRING_UNAVAILABLE", r.errorField("code"))
		r = runFake(t, []string{"CADRUMO_LOCAL_STORAGE_ROOT=" + store(t, nil, fresh), "XDG_RUNTIME_DIR=/run/user/1000"}, "", "--format", "json", "app", "ledger", "list")
		assert.Equal(t, 3, r.exit, "XDG_RUNTIME_DIR alone: the keyring reaches the bus only through DBUS_SESSION_BUS_ADDRESS (rules.json login.keyring_env)")
		r = runFake(t, []string{"CADRUMO_LOCAL_STORAGE_ROOT=" + store(t, nil, nil), "CADRUMO_SECRET_PASSPHRASE=wrong"}, "", "--format", "json", "app", "ledger", "list")
		assert.Equal(t, 3, r.exit, "a wrong passphrase")
		assert.Equal(t, "AUTH_STORAGE_MASTER_KEY_PASSPHRASE_MISMATCH", r.errorField("code"))

		noProfile := []string{"CADRUMO_LOCAL_STORAGE_ROOT=" + t.TempDir()}
		r = runFake(t, noProfile, "", "--format", "json", "app", "ledger", "list")
		refused(t, r, "no active profile")
		assert.Nil(t, r.errorField("suggestion"))
		ok(t, runFake(t, noProfile, "", "--format", "json", "app", "modelo", "list"), "an exempt verb without a profile")

		// The store: CADRUMO_LOCAL_STORAGE_ROOT, else $XDG_DATA_HOME/cadrumo/storage.
		xdg := t.TempDir()
		require.NoError(t, os.MkdirAll(filepath.Join(xdg, "cadrumo"), 0o700))
		require.NoError(t, os.Rename(store(t, nil, nil), filepath.Join(xdg, "cadrumo", "storage")))
		ok(t, runFake(t, []string{"XDG_DATA_HOME=" + xdg, "CADRUMO_SECRET_PASSPHRASE=pw"}, "", "--format", "json", "app", "ledger", "list"), "the store under XDG_DATA_HOME")
		r = runFake(t, []string{"CADRUMO_SECRET_PASSPHRASE=pw"}, "", "--format", "json", "app", "ledger", "list")
		refused(t, r, "without XDG_DATA_HOME: another, empty store, no profile")
	})

	t.Run("first run", func(t *testing.T) {
		const pass = "correct-horse-9"
		root := t.TempDir()
		aeat := func(env []string, stdin string, argv ...string) fakeRun {
			return runFake(t, append([]string{"CADRUMO_LOCAL_STORAGE_ROOT=" + root}, env...), stdin, append([]string{"--format", "json"}, argv...)...)
		}
		status := func(env ...string) map[string]any {
			t.Helper()
			r := aeat(env, "", "config", "auth", "status")
			require.Equal(t, 0, r.exit, r.stderr)
			var envl map[string]any
			require.NoError(t, json.Unmarshal([]byte(r.stdout), &envl))
			res, _ := envl["result"].(map[string]any)
			return res
		}
		dbus := "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus"

		// Nothing yet: auth status answers (no profile, the gate is
		// skipped) with the CLI's next action; the other verbs refuse.
		st := status()
		assert.Equal(t, "none", st["active_profile_status"])
		assert.Equal(t, "aeat config profile create NAME --tax-id <TAX_ID> --activity <ACTIVITY>", st["active_profile_next_action"])
		assert.Equal(t, false, st["authenticated"], "the AEAT portal's authentication, not a local login")
		r := aeat(nil, "", "app", "ledger", "list")
		refused(t, r, "no profile")
		assert.Contains(t, r.errorField("message"), "aeat config profile create NAME")
		r = aeat([]string{"CADRUMO_SECRET_PASSPHRASE=" + pass}, "", "config", "login")
		assert.Equal(t, "REFUSED_PROFILE_NOT_FOUND", r.errorField("code"), "nothing to log in to")

		create := []string{"config", "profile", "create", "casa", "--tax-id", "12345678Z", "--entity-type", "natural_person", "--name", "Ana", "--surnames", "García", "--quiet", "--accept-defaults"}
		r = aeat(nil, "", create...)
		assert.Equal(t, 5, r.exit, "no passphrase and no terminal")
		assert.Equal(t, "FAIL_STORAGE_SECRET_STORE", r.errorField("code"))
		r = aeat([]string{"CADRUMO_SECRET_PASSPHRASE=short"}, "", create...)
		assert.Equal(t, "REFUSED_STORAGE_PASSPHRASE_TOO_SHORT", r.errorField("code"))
		r = aeat([]string{"CADRUMO_SECRET_PASSPHRASE=" + pass}, "", "config", "profile", "create", "casa", "--tax-id", "12345678Z", "--quiet", "--accept-defaults")
		assert.Equal(t, "REFUSED_WIZARD_MISSING_FLAG", r.errorField("code"))
		assert.Contains(t, r.errorField("message"), "--entity-type --name --surnames")
		ok(t, aeat([]string{"CADRUMO_SECRET_PASSPHRASE=" + pass}, "", create...), "profile create")
		r = aeat([]string{dbus}, "", "config", "auth", "status")
		refused(t, r, "created, active, not logged in")
		assert.Equal(t, map[string]any{"reason": "absent"}, r.errorField("context"))

		// A login on a machine whose CLI reaches no bus lasts one command.
		r = aeat(nil, `{"passphrase": "`+pass+`"}`, "config", "login", "--secrets-stdin")
		ok(t, r, "login without a bus")
		assert.Contains(t, r.stdout, `"session_persisted": false`)
		assert.Contains(t, r.stdout, `"code": "config.login.session_not_persisted"`)
		assert.Contains(t, r.stdout, `"status": "warning"`)
		refused(t, aeat([]string{dbus}, "", "app", "ledger", "list"), "the login was not kept")
		r = aeat(nil, `{"passphrase": "wrong-horse-9"}`, "config", "login", "--secrets-stdin")
		assert.Equal(t, "AUTH_STORAGE_MASTER_KEY_PASSPHRASE_MISMATCH", r.errorField("code"))

		// With the bus, the session is kept in the keychain.
		r = aeat([]string{dbus, "CADRUMO_SECRET_PASSPHRASE=" + pass}, "", "config", "login")
		ok(t, r, "login with the bus")
		assert.Contains(t, r.stdout, `"session_persisted": true`)
		ok(t, aeat([]string{dbus}, "", "app", "ledger", "list"), "logged in")
		st = status(dbus)
		assert.Equal(t, "ready", st["active_profile_status"])
		assert.Equal(t, "aeat app overview status", st["active_profile_next_action"])
		assert.Equal(t, 3, aeat([]string{"XDG_RUNTIME_DIR=/run/user/1000"}, "", "app", "ledger", "list").exit, "a host without the bus address")

		// Logged out: no active profile; the next action is a login.
		ok(t, aeat(nil, "", "config", "logout"), "logout")
		st = status(dbus)
		assert.Equal(t, "none", st["active_profile_status"])
		assert.Equal(t, "aeat config login NAME", st["active_profile_next_action"])
		r = aeat([]string{"CADRUMO_SECRET_PASSPHRASE=" + pass}, "", "app", "ledger", "list")
		refused(t, r, "logged out, even with the passphrase")
		assert.Contains(t, r.errorField("message"), "aeat config login NAME")
		ok(t, aeat([]string{"CADRUMO_SECRET_PASSPHRASE=" + pass}, "", "config", "login", "casa"), "login NAME activates it")
		ok(t, aeat([]string{"CADRUMO_SECRET_PASSPHRASE=" + pass}, "", "app", "ledger", "list"), "the headless route")
	})

	t.Run("exit 2 after a success envelope", func(t *testing.T) {
		env := []string{"CADRUMO_LOCAL_STORAGE_ROOT=" + store(t, map[string]any{"check_issues": []string{"llm_vision is on but ollama is missing"}, "blocking": true}, nil),
			"CADRUMO_SECRET_PASSPHRASE=pw"}
		for _, path := range []string{"config check", "config profile show"} {
			r := runFake(t, env, "", append([]string{"--format", "json"}, strings.Fields(path)...)...)
			assert.Equal(t, 2, r.exit, path)
			var envl map[string]any
			require.NoError(t, json.Unmarshal([]byte(r.stdout), &envl), path)
			assert.Equal(t, "success", envl["status"], path)
			assert.Empty(t, strings.TrimSpace(r.stderr), path)
		}
	})
}
