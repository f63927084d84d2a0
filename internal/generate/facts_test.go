package generate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExpandPaths(t *testing.T) {
	verbs := map[string]bool{}
	for _, v := range []string{"app live filed pull", "app live filed list", "app live notifications list", "app live notifications view",
		"app live expedientes list", "app live borrador 100 list", "app live borrador 100 view", "app live verify list",
		"app ledger classify", "app ledger split", "app ledger evidence extract"} {
		verbs[v] = true
	}
	for _, tc := range []struct {
		path         string
		want, missed []string
	}{
		{"app live filed pull | list", []string{"app live filed pull", "app live filed list"}, nil},
		{"app live notifications list|view, expedientes list, borrador 100 list|view, verify list",
			[]string{"app live notifications list", "app live notifications view", "app live expedientes list",
				"app live borrador 100 list", "app live borrador 100 view", "app live verify list"}, nil},
		{"app ledger classify --llm | split --llm | evidence extract --off-host-provider",
			[]string{"app ledger classify", "app ledger split", "app ledger evidence extract"}, nil},
		{"app live filed pull | nothing", []string{"app live filed pull"}, []string{"nothing"}},
	} {
		got, missed := expandPaths(tc.path, verbs)
		assert.Equal(t, tc.want, got, tc.path)
		assert.Equal(t, tc.missed, missed, tc.path)
	}
}

// factsTree is a small CLI with a classification, and factsFile what its
// source says of it, in the format of aeat's facts.json.
const factsTree = `[
 {"path": ["live", "pull"], "classification": {"open_world": true, "risk_declared": true},
  "params": [{"name": "year", "kind": "option", "opts": ["--year"], "type": "int"},
             {"name": "period", "kind": "option", "opts": ["--period"], "type": "str"},
             {"name": "from_year", "kind": "option", "opts": ["--from-year"], "type": "int"},
             {"name": "to_year", "kind": "option", "opts": ["--to-year"], "type": "int"}]},
 {"path": ["live", "list"], "classification": {"open_world": true, "risk_declared": true}, "params": []},
 {"path": ["live", "view"], "classification": {"open_world": true, "risk_declared": true}, "params": []},
 {"path": ["ledger", "remove"], "classification": {"destructive": true, "risk_declared": true},
  "params": [{"name": "transaction_id", "kind": "argument", "opts": ["transaction_id"], "type": "str"},
             {"name": "yes", "kind": "option", "opts": ["--yes"], "type": "boolean", "is_flag": true},
             {"name": "dry_run", "kind": "option", "opts": ["--dry-run"], "type": "boolean", "is_flag": true}]},
 {"path": ["ledger", "classify"], "classification": {"risk_declared": true},
  "params": [{"name": "transaction_id", "kind": "argument", "opts": ["transaction_id"], "type": "str"},
             {"name": "llm", "kind": "option", "opts": ["--llm"], "type": "boolean", "is_flag": true},
             {"name": "file", "kind": "option", "opts": ["--file"], "type": "path"},
             {"name": "limit", "kind": "option", "opts": ["--limit"], "type": "int", "default": 10},
             {"name": "below", "kind": "option", "opts": ["--below"], "type": "float"},
             {"name": "days", "kind": "option", "opts": ["--days"], "type": "int"}]},
 {"path": ["wallet", "seed"], "classification": {"risk_declared": true},
  "params": [{"name": "confirm", "kind": "option", "opts": ["--confirm", "--yes"], "type": "boolean", "is_flag": true},
             {"name": "to", "kind": "option", "opts": ["--to"], "type": "str"}]},
 {"path": ["config", "check"], "classification": {"read_only": true, "idempotent": true, "risk_declared": true}, "params": []},
 {"path": ["config", "login"], "classification": {"risk_declared": true},
  "params": [{"name": "secrets_stdin", "kind": "option", "opts": ["--secrets-stdin"], "type": "boolean", "is_flag": true}]},
 {"path": ["config", "rotate"], "classification": {"risk_declared": true},
  "params": [{"name": "secrets_stdin", "kind": "option", "opts": ["--secrets-stdin"], "type": "boolean", "is_flag": true}]},
 {"path": ["work", "verify"], "classification": {"risk_declared": true}, "params": []}
]`

