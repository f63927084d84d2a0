package annotations_test

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
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
	for _, path := range aeatManifests {
		t.Run(filepath.Base(path), func(t *testing.T) {
			m, err := annotations.Load(path)
			require.NoError(t, err)
			matchesFacts(t, f, m)
		})
	}
}

// aeatManifests are the shipped manifests of the real aeat: the curated
// core, and the whole CLI generated from its tree and facts with the same
// overrides.
var aeatManifests = []string{"../../examples/aeat.manifest.json", "../../examples/aeat.full.manifest.json"}

func matchesFacts(t *testing.T, f *aeatfacts.Facts, m *annotations.Manifest) {
	read := map[string]aeatfacts.EnvVar{}
	for _, e := range f.Env {
		if e.Read() {
			read[e.Name] = e
		}
	}

	t.Run("environment", func(t *testing.T) { factsEnvironment(t, m, read) })
	t.Run("error document", func(t *testing.T) { factsErrorDocument(t, f, m) })
	t.Run("ledger_list, from the source", func(t *testing.T) { factsLedgerList(t, m) })
	t.Run("health", func(t *testing.T) { factsHealth(t, f, m) })
	t.Run("warm", func(t *testing.T) { factsWarm(t, f, m) })
	for _, tl := range m.Tools {
		path := verbOf(tl)
		t.Run(tl.Name, func(t *testing.T) { factsTool(t, f, tl, path) })
	}
}

// factsEnvironment: the CLI's environment — nothing required, keychain
// variables are the CLI's secrets, pass and set name only what it reads.
func factsEnvironment(t *testing.T, m *annotations.Manifest, read map[string]aeatfacts.EnvVar) {
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
}

// factsErrorDocument: the error document, its codes, the login refusal's
// reasons and the exit codes.
func factsErrorDocument(t *testing.T, f *aeatfacts.Facts, m *annotations.Manifest) {
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
}

// factsLedgerList: two facts of the source that facts.json does not hold,
// checked against the source lines cited.
func factsLedgerList(t *testing.T, m *annotations.Manifest) {
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
}

// factsHealth: doctor's health check: local, gated, and the CLI's --version.
func factsHealth(t *testing.T, f *aeatfacts.Facts, m *annotations.Manifest) {
	h := m.CLI.Health
	require.NotNil(t, h)
	path := strings.Join(h.Command, " ")
	assert.Equal(t, "false", f.NetworkOf(path), "doctor's health check is local")
	assert.False(t, f.Exempt(path), "and gated: it reports the login state")
	assert.Equal(t, []string{"--version"}, h.Version, "aeat --version (__init__.py:132)")
}

// factsWarm: warm start — the entry point, and verify verbs that are local
// and need no login.
func factsWarm(t *testing.T, f *aeatfacts.Facts, m *annotations.Manifest) {
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
}

