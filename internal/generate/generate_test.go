package generate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commandsJSON is the real aeat's command tree, the pinned copy in
// testdata/aeat-cli (internal/aeatfacts holds it to the original).
func commandsJSON(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(proctest.AeatFacts(), "commands.json"))
	require.NoError(t, err)
	return data
}

// rawCommand is one verb of commands.json read on its own terms (not
// through this package's types), to check the generation against.
type rawCommand struct {
	Path           []string `json:"path"`
	Hidden         bool     `json:"hidden"`
	Deprecated     bool     `json:"deprecated"`
	Classification struct {
		ReadOnly     bool `json:"read_only"`
		Destructive  bool `json:"destructive"`
		Idempotent   bool `json:"idempotent"`
		OpenWorld    bool `json:"open_world"`
		Handoff      bool `json:"handoff"`
		RiskDeclared bool `json:"risk_declared"`
	} `json:"classification"`
	Params []struct {
		Name      string   `json:"name"`
		Kind      string   `json:"kind"`
		Opts      []string `json:"opts"`
		Secondary []string `json:"secondary"`
		Choices   []string `json:"choices"`
		Required  bool     `json:"required"`
		Multiple  bool     `json:"multiple"`
		IsFlag    bool     `json:"is_flag"`
		Hidden    bool     `json:"hidden"`
	} `json:"params"`
}

