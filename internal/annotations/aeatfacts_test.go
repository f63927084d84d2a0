package annotations_test

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/aeatfacts"
	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExampleMatchesFacts holds examples/aeat.manifest.json to what the
// real aeat's source says (testdata/aeat-cli/facts.json, each fact with its
// file:line): what it needs of its environment, its login gate, its error
// document and codes, its stdin shapes, the rules between its options,
// which verbs reach the network, and which exit 2 after a success.
// TestExampleMatchesRealCLI holds it to the command tree.
func TestExampleMatchesFacts(t *testing.T) {
	f, err := aeatfacts.Load()
	require.NoError(t, err)
	m, err := annotations.Load("../../examples/aeat.manifest.json")
	require.NoError(t, err)
	read := map[string]aeatfacts.EnvVar{}
	for _, e := range f.Env {
		if e.Read() {
			read[e.Name] = e
		}
	}

	t.Run("environment", func(t *testing.T) {
		// facts.json: "no variable is required: every setting has a default".
		assert.Empty(t, m.CLI.Require, "the CLI requires no variable; requiring one refuses every call of a user who set nothing")
		for _, k := range m.CLI.Keychain {
			assert.True(t, k.Optional, "%s: nothing is required of the CLI's environment, so no keychain variable may be either", k.Name)
			e, ok := read[k.Name]
			if assert.True(t, ok, "%s: the CLI reads it", k.Name) {
				assert.True(t, e.Secret, "%s: a secret (SecretStr) of the CLI", k.Name)
			}
		}
		for _, n := range m.CLI.Pass {
			if pre, ok := strings.CutSuffix(n, "*"); ok {
				var some bool
				for name := range read {
					some = some || strings.HasPrefix(name, pre)
				}
				assert.True(t, some, "cli.env.pass %q: no variable the CLI reads has this prefix", n)
				continue
			}
			_, ok := read[n]
			assert.True(t, ok, "cli.env.pass %q: the CLI does not read it", n)
		}
		for n := range m.CLI.Set {
			_, ok := read[n]
			assert.True(t, ok, "cli.env.set %q: the CLI does not read it", n)
		}
	})

	t.Run("error document", func(t *testing.T) {
		eo := m.CLI.ErrorOutput
		require.True(t, eo.IsJSON(), "cli.args has --format json: errors are the JSON document (output.error)")
		for _, p := range []annotations.Pointer{eo.Code, eo.Retryable, eo.Message, eo.Suggestion} {
			key, ok := strings.CutPrefix(string(p), "/error/")
			assert.True(t, ok && slices.Contains([]string{"code", "retryable", "message", "suggestion"}, key),
				"%q points at one of the error document's keys (_registry.py:371)", p)
		}
		for code, entries := range m.CLI.ErrorCodes {
			_, ok := f.ErrorByCode(code)
			assert.True(t, ok, "error_codes %q is a registered error code", code)
			for _, e := range entries {
				assert.NotContains(t, strings.ToLower(e.Hint), "fix the arguments", "%s: %s is not about the arguments", code, e.Meaning)
			}
		}
		// The login refusal (__init__.py:587): the logged-out reasons and
		// the lapsed ones each have their entry, and nothing else matches.
		login := m.CLI.ErrorCodes[f.Login.Refusal.ErrorCode]
		var reasons []string
		for _, e := range login {
			for _, v := range e.Match["/error/context/reason"] {
				reasons = append(reasons, fmt.Sprint(v))
			}
			assert.Contains(t, e.Hint, f.Login.Refusal.Suggestion, "%s: the hint names the CLI's own remedy", e.Meaning)
			assert.Contains(t, e.Hint, fmt.Sprint(f.Login.SessionLimits.IdleMinutes.Default), "%s: and how long a session lasts", e.Meaning)
		}
		sort.Strings(reasons)
		assert.Equal(t, []string{"absent", "expired_absolute", "expired_idle", "keychain_entry_missing", "malformed", "schema_version_mismatch", "tampered"}, reasons,
			"every context.reason of the login refusal (_profile_session.py:16)")
		// Exit codes: retryable is per code (errors_notes), so an exit
		// entry that says retryable needs the document's flag to win.
		for code, ec := range m.CLI.ExitCodes {
			if ec.Retryable {
				assert.NotEmpty(t, eo.Retryable, "exit %d: not every code of its category is retryable; the document's retryable must reach the outcome", code)
			}
			var inCat []string
			for cat, c := range f.ExitCodes.Categories {
				if c == code {
					inCat = append(inCat, cat)
				}
			}
			assert.Len(t, inCat, 1, "exit %d is an exit code of one category", code)
		}
	})

	// Two facts of the source that facts.json does not hold, checked against
	// the source lines cited.
	t.Run("ledger_list, from the source", func(t *testing.T) {
		tl := toolNamed(t, m, "ledger_list")
		// list_manual_transactions sorts by date, then id, ascending
		// (application/ledger/_actions_manual.py:416); --sort-order's
		// default is asc (entrypoints/cli/_ledger_read_cli.py:778).
		assert.Contains(t, tl.Description, "Oldest first")
		assert.NotContains(t, strings.ToLower(tl.Description), "newest first")
		// The filter keys and values the CLI accepts (application/review/
		// _filter.py:130, :161; domain/transactions/_enums.py:27;
		// application/transactions/_diagnostics.py:43).
		filter, ok := tl.Param("filter")
		require.True(t, ok)
		args := func(v string) []byte { return []byte(`{"filter": ["` + v + `"]}`) }
		for _, good := range []string{"classification=business", "classification=not_yet_processed", "status=excluded", "direction=incoming", "issue=original-file", "text=cuota"} {
			_, err := tl.Validate(args(good))
			assert.NoError(t, err, good)
		}
		for _, bad := range []string{"classification=unclassified", "status=done", "period=1T", "tag=x"} {
			_, err := tl.Validate(args(bad))
			assert.Error(t, err, "%s is refused by the CLI: refuse it before it runs (%s)", bad, filter.Pattern)
		}
	})

	t.Run("health", func(t *testing.T) {
		h := m.CLI.Health
		require.NotNil(t, h)
		path := strings.Join(h.Command, " ")
		assert.Equal(t, "false", f.NetworkOf(path), "doctor's health check is local")
		assert.False(t, f.Exempt(path), "and gated: it reports the login state")
		assert.Equal(t, []string{"--version"}, h.Version, "aeat --version (__init__.py:132)")
	})

	t.Run("warm", func(t *testing.T) {
		w := m.CLI.Warm
		require.NotNil(t, w)
		assert.Equal(t, f.Meta.Entrypoint, w.Entry, "the console script's entry point (facts.json meta.entrypoint)")
		cmds, err := aeatfacts.Commands()
		require.NoError(t, err)
		require.NotEmpty(t, w.Verify)
		for _, argv := range w.Verify {
			path := strings.Join(argv, " ")
			_, verb := cmds[path]
			assert.True(t, verb, "verify %s is a verb of the CLI (commands.json)", path)
			// Verify runs at every template start, before anyone logged
			// in, with nothing but the server's environment: local, and
			// exempt from the login gate, so its stdout is the verb's.
			assert.Equal(t, "false", f.NetworkOf(path), "verify %s is local", path)
			assert.True(t, f.Exempt(path), "verify %s runs without a login", path)
		}
		for _, tier := range w.TiersOrDefault() {
			assert.NotEqual(t, annotations.Live, tier, "LIVE calls drive a browser for minutes: a fork saves nothing there")
		}
	})

	for _, tl := range m.Tools {
		path := verbOf(tl)
		t.Run(tl.Name, func(t *testing.T) {
			net := f.NetworkOf(path)
			switch net {
			case "false":
				assert.NotEqual(t, annotations.Live, tl.Tier(), "%s is local (facts.json network): no LIVE tier", path)
				assert.False(t, tl.Hints.OpenWorld)
				assert.Contains(t, strings.ToLower(tl.Description), "local", "the description says it is local")
			case "true":
				assert.Equal(t, annotations.Live, tl.Tier(), "%s goes to the AEAT: the LIVE tier", path)
				assert.Contains(t, tl.Description, "browser", "the description says it drives a browser")
			case "conditional":
			default:
				t.Fatalf("facts.json does not say whether %s reaches the network", path)
			}
			if f.Exempt(path) {
				assert.Contains(t, tl.Description, "without an aeat login", "an exempt verb: the model may call it before a login")
			} else {
				assert.Contains(t, tl.Description, "login", "the login gate applies: the description says so")
			}

			ec, has := tl.ExitCodes[2]
			if f.ExitsTwoWithSuccess(path) {
				assert.Equal(t, annotations.OKWithStdout, ec.OK, "%s exits 2 after a success envelope, and also for its refusals: ok \"with_stdout\"", path)
			} else {
				assert.False(t, has && ec.OK != annotations.OKNever, "%s never exits 2 with a success: exit 2 is a refusal", path)
			}

			shape, readsStdin := f.StdinShape(path)
			if assert.Equal(t, readsStdin, tl.Stdin != nil, "stdin") && readsStdin {
				assert.Contains(t, tl.Command, "--secrets-stdin")
				keys := slices.Sorted(maps.Keys(shape))
				assert.Equal(t, keys, []string{tl.Stdin.JSONKey}, "stdin is exactly the object the CLI reads (%s)", path)
				assert.Empty(t, tl.Stdin.Param, "a secret never comes from the model")
			}

			checkRules(t, f, tl, path)
		})
	}
}