const factsFile = `{
 "network": [
  {"path": "live pull", "network": true, "what": "drives a browser through the portal"},
  {"path": "live list", "network": false, "what": "reads stored snapshots"},
  {"path": "ledger classify --llm", "network": "conditional", "what": "an LLM provider"},
  {"path": "(all other verbs)", "network": false, "what": "local state only"}
 ],
 "login": {"exempt_leaf_paths": ["config check", "config login"],
           "conditional_exemptions": [{"path": "ledger remove", "when": "a dry run is asked for"}],
           "refusal": {"suggestion": "tool config login"}},
 "exit_codes": {"exit1_after_success_envelope": [{"path": "work verify", "when": "verification not granted"}]},
 "exit2_with_success": {"verbs": [{"path": "config check", "when": "any problem found"}]},
 "stdin": {"verbs": [{"path": "config login", "flag": "--secrets-stdin", "shape": {"passphrase": "string"}},
                     {"path": "config rotate", "flag": "--secrets-stdin", "shape": {"old": "string", "new": "string"}}]},
 "cross_field": {"rules": [
  {"path": "live pull", "rule": {"together": ["--from-year", "--to-year"]}},
  {"path": "live pull", "rule": {"if": "--period", "requires": ["--year"]}, "note": "--year alone is ignored (line 12)"},
  {"path": "live pull", "rule": {"mutually_exclusive": [["--year"], ["--from-year", "--to-year"]]}},
  {"path": "ledger remove", "rule": {"requires": ["--yes"], "unless": "--dry-run"}},
  {"path": "ledger classify", "rule": {"if": "--llm", "requires": ["TRANSACTION_ID"], "excludes": ["--file"]}},
  {"path": "ledger classify", "rule": {"if": "--file", "requires": ["--limit"]}},
  {"path": "ledger classify", "rule": {"value_range": {"--below": [0, 1], "--days": ">0"}}},
  {"path": "wallet seed", "rule": {"requires": ["--confirm"]}},
  {"path": "wallet seed", "rule": {"requires": ["--to"]}},
  {"path": "gone verb", "rule": {"requires": ["--x"]}}
 ]}
}`

func generateWithFacts(t *testing.T, overrides string) *Result {
	t.Helper()
	tree, err := ParseTree([]byte(factsTree))
	require.NoError(t, err)
	facts, err := ParseFacts([]byte(factsFile))
	require.NoError(t, err)
	opts := Options{Program: "tool", Facts: facts, OverridesName: "o.json"}
	if overrides != "" {
		opts.Overrides = []byte(overrides)
	}
	res, err := Generate(tree, opts)
	require.NoError(t, err)
	return res
}