// TestGenerate_AeatTree: every verb of the real aeat that it does not hide
// becomes a tool of a manifest that loads, whose hints are never weaker
// than aeat's own classification, and whose params are the verb's.
func TestGenerate_AeatTree(t *testing.T) {
	data := commandsJSON(t)
	tree, err := ParseTree(data)
	require.NoError(t, err)
	res, err := Generate(tree, Options{Program: "aeat"})
	require.NoError(t, err)
	var raw []rawCommand
	require.NoError(t, json.Unmarshal(data, &raw))
	verbs := map[string]rawCommand{}
	for _, c := range raw {
		if !c.Hidden && !c.Deprecated {
			verbs[strings.Join(c.Path, " ")] = c
		}
	}
	path := filepath.Join(t.TempDir(), "aeat.generated.json")
	require.NoError(t, os.WriteFile(path, res.Manifest, 0o644))
	m, err := annotations.Load(path)
	require.NoError(t, err, "the manifest loads")
	require.Len(t, m.Tools, len(verbs), "one tool per verb")
	assert.Len(t, m.Warnings, 1, "no warning but the guessed hints': %v", m.Warnings)

	names := map[string]bool{}
	var order []string
	guessed := 0
	for _, tl := range m.Tools {
		order = append(order, tl.Name)
		assert.False(t, names[tl.Name], "unique: %s", tl.Name)
		names[tl.Name] = true
		assert.LessOrEqual(t, len(tl.Name), NameMax, tl.Name)
		c, ok := verbs[strings.Join(tl.Command, " ")]
		require.True(t, ok, "%s: no verb %q in aeat", tl.Name, tl.Command)
		cl, h := c.Classification, tl.Hints
		destructive := cl.Destructive || cl.Handoff
		assert.False(t, h.ReadOnly && !cl.ReadOnly, "%s: read-only where aeat says it writes", tl.Name)
		assert.False(t, destructive && !h.Destructive, "%s: aeat classifies it destructive (or a handoff a person confirms)", tl.Name)
		assert.False(t, h.Idempotent && !cl.Idempotent, "%s: idempotent where aeat does not say so", tl.Name)
		assert.False(t, cl.OpenWorld && !h.OpenWorld, "%s: aeat classifies it open-world (live)", tl.Name)
		if len(tl.HintsGuessed) > 0 {
			guessed++
			assert.False(t, cl.RiskDeclared, "%s: a hint guessed where aeat declared its risk", tl.Name)
			assert.Equal(t, []string{"destructiveHint"}, tl.HintsGuessed, tl.Name)
			assert.True(t, h.Destructive, tl.Name)
		} else if !cl.RiskDeclared && !cl.ReadOnly {
			assert.NotEmpty(t, tl.Confirm.Flag, "%s: aeat did not assess its risk, so the hint is a guess, unless aeat asks its own --yes", tl.Name)
		}
		checkParams(t, tl, c)
	}
	assert.True(t, sort.StringsAreSorted(order), "tools sorted by name")
	assert.Positive(t, guessed)
	assert.Contains(t, m.Warnings[0], "hints guessed for "+itoa(guessed)+" tools (destructiveHint)")

	again, err := Generate(tree, Options{Program: "aeat"})
	require.NoError(t, err)
	assert.Equal(t, res.Manifest, again.Manifest, "the same tree gives the same bytes")
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// checkParams: every param of the tool is an option or argument of the
// verb, as the verb has it; every visible option and argument of the verb
// is a param of the tool or its confirm flag.
func checkParams(t *testing.T, tl *annotations.Tool, c rawCommand) {
	t.Helper()
	used := map[string]bool{}
	var args []string
	for _, p := range c.Params {
		if p.Kind == "argument" {
			args = append(args, p.Name)
		}
	}
	pos := 0
	for _, prm := range tl.Params() {
		if prm.Positional {
			if assert.Less(t, pos, len(args), "%s: more positionals than arguments", tl.Name) {
				assert.Equal(t, args[pos], prm.Name, "%s: positional %d", tl.Name, pos)
				used[args[pos]] = true
			}
			pos++
			continue
		}
		i := slices.IndexFunc(c.Params, func(p struct {
			Name      string   `json:"name"`
			Kind      string   `json:"kind"`
			Opts      []string `json:"opts"`
			Secondary []string `json:"secondary"`
			Choices   []string `json:"choices"`
			Required  bool     `json:"required"`
			Multiple  bool     `json:"multiple"`
			IsFlag    bool     `json:"is_flag"`
			Hidden    bool     `json:"hidden"`
		}) bool {
			return slices.Contains(p.Opts, prm.Flag)
		})
		if !assert.GreaterOrEqual(t, i, 0, "%s: %s is no option of %v", tl.Name, prm.Flag, c.Path) {
			continue
		}
		o := c.Params[i]
		used[o.Name] = true
		assert.Equal(t, o.IsFlag, prm.Type == "boolean", "%s: %s boolean exactly when a flag", tl.Name, prm.Flag)
		assert.Equal(t, o.Multiple, prm.IsArray(), "%s: %s array exactly when repeatable", tl.Name, prm.Flag)
		assert.Equal(t, o.Required, prm.Required, "%s: %s required as aeat says", tl.Name, prm.Flag)
		if prm.Negate != "" {
			assert.Contains(t, o.Secondary, prm.Negate, tl.Name)
		}
		for _, e := range prm.Enum {
			assert.Contains(t, o.Choices, e, "%s: %s enum", tl.Name, prm.Flag)
		}
		if len(o.Choices) > 0 {
			assert.Len(t, prm.Enum, len(o.Choices), "%s: %s takes every choice", tl.Name, prm.Flag)
		}
	}
	for _, p := range c.Params {
		if used[p.Name] || p.Hidden {
			continue
		}
		assert.True(t, p.IsFlag && slices.Contains(p.Opts, tl.Confirm.Flag), "%s: aeat's %s %v is neither a param nor the confirm flag", tl.Name, p.Kind, p.Opts)
	}
}

// small is a tree with what the mapping must handle: a root with global
// options, classified and unclassified verbs, hidden and deprecated ones,
// a param name taken by a global, the CLI's own --yes.
const small = `[
 {"path": [], "group": true, "program": "tool", "params": [
   {"name": "format", "kind": "option", "opts": ["--format"], "type": "choice", "choices": ["text", "json"], "default": "text"},
   {"name": "profile", "kind": "option", "opts": ["--profile"], "type": "str", "help": "The profile."},
   {"name": "verbose", "kind": "option", "opts": ["--verbose"], "type": "boolean", "is_flag": true},
   {"name": "version", "kind": "option", "opts": ["--version"], "type": "boolean", "is_flag": true, "eager": true, "expose_value": false}]},
 {"path": ["ledger"], "group": true, "params": [{"name": "x", "kind": "option", "opts": ["--x"], "type": "str"}]},
 {"path": ["ledger", "list"], "help": "List the entries.",
  "classification": {"read_only": true, "idempotent": true, "risk_declared": true},
  "params": [{"name": "year", "kind": "option", "opts": ["--year"], "type": "int range", "min": 2000, "required": true},
             {"name": "profile", "kind": "option", "opts": ["--profile", "--for-profile"], "type": "str"}]},
 {"path": ["ledger", "remove"], "classification": {"destructive": true, "risk_declared": true},
  "params": [{"name": "id", "kind": "argument", "opts": ["id"], "type": "str", "required": true},
             {"name": "yes", "kind": "option", "opts": ["--yes"], "type": "boolean", "is_flag": true},
             {"name": "dry_run", "kind": "option", "opts": ["--dry-run"], "type": "boolean", "is_flag": true}]},
 {"path": ["ledger", "export"], "classification": {"risk_declared": false},
  "params": [{"name": "out", "kind": "option", "opts": ["--out"], "type": "path"}]},
 {"path": ["sync"], "params": [{"name": "secret", "kind": "option", "opts": ["--secret"], "type": "str", "hidden": true}]},
 {"path": ["debug"], "hidden": true, "params": []},
 {"path": ["old"], "deprecated": true, "params": []},
 {"path": ["copy"], "params": [{"name": "src", "kind": "argument", "opts": ["src"], "type": "str", "nargs": -1},
                               {"name": "dst", "kind": "argument", "opts": ["dst"], "type": "str"}]}
]`

func generateSmall(t *testing.T, overrides string) (*Result, error) {
	t.Helper()
	tree, err := ParseTree([]byte(small))
	require.NoError(t, err)
	opts := Options{OverridesName: "o.json"}
	if overrides != "" {
		opts.Overrides = []byte(overrides)
	}
	return Generate(tree, opts)
}

// tool finds a generated tool by name.
func tool(t *testing.T, res *Result, name string) *annotations.Tool {
	t.Helper()
	for _, tl := range res.Loaded.Tools {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func TestGenerate_Small(t *testing.T) {
	res, err := generateSmall(t, "")
	require.NoError(t, err)
	m := res.Loaded
	assert.Equal(t, "tool", m.CLI.Command, "the root names the program")
	assert.Equal(t, []string{"--format", "json"}, m.CLI.Args, "an output format offering json is set to json")
	require.Len(t, m.CLI.Params, 1, "the global option that takes a value; --verbose hidden; --version none")
	assert.Equal(t, "profile", m.CLI.Params[0].Name)
	var names []string
	for _, tl := range m.Tools {
		names = append(names, tl.Name)
		assert.Equal(t, annotations.OutputJSON, tl.Output, tl.Name)
	}
	assert.Equal(t, []string{"ledger_export", "ledger_list", "ledger_remove", "sync"}, names, "hidden, deprecated and inexpressible verbs left out")

	list := tool(t, res, "ledger_list")
	assert.Equal(t, annotations.Hints{ReadOnly: true, Idempotent: true}, list.Hints)
	assert.Empty(t, list.HintsGuessed)
	assert.Equal(t, "List the entries", list.Title)
	p, ok := list.Param("for_profile")
	require.True(t, ok, "its own --profile renamed after its other option: the global profile has the name")
	assert.Equal(t, "--profile", p.Flag)
	args, err := list.Validate(json.RawMessage(`{"profile": "casa", "year": 2025, "for_profile": "other"}`))
	require.NoError(t, err)
	argv, err := list.Render(args, false)
	require.NoError(t, err)
	assert.Equal(t, []string{"--format", "json", "--profile=casa", "ledger", "list", "--year=2025", "--profile=other"}, argv.Argv,
		"globals before the verb, the verb's own after")

	remove := tool(t, res, "ledger_remove")
	assert.Equal(t, "--yes", remove.Confirm.Flag, "the CLI's --yes: a person's yes")
	_, hasYes := remove.Param("yes")
	assert.False(t, hasYes, "never a param the model could set")
	assert.True(t, remove.Hints.Destructive)

	export := tool(t, res, "ledger_export")
	assert.Equal(t, []string{"destructiveHint"}, export.HintsGuessed, "risk not declared: destructive, guessed")
	assert.Equal(t, annotations.Mutate, export.Tier())

	sync := tool(t, res, "sync")
	assert.Equal(t, cautiousHints, sync.Hints)
	assert.Equal(t, hintOrder, sync.HintsGuessed)
	assert.Equal(t, annotations.Live, sync.Tier())
	_, hasSecret := sync.Param("secret")
	assert.False(t, hasSecret, "a hidden option is left out")

	notes := strings.Join(res.Notes, "\n")
	assert.Contains(t, notes, `"ledger": the group's own options are left out`)
	assert.Contains(t, notes, "global flags left out: --verbose")
	assert.Contains(t, notes, "left out (cannot be said in a manifest): copy")
	assert.Contains(t, notes, "left out (deprecated by the CLI): old")
	assert.Contains(t, notes, "left out (hidden by the CLI): debug")
	assert.Contains(t, notes, "ledger list: param profile is called for_profile")
}

func TestGenerate_Overrides(t *testing.T) {
	for _, tc := range []struct {
		name, overrides string
		check           func(t *testing.T, res *Result)
	}{
		{"title and description by name", `{"version": 1, "tools": [{"name": "sync", "title": "Sync the book", "description": "Pushes local changes."}]}`,
			func(t *testing.T, res *Result) {
				assert.Equal(t, "Sync the book", tool(t, res, "sync").Title)
				assert.Equal(t, "Pushes local changes.", tool(t, res, "sync").Description)
			}},
		{"annotations set take the hints off hints_guessed", `{"tools": [{"name": "sync", "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true}}]}`,
			func(t *testing.T, res *Result) {
				s := tool(t, res, "sync")
				assert.Equal(t, annotations.Hints{ReadOnly: true, Idempotent: true, OpenWorld: true}, s.Hints)
				assert.Equal(t, []string{"openWorldHint"}, s.HintsGuessed, "the one hint not set is still a guess")
			}},
		{"all four set: nothing guessed", `{"tools": [{"name": "ledger_export", "annotations": {"destructiveHint": false}}]}`,
			func(t *testing.T, res *Result) {
				assert.Empty(t, tool(t, res, "ledger_export").HintsGuessed)
				assert.Len(t, res.Loaded.Warnings, 1, "only sync's guess is left")
			}},
		{"a glob hides tools", `{"tools": [{"name": "ledger_*", "hidden": true}, {"name": "ledger_list", "hidden": false}]}`,
			func(t *testing.T, res *Result) {
				var names []string
				for _, tl := range res.Loaded.Tools {
					names = append(names, tl.Name)
				}
				assert.Equal(t, []string{"ledger_list", "sync"}, names, "entries apply in order")
				assert.Contains(t, strings.Join(res.Notes, "\n"), "left out (hidden by the overrides): ledger_export, ledger_remove")
			}},
		{"a deprecated verb brought back", `{"tools": [{"name": "old", "hidden": false}]}`,
			func(t *testing.T, res *Result) {
				assert.Contains(t, tool(t, res, "old").Description, "Deprecated by the CLI.")
			}},
		{"params: patterns, descriptions, requires, sensitive, hidden", `{"tools": [{"name": "ledger_list", "params": [
				{"name": "year", "description": "The tax year.", "maximum": 2100},
				{"name": "for_profile", "pattern": "^[a-z]+$", "sensitive": true, "requires": ["year"]}]},
			{"name": "sync", "params": [{"name": "secret", "hidden": false, "sensitive": true}]},
			{"name": "ledger_remove", "params": [{"name": "dry_run", "hidden": true}]}]}`,
			func(t *testing.T, res *Result) {
				l := tool(t, res, "ledger_list")
				y, _ := l.Param("year")
				assert.Equal(t, "The tax year.", y.Description)
				assert.Equal(t, 2100.0, *y.Maximum)
				assert.Equal(t, 2000.0, *y.Minimum, "what the override leaves alone stays")
				fp, _ := l.Param("for_profile")
				assert.Equal(t, "^[a-z]+$", fp.Pattern)
				assert.True(t, fp.Sensitive)
				assert.Equal(t, []string{"year"}, fp.Requires)
				s, ok := tool(t, res, "sync").Param("secret")
				require.True(t, ok, "a hidden option brought back")
				assert.True(t, s.Sensitive)
				_, ok = tool(t, res, "ledger_remove").Param("dry_run")
				assert.False(t, ok, "a param hidden")
			}},
		{"keys generate knows nothing of pass through: stdin, timeout, progress, confirm, exit codes, cli", `{"cli": {"command": "/opt/tool", "env": {"pass": ["TOOL_*"], "require": ["TOOL_HOME"]},
				"exit_codes": {"7": {"meaning": "locked", "retryable": true}}, "error_output": "json",
				"params": [{"name": "lang", "type": "string", "flag": "--lang", "enum": ["es", "en"]}, {"name": "verbose", "hidden": false}]},
			"tools": [{"name": "sync", "stdin": {"env": "TOOL_SECRET"}, "timeout": "10m", "progress": "stderr", "output": null},
			          {"name": "ledger_remove", "confirm": {"skip_when": {"dry_run": true}}, "exit_codes": {"2": {"meaning": "refused"}}}]}`,
			func(t *testing.T, res *Result) {
				m := res.Loaded
				assert.Equal(t, "/opt/tool", m.CLI.Command)
				assert.Equal(t, []string{"TOOL_*"}, m.CLI.Pass)
				assert.Equal(t, "locked", m.CLI.ExitCodes[7].Meaning)
				var globals []string
				for _, p := range m.CLI.Params {
					globals = append(globals, p.Name)
				}
				assert.Equal(t, []string{"profile", "verbose", "lang"}, globals, "a global flag brought back, a global param added")
				s := tool(t, res, "sync")
				assert.Equal(t, "TOOL_SECRET", s.Stdin.Env)
				assert.Equal(t, "10m0s", s.Timeout.String())
				assert.Equal(t, annotations.OutputText, s.Output, "null removes a key: the default again")
				r := tool(t, res, "ledger_remove")
				assert.Equal(t, "--yes", r.Confirm.Flag, "objects merge: the generated flag stays")
				assert.Equal(t, map[string]any{"dry_run": true}, r.Confirm.SkipWhen)
				assert.Equal(t, "refused", r.ExitCodes[2].Meaning)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := generateSmall(t, tc.overrides)
			require.NoError(t, err)
			tc.check(t, res)
		})
	}
}

func TestGenerate_OverridesErrors(t *testing.T) {
	for _, tc := range []struct {
		name, overrides string
		want            []string
	}{
		{"not JSON", `{"tools": [`, []string{"o.json: invalid JSON"}},
		{"not an object", `[]`, []string{"o.json: must be an object, shaped like a manifest"}},
		{"version", `{"version": 2}`, []string{"o.json: version: must be 1"}},
		{"a tool that does not exist", `{"tools": [{"name": "ledger_lst", "title": "x"}]}`,
			[]string{`o.json: tools[0] ("ledger_lst"): names no generated tool (nearest: ledger_list)`}},
		{"a glob that matches nothing", `{"tools": [{"name": "zz_*", "hidden": true}]}`,
			[]string{`o.json: tools[0] ("zz_*"): names no generated tool`}},
		{"a bad glob", `{"tools": [{"name": "ledger_[", "hidden": true}]}`, []string{`o.json: tools[0].name: "ledger_[" is not a glob`}},
		{"no name", `{"tools": [{"title": "x"}]}`, []string{`o.json: tools[0].name: missing`}},
		{"a param that does not exist", `{"tools": [{"name": "ledger_list", "params": [{"name": "yeer", "description": "x"}]}]}`,
			[]string{`o.json: tools[0] ("ledger_list").params[0] ("yeer"): ledger_list has no param "yeer" (params: for_profile, year)`}},
		{"a param none of a glob's tools has", `{"tools": [{"name": "ledger_*", "params": [{"name": "limit", "description": "x"}]}]}`,
			[]string{`o.json: tools[0] ("ledger_*").params[0] ("limit"): none of the 3 tools it names has a param "limit"`}},
		{"hidden is a boolean", `{"tools": [{"name": "sync", "hidden": "yes"}]}`, []string{`o.json: tools[0] ("sync").hidden: must be true or false`}},
		{"an inexpressible verb cannot come back", `{"tools": [{"name": "copy", "hidden": false}]}`,
			[]string{`o.json: tools[0] ("copy"): copy cannot be brought back: an argument taking any number of values comes before another`}},
		{"hiding a global the CLI lacks", `{"cli": {"params": [{"name": "nope", "hidden": true}]}}`,
			[]string{`o.json: cli.params[0] ("nope"): hides a global param the CLI does not have`}},
		{"hints_from is text", `{"tools": [{"name": "sync", "annotations": {"destructiveHint": false}, "hints_from": 3}]}`,
			[]string{`o.json: tools[0] ("sync").hints_from: must be text`}},
		{"hints_from without annotations", `{"tools": [{"name": "sync", "hints_from": "cli.py:3: reads only"}]}`,
			[]string{`o.json: tools[0] ("sync").hints_from: says where annotations were decided, but the entry sets none`}},
		{"timeout_from is text", `{"tools": [{"name": "sync", "timeout": "180s", "timeout_from": ""}]}`,
			[]string{`o.json: tools[0] ("sync").timeout_from: must be text`}},
		{"timeout_from without a timeout", `{"tools": [{"name": "sync", "timeout_from": "cli.py:3: compiles its registry"}]}`,
			[]string{`o.json: tools[0] ("sync").timeout_from: says why the tool needs its own timeout, but the entry sets none`}},
		{"every problem at once", `{"version": 3, "tools": [{"name": "a_b"}, {"title": "t"}]}`,
			[]string{"version: must be 1", "tools[1].name: missing"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := generateSmall(t, tc.overrides)
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}

	// What the loader refuses after the merge is named by tool, and says
	// the overrides were in it.
	_, err := generateSmall(t, `{"tools": [{"name": "sync", "title": "", "timout": "5s"}, {"name": "ledger_list", "annotations": {"destructiveHint": true}}]}`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the generated manifest (with o.json) does not load")
	assert.Contains(t, err.Error(), `tool "sync": tools[3].timout: unknown key`)
	assert.Contains(t, err.Error(), `tool "sync": title: missing or empty`)
	assert.Contains(t, err.Error(), `tool "ledger_list": annotations: readOnlyHint and destructiveHint are both true`)

	_, err = Generate([]Command{{Path: []string{"x"}}}, Options{})
	assert.ErrorContains(t, err, `cli.command: missing — the tree does not name the program`)
}

// TestGenerate_HintsFrom: where an entry's hints were decided is for
// people: the hints are taken off hints_guessed, and the reason never
// reaches the manifest.
func TestGenerate_HintsFrom(t *testing.T) {
	before, err := generateSmall(t, `{}`)
	require.NoError(t, err)
	for _, tl := range before.Loaded.Tools {
		if tl.Name == "sync" {
			require.NotEmpty(t, tl.HintsGuessed, "sync's hints are guessed without the entry")
		}
	}
	res, err := generateSmall(t, `{"tools": [{"name": "sync", "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true}, "hints_from": "cli.py:42: pushes, never deletes"}]}`)
	require.NoError(t, err)
	assert.NotContains(t, string(res.Manifest), "hints_from")
	assert.NotContains(t, string(res.Manifest), "pushes, never deletes")
	found := false
	for _, tl := range res.Loaded.Tools {
		if tl.Name == "sync" {
			found = true
			assert.Empty(t, tl.HintsGuessed)
		}
	}
	assert.True(t, found)
}

// TestGenerate_WeakenedByOverrides: an override may say what the CLI's
// coarse classification does not (a plain read marked as writing), and the
// generator says so.
func TestGenerate_WeakenedByOverrides(t *testing.T) {
	res, err := generateSmall(t, `{"tools": [{"name": "ledger_remove", "annotations": {"destructiveHint": false}, "confirm": null}]}`)
	require.NoError(t, err)
	assert.Contains(t, res.Notes, "ledger_remove: the overrides make destructiveHint weaker than the CLI's own classification")
}

// TestDocsOverrides: the overrides docs/generate.md shows work on the real
// aeat's tree, as it says.
func TestDocsOverrides(t *testing.T) {
	data := commandsJSON(t)
	doc, err := os.ReadFile("../../docs/generate.md")
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(doc), "**Overrides** are a manifest-shaped file")
	require.True(t, ok)
	_, block, ok := strings.Cut(after, "```json\n")
	require.True(t, ok)
	block, _, _ = strings.Cut(block, "```")
	tree, err := ParseTree(data)
	require.NoError(t, err)
	res, err := Generate(tree, Options{Overrides: []byte(block), OverridesName: "docs/generate.md"})
	require.NoError(t, err)
	list := tool(t, res, "app_ledger_list")
	assert.Equal(t, "List ledger entries", list.Title)
	assert.True(t, list.Hints.ReadOnly)
	year, _ := list.Param("year")
	assert.Equal(t, []string{"period"}, year.Requires)
	assert.Equal(t, map[string]any{"dry_run": true}, tool(t, res, "app_ledger_remove").Confirm.SkipWhen)
	for _, tl := range res.Loaded.Tools {
		assert.False(t, strings.HasPrefix(tl.Name, "app_diagnostics_"), tl.Name)
	}
	assert.Equal(t, "profile", res.Loaded.CLI.Params[0].Name)
}

// TestGenerate_AeatGlobals: the real aeat's root options (facts.json's
// globals, read from its source: they must come before the verb) as a
// root entry of the tree, as the click walk writes it, with commands.json's
// verbs.
func TestGenerate_AeatGlobals(t *testing.T) {
	data := commandsJSON(t)
	raw, err := os.ReadFile(filepath.Join(proctest.AeatFacts(), "facts.json"))
	require.NoError(t, err)
	var facts struct {
		Globals struct {
			Options []struct {
				Opts    []string `json:"opts"`
				Type    string   `json:"type"`
				Choices []string `json:"choices"`
				Eager   bool     `json:"eager"`
				Default any      `json:"default"`
			} `json:"options"`
		} `json:"globals"`
	}
	require.NoError(t, json.Unmarshal(raw, &facts))
	root := Command{Path: []string{}, Group: true, Program: "aeat"}
	for _, o := range facts.Globals.Options {
		if slices.Contains(o.Opts, "--help") {
			continue // Click keeps --help out of a command's params
		}
		p := Param{Name: optName(longOpt(o.Opts)), Kind: "option", Opts: o.Opts, Type: o.Type, Choices: o.Choices, Eager: o.Eager, Default: o.Default}
		if o.Type == "" {
			p.Type, p.IsFlag = "boolean", true
		}
		root.Params = append(root.Params, p)
	}
	tree, err := ParseTree(data)
	require.NoError(t, err)
	res, err := Generate(append([]Command{root}, tree...), Options{})
	require.NoError(t, err)
	m := res.Loaded
	assert.Equal(t, "aeat", m.CLI.Command)
	assert.Equal(t, []string{"--format", "json"}, m.CLI.Args, "its JSON envelope, on every call")
	var globals []string
	for _, p := range m.CLI.Params {
		globals = append(globals, p.Name+" "+p.Flag)
	}
	assert.Equal(t, []string{"language --language", "profile --profile"}, globals, "the globals that take a value; --quiet, --verbose, --debug, --version, --detail are flags")
	assert.Equal(t, []any{"es", "en", "ca", "hu"}, m.CLI.Params[0].Enum)
	list := tool(t, res, "app_ledger_list")
	assert.Equal(t, annotations.OutputJSON, list.Output)
	args, err := list.Validate(json.RawMessage(`{"profile": "casa", "language": "es"}`))
	require.NoError(t, err)
	inv, err := list.Render(args, false)
	require.NoError(t, err)
	assert.Equal(t, []string{"--format", "json", "--language=es", "--profile=casa", "app", "ledger", "list", "--offset=0", "--sort-order=asc"}, inv.Argv,
		"aeat refuses --profile after the verb: globals come first; the verb's defaults after it")
	assert.Contains(t, strings.Join(res.Notes, "\n"), "global flags left out: --version, --detail, --quiet, --verbose, --debug")
}

// TestGenerate_CleansTerminalEscapes: help texts reach titles and
// descriptions without their terminal escapes (OSC 8 links, clear-screen,
// colour), direction overrides or invisible characters — a manifest with
// them would not load (the loader's rule is the cleaner's).
func TestGenerate_CleansTerminalEscapes(t *testing.T) {
	tree := []Command{{
		Path:      []string{"docs"},
		ShortHelp: "\x1b[2J\x1b[HOpen the \x1b]8;;https://evil.example/\x07docs\x1b]8;;\x07.",
		Help:      "Open the \x1b[1mdocs\x1b[0m in a browser.\r\nPay \u202eyrtne\u202c now.\u200b",
		Params: []Param{{Name: "topic", Kind: "option", Opts: []string{"--topic"}, Type: "str", Nargs: 1,
			Help: "the \x1b]0;pwned\x07topic\x1b[31m!"}},
	}}
	res, err := Generate(tree, Options{Program: "tool"})
	require.NoError(t, err)
	tl := tool(t, res, "docs")
	assert.Equal(t, "Open the docs", tl.Title)
	assert.Equal(t, "Open the docs in a browser.\nPay yrtne now.", tl.Description)
	topic, ok := tl.Param("topic")
	require.True(t, ok)
	assert.Equal(t, "the topic!", topic.Description)
	assert.NotContains(t, string(res.Manifest), `\u001b`)
}