// factsTool holds one tool to its verb's facts: network and tier, the
// login gate, exit 2, stdin, and the cross-field rules.
func factsTool(t *testing.T, f *aeatfacts.Facts, tl *annotations.Tool, path string) {
	net := f.NetworkOf(path)
	switch net {
	case "false":
		assert.NotEqual(t, annotations.Live, tl.Tier(), "%s is local (facts.json network): no LIVE tier", path)
		assert.False(t, tl.Hints.OpenWorld)
		assert.Contains(t, strings.ToLower(tl.Description), "local", "the description says it is local")
	case "true":
		assert.Equal(t, annotations.Live, tl.Tier(), "%s reaches the network: the LIVE tier", path)
		if strings.Contains(f.NetworkWhat(path), "browser") {
			assert.Contains(t, tl.Description, "browser", "the description says it drives a browser")
		} else {
			assert.Contains(t, tl.Description, "network", "the description says it reaches the network")
		}
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

// checkRules: every cross-field rule of the verb is expressed where a
// manifest can say it — requires in the right direction (together: both
// ways), a required param, the CLI's own confirmation and the dry run that
// needs none, a bound — and every option or argument a rule names (but the
// confirmation) is said in the tool's texts; and every requires of the
// tool is justified by a rule (a requires the CLI does not have refuses
// calls it would run).
func checkRules(t *testing.T, f *aeatfacts.Facts, tl *annotations.Tool, path string) {
	t.Helper()
	c := newRuleCheck(t, tl, path)
	for _, r := range f.RulesOf(path) {
		c.rule(r.Rule)
	}
	for _, p := range tl.Params() {
		for _, q := range p.Requires {
			assert.True(t, c.justified[[2]string{p.Name, q}], "%s: %s requires %s, which no rule of the CLI says (a call the CLI would run is refused)", path, p.Name, q)
		}
	}
}

// ruleCheck holds one tool to the cross-field rules of its verb.
type ruleCheck struct {
	t     *testing.T
	tl    *annotations.Tool
	path  string
	byOpt map[string]*annotations.Param // by flag, negation, or argument name as help writes it
	text  string                        // the tool's descriptions, lower case
	// justified: param → param it may require, as some rule says.
	justified map[[2]string]bool
}

func newRuleCheck(t *testing.T, tl *annotations.Tool, path string) *ruleCheck {
	c := &ruleCheck{t: t, tl: tl, path: path, byOpt: map[string]*annotations.Param{}, justified: map[[2]string]bool{}}
	for i := range tl.Params() {
		p := &tl.Params()[i]
		switch {
		case p.Positional:
			c.byOpt[strings.ToUpper(p.Name)] = p
		case p.Flag != "":
			c.byOpt[p.Flag] = p
			if p.Negate != "" {
				c.byOpt[p.Negate] = p
			}
		}
	}
	c.text = strings.ToLower(tl.Description)
	for _, p := range tl.Params() {
		c.text += " " + strings.ToLower(p.Description)
	}
	return c
}

// requires holds that the param of option a requires b's — unless the
// tool does not offer one of them, or one is always given.
func (c *ruleCheck) requires(a, b string) {
	pa, pb := c.byOpt[a], c.byOpt[b]
	if pa == nil || pb == nil || pa.Default != nil || pb.Default != nil {
		return
	}
	c.justified[[2]string{pa.Name, pb.Name}] = true
	assert.Contains(c.t, pa.Requires, pb.Name, "%s: %s needs %s (requires)", c.path, pa.Name, pb.Name)
}

// said holds that the descriptions name the params of opts.
func (c *ruleCheck) said(opts ...string) {
	for _, o := range opts {
		if p := c.byOpt[o]; p != nil {
			assert.Contains(c.t, c.text, p.Name, "%s: the descriptions say the rule about %s", c.path, p.Name)
		}
	}
}

// rule holds the tool to one rule, part by part.
func (c *ruleCheck) rule(rl map[string]any) {
	req := strs(rl["requires"])
	_, reqList := rl["requires"].([]any)
	confirm := reqList && len(req) > 0 && !slices.ContainsFunc(req, func(o string) bool { return o != "--yes" && o != "--confirm" })
	if confirm {
		c.confirmation(rl, req)
	}
	if tg := strs(rl["together"]); len(tg) == 2 {
		c.requires(tg[0], tg[1])
		c.requires(tg[1], tg[0])
	}
	c.onlyWith(rl)
	if !confirm && reqList {
		c.requirement(rl, req)
	}
	c.valueRange(rl)
	// Whatever else the rule says, about whichever options: the texts
	// say it (a manifest has no excludes, exactly-one-of or order).
	rest := maps.Clone(rl)
	if confirm { // the confirmation, and when it applies, is the server's to ask
		for _, k := range []string{"requires", "unless", "if", "if_absent", "if_any"} {
			delete(rest, k)
		}
	}
	c.said(ruleOptions(rest)...)
}

// confirmation: a rule that requires only --yes/--confirm is the CLI's own
// confirmation, the tool's confirm.flag; a dry run (unless) asks nobody.
func (c *ruleCheck) confirmation(rl map[string]any, req []string) {
	assert.Contains(c.t, aliases(c.t, c.path, req[0]), c.tl.Confirm.Flag, "%s: the CLI's own confirmation is confirm.flag", c.path)
	assert.True(c.t, c.tl.Hints.Destructive, "%s: a person confirms it: destructive", c.path)
	if u, ok := rl["unless"].(string); ok {
		dry := c.byOpt[u]
		if assert.NotNil(c.t, dry, "%s: the tool offers %s", c.path, u) {
			assert.Equal(c.t, true, c.tl.Confirm.SkipWhen[dry.Name], "%s: a dry run asks nobody", c.path)
		}
	}
}

// onlyWith: options allowed only with others (filed pull: single mode
// only) require them, and "exactly one" is said.
func (c *ruleCheck) onlyWith(rl map[string]any) {
	only, ok := rl["only_with"].(map[string]any)
	if !ok {
		return
	}
	for _, trigger := range strs(rl["if_any"]) {
		for o, want := range only {
			if want == "present" || want == "exactly one" {
				c.requires(trigger, o)
			}
			if want == "exactly one" && c.byOpt[trigger] != nil && c.byOpt[o] != nil {
				assert.Contains(c.t, c.text, "exactly one", "%s: %s allows exactly one %s: the descriptions say so", c.path, trigger, o)
			}
		}
	}
}

// requirement: a list of options required on a condition — another
// option (requires), the profile's state (the tool offers the way out),
// or none (each required).
func (c *ruleCheck) requirement(rl map[string]any, req []string) {
	cond, _ := rl["if"].(string)
	conditional := rl["if"] != nil || rl["if_absent"] != nil || rl["if_any"] != nil || rl["unless"] != nil
	switch {
	case c.byOpt[cond] != nil:
		for _, o := range req {
			c.requires(cond, o)
		}
	case cond != "" && !strings.HasPrefix(cond, "-"):
		// A condition on the profile's state: the tool offers the way
		// out, and says when to take it.
		for _, o := range req {
			assert.NotNil(c.t, c.byOpt[o], "%s: the tool offers %s (needed when %s)", c.path, o, cond)
		}
	case !conditional:
		for _, o := range req {
			if p := c.byOpt[o]; p != nil {
				assert.True(c.t, p.Required, "%s: the CLI refuses a call without %s: required", c.path, p.Name)
			}
		}
	}
}

// valueRange: an option's range is its param's minimum and maximum.
func (c *ruleCheck) valueRange(rl map[string]any) {
	vr, ok := rl["value_range"].(map[string]any)
	if !ok {
		return
	}
	for o, v := range vr {
		p := c.byOpt[o]
		if p == nil {
			continue
		}
		switch b := v.(type) {
		case string: // ">0"
			if p.Type == "integer" {
				assert.True(c.t, p.Minimum != nil && *p.Minimum >= 1, "%s: %s must be > 0", c.path, p.Name)
			}
		case []any:
			lo, _ := b[0].(float64)
			hi, _ := b[1].(float64)
			assert.True(c.t, p.Minimum != nil && *p.Minimum >= lo && p.Maximum != nil && *p.Maximum <= hi, "%s: %s from %v to %v", c.path, p.Name, lo, hi)
		}
	}
}

// aliases are the names of the verb's option opt (--confirm is also --yes).
func aliases(t *testing.T, path, opt string) []string {
	cmds, err := aeatfacts.Commands()
	require.NoError(t, err)
	if c := cmds[path]; c != nil {
		for _, p := range c.Params {
			if slices.Contains(p.Opts, opt) {
				return p.Opts
			}
		}
	}
	return []string{opt}
}

var ruleOptionRE = regexp.MustCompile(`--[a-z0-9][a-z0-9-]*[a-z0-9]|\b[A-Z][A-Z0-9_]+\b`)

// ruleOptions are the options and arguments a rule names, in its values,
// its free text and its objects' keys.
func ruleOptions(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		out = ruleOptionRE.FindAllString(x, -1)
	case []any:
		for _, e := range x {
			out = append(out, ruleOptions(e)...)
		}
	case map[string]any:
		for k, e := range x {
			out = append(out, ruleOptionRE.FindAllString(k, -1)...)
			out = append(out, ruleOptions(e)...)
		}
	}
	return out
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