// TestFacts: what the facts say of each verb reaches its tool — hints and
// words for the network, the login, the exits that still carry a result,
// a secret on stdin, and the rules between options, in the names of the
// params the model gives.
func TestFacts(t *testing.T) {
	res := generateWithFacts(t, "")
	notes := strings.Join(res.Notes, "\n")

	pull := tool(t, res, "live_pull")
	assert.Equal(t, annotations.Live, pull.Tier())
	assert.Contains(t, pull.Description, "Reaches the network: drives a browser through the portal.")
	assert.Contains(t, pull.Description, "Needs the user's tool login session (`tool config login`).")
	from, _ := pull.Param("from_year")
	to, _ := pull.Param("to_year")
	period, _ := pull.Param("period")
	assert.Equal(t, []string{"to_year"}, from.Requires, "together: both ways")
	assert.Equal(t, []string{"from_year"}, to.Requires)
	assert.Equal(t, []string{"year"}, period.Requires)
	assert.Contains(t, pull.Description, "with period: give year (year alone is ignored)", "the note, without its line number")
	assert.Contains(t, pull.Description, "not year together with from_year with to_year", "what a manifest cannot say, said")

	list := tool(t, res, "live_list")
	assert.False(t, list.Hints.OpenWorld, "the facts name it local: not open-world, whatever its family's classification")
	assert.Contains(t, list.Description, "Local: it does not reach the network.")
	assert.Contains(t, notes, "live list: not open-world: the facts show it local (reads stored snapshots)")
	assert.NotContains(t, notes, "live_list: the overrides make", "the facts, not the overrides, and they are the better evidence")
	view := tool(t, res, "live_view")
	assert.True(t, view.Hints.OpenWorld, "only the catch-all says local: the CLI's word stands")
	assert.NotContains(t, view.Description, "Local")

	remove := tool(t, res, "ledger_remove")
	assert.Equal(t, "--yes", remove.Confirm.Flag)
	assert.Equal(t, map[string]any{"dry_run": true}, remove.Confirm.SkipWhen, "unless --dry-run: a dry run asks nobody")
	assert.Contains(t, remove.Description, "Needs the user's tool login session (`tool config login`), except when a dry run is asked for.")
	assert.NotContains(t, remove.Description, "rules", "the confirmation is the server's to ask, not the model's to give")

	classify := tool(t, res, "ledger_classify")
	assert.Contains(t, classify.Description, "May reach the network: an LLM provider.", "an option after the verb in a network path")
	llm, _ := classify.Param("llm")
	assert.Equal(t, []string{"transaction_id"}, llm.Requires, "an argument, named as help writes it")
	file, _ := classify.Param("file")
	assert.Empty(t, file.Requires, "limit has a default: requiring it says nothing")
	assert.Contains(t, classify.Description, "with llm: give transaction_id, not with file")
	below, _ := classify.Param("below")
	days, _ := classify.Param("days")
	assert.Equal(t, 0.0, *below.Minimum)
	assert.Equal(t, 1.0, *below.Maximum)
	assert.Equal(t, 1.0, *days.Minimum, "> 0 for an integer")

	seed := tool(t, res, "wallet_seed")
	assert.Equal(t, "--yes", seed.Confirm.Flag, "--confirm is also --yes: one option")
	to2, _ := seed.Param("to")
	assert.True(t, to2.Required, "the CLI refuses a call without it")

	check := tool(t, res, "config_check")
	assert.Contains(t, check.Description, "Runs without a tool login.")
	assert.Equal(t, annotations.OKWithStdout, check.ExitCodes[2].OK)
	assert.Contains(t, check.ExitCodes[2].Hint, "any problem found")
	verify := tool(t, res, "work_verify")
	assert.Equal(t, annotations.OKWithStdout, verify.ExitCodes[1].OK, "exit 1 after a result, too")

	login := tool(t, res, "config_login")
	assert.Equal(t, []string{"config", "login", "--secrets-stdin"}, login.Command)
	assert.Equal(t, &annotations.StdinSource{Keychain: "TOOL_CONFIG_LOGIN_PASSPHRASE", JSONKey: "passphrase"}, login.Stdin)
	_, has := login.Param("secrets_stdin")
	assert.False(t, has, "the flag is in the command, not the model's")
	assert.Contains(t, login.Description, "`aeat-mcp secret set TOOL_CONFIG_LOGIN_PASSPHRASE`")
	assert.Contains(t, notes, "left out (reads several secrets on stdin (new, old): run it in a terminal): config_rotate")
	assert.Contains(t, notes, "facts: rules of verbs the tree does not have: gone verb")

	again := generateWithFacts(t, "")
	assert.Equal(t, string(res.Manifest), string(again.Manifest), "the same tree and facts, the same bytes")
}

// TestFacts_OverridesWin: an override is applied after the facts.
func TestFacts_OverridesWin(t *testing.T) {
	res := generateWithFacts(t, `{"tools": [{"name": "live_list", "description": "Lists the snapshots.", "annotations": {"openWorldHint": true}}]}`)
	list := tool(t, res, "live_list")
	assert.Equal(t, "Lists the snapshots.", list.Description)
	assert.True(t, list.Hints.OpenWorld)
}