// verbOf is a tool's command without its fixed options.
func verbOf(t *annotations.Tool) string {
	var words []string
	for _, w := range t.Command {
		if strings.HasPrefix(w, "-") {
			break
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// checkRules: every cross-field rule of the verb is expressed — requires
// in the right direction, the confirmation, a bound — or said in the
// descriptions; and every requires of the tool is justified by a rule (a
// requires the CLI does not have refuses calls it would run).
func checkRules(t *testing.T, f *aeatfacts.Facts, tl *annotations.Tool, path string) {
	t.Helper()
	byFlag := map[string]*annotations.Param{}
	for i := range tl.Params {
		byFlag[tl.Params[i].Flag] = &tl.Params[i]
	}
	text := strings.ToLower(tl.Description)
	for _, p := range tl.Params {
		text += " " + strings.ToLower(p.Description)
	}
	justified := map[[2]string]bool{} // param → param it may require
	requires := func(a, b string) {
		pa, pb := byFlag[a], byFlag[b]
		if pa == nil || pb == nil {
			return // the tool does not offer one of them
		}
		justified[[2]string{pa.Name, pb.Name}] = true
		assert.Contains(t, pa.Requires, pb.Name, "%s: %s needs %s (requires)", path, pa.Name, pb.Name)
	}
	said := func(flags ...string) {
		for _, fl := range flags {
			if p := byFlag[fl]; p != nil {
				assert.Contains(t, text, p.Name, "%s: the descriptions say the rule about %s", path, p.Name)
			}
		}
	}
	for _, r := range f.RulesOf(path) {
		rl := r.Rule
		switch {
		case rl["unless"] != nil: // requires --yes unless --dry-run
			assert.Equal(t, strs(rl["requires"]), []string{tl.Confirm.Flag}, "%s: the CLI's own confirmation is confirm.flag", path)
			dry := byFlag[rl["unless"].(string)]
			if assert.NotNil(t, dry, "%s: the tool offers %s", path, rl["unless"]) {
				assert.Equal(t, true, tl.Confirm.SkipWhen[dry.Name], "%s: a dry run asks nobody", path)
			}
		case rl["if_any"] != nil: // filed pull: single mode only
			only, _ := rl["only_with"].(map[string]any)
			for _, trigger := range strs(rl["if_any"]) {
				for o, want := range only {
					switch want {
					case "present", "exactly one":
						requires(trigger, o)
					}
					if want == "exactly one" && byFlag[trigger] != nil {
						assert.Contains(t, text, "exactly one", "%s: %s allows exactly one %s: the descriptions say so", path, trigger, o)
					}
				}
			}
		case rl["mutually_exclusive"] != nil: // filed pull's year or range
			tg := strs(rl["together"])
			requires(tg[0], tg[1])
			requires(tg[1], tg[0])
			said(strs(rl["mutually_exclusive"])...)
		case rl["together"] != nil:
			tg := strs(rl["together"])
			requires(tg[0], tg[1])
			requires(tg[1], tg[0])
		case rl["value_range"] != nil:
			for o := range rl["value_range"].(map[string]any) {
				if p := byFlag[o]; p != nil {
					assert.True(t, p.Minimum != nil && *p.Minimum >= 1, "%s: %s must be > 0", path, p.Name)
				}
			}
		case rl["if"] != nil:
			cond := rl["if"].(string)
			if strings.HasPrefix(cond, "--") {
				for _, o := range strs(rl["requires"]) {
					requires(cond, o)
				}
			} else {
				// A condition on the profile's state: the tool offers the way
				// out, and says when to take it.
				for _, o := range strs(rl["requires"]) {
					assert.NotNil(t, byFlag[o], "%s: the tool offers %s (needed when %s)", path, o, cond)
					said(o)
				}
			}
		default:
			t.Errorf("%s: no check for the rule %v: write one", path, rl)
		}
	}
	for _, p := range tl.Params {
		for _, q := range p.Requires {
			assert.True(t, justified[[2]string{p.Name, q}], "%s: %s requires %s, which no rule of the CLI says (a call the CLI would run is refused)", path, p.Name, q)
		}
	}
}

// strs flattens a facts.json list of option names (lists of lists too).
func strs(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		switch y := x.(type) {
		case string:
			out = append(out, y)
		case []any:
			out = append(out, strs(y)...)
		}
	}
	return out
}

func toolNamed(t *testing.T, m *annotations.Manifest, name string) *annotations.Tool {
	t.Helper()
	for _, tl := range m.Tools {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}