// TestWholeTool: an overrides entry with a command is the whole tool of
// that verb, as a person wrote it, under the name they gave.
func TestWholeTool(t *testing.T) {
	whole := `{"name": "list_ledger", "title": "List", "description": "Lists.", "command": ["ledger", "list"],
	  "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
	  "params": [{"name": "y", "type": "integer", "flag": "--year", "minimum": 2000}], "output": "json"}`
	res, err := generateSmall(t, `{"tools": [`+whole+`, {"name": "list_*", "timeout": "30s"}]}`)
	require.NoError(t, err)
	tl := tool(t, res, "list_ledger")
	assert.Equal(t, "Lists.", tl.Description)
	var own []string
	for _, p := range tl.Params() {
		if !p.Shared {
			own = append(own, p.Name)
		}
	}
	assert.Equal(t, []string{"y"}, own, "its params as written, nothing merged in")
	assert.Equal(t, "30s", tl.Timeout.String(), "later entries match it by its new name")
	for _, other := range res.Loaded.Tools {
		assert.NotEqual(t, "ledger_list", other.Name, "the generated tool of the verb is gone")
	}
	assert.Contains(t, strings.Join(res.Notes, "\n"), "list_ledger: the overrides' tool does not offer the CLI's --profile")

	for _, tc := range []struct{ name, overrides, want string }{
		{"an option the verb lacks", `{"tools": [{"name": "x", "title": "X", "description": "X", "command": ["ledger", "list", "--all"],
			"annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
			"params": [{"name": "y", "type": "integer", "flag": "--yeer"}]}]}`,
			`tools[0] ("x").command[2]: "--all" is not an option of ledger list`},
		{"a flag the verb lacks", `{"tools": [{"name": "x", "title": "X", "description": "X", "command": ["ledger", "list"],
			"annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
			"params": [{"name": "y", "type": "integer", "flag": "--yeer"}]}]}`,
			`tools[0] ("x").params[0].flag: "--yeer" is not an option of ledger list`},
		{"no such verb", `{"tools": [{"name": "x", "command": ["ledger", "lost"]}]}`, `tools[0] ("x"): command "ledger lost" is no verb of the CLI`},
		{"a glob", `{"tools": [{"name": "x*", "command": ["ledger", "list"]}]}`, `a whole tool (an entry with a command) is named, not matched`},
		{"another verb's name", `{"tools": [{"name": "sync", "title": "X", "description": "X", "command": ["ledger", "list"],
			"annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`,
			`tool name "sync" is given to ledger list and sync`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := generateSmall(t, tc.overrides)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestCore: --core keeps the tools of surface.core, as the full manifest
// has them, and no surface key.
func TestCore(t *testing.T) {
	tree, err := ParseTree([]byte(small))
	require.NoError(t, err)
	ov := []byte(`{"surface": {"core": ["sync", "ledger_list"]}, "tools": [{"name": "sync", "title": "Sync"}]}`)
	full, err := Generate(tree, Options{Overrides: ov})
	require.NoError(t, err)
	assert.Equal(t, []string{"sync", "ledger_list"}, full.Loaded.Surface.Core)
	core, err := Generate(tree, Options{Overrides: ov, Core: true})
	require.NoError(t, err)
	require.Len(t, core.Loaded.Tools, 2)
	assert.Empty(t, core.Loaded.Surface.Core)
	var fullTools map[string]any
	require.NoError(t, json.Unmarshal(full.Manifest, &fullTools))
	var coreTools map[string]any
	require.NoError(t, json.Unmarshal(core.Manifest, &coreTools))
	for i, name := range []string{"sync", "ledger_list"} { // the core's order
		for _, ft := range fullTools["tools"].([]any) {
			if ft.(map[string]any)["name"] == name {
				assert.Equal(t, ft, coreTools["tools"].([]any)[i], "%s: the same tool in both", name)
			}
		}
	}

	_, err = Generate(tree, Options{Core: true})
	assert.ErrorContains(t, err, "--core: the overrides give no surface.core")
	_, err = Generate(tree, Options{Overrides: []byte(`{"surface": {"core": ["nope"]}}`), Core: true})
	assert.ErrorContains(t, err, "surface.core names tools the manifest does not have: nope")

	// --only: a hand-picked set, in its order, whatever the core.
	only, err := Generate(tree, Options{Overrides: ov, Only: []string{"ledger_list", "sync"}})
	require.NoError(t, err)
	require.Len(t, only.Loaded.Tools, 2)
	assert.Equal(t, "ledger_list", only.Loaded.Tools[0].Name)
	assert.Empty(t, only.Loaded.Surface.Core)
	_, err = Generate(tree, Options{Overrides: ov, Only: []string{"nope"}})
	assert.ErrorContains(t, err, "--only names tools the manifest does not have: nope")
	_, err = Generate(tree, Options{Overrides: ov, Core: true, Only: []string{"sync"}})
	assert.ErrorContains(t, err, "--core and --only: give one")
}
