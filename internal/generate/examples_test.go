package generate

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shipped manifests of the real aeat and what they are generated from
// (docs/catalog.md).
const (
	examplesDir   = "../../examples"
	fullManifest  = examplesDir + "/aeat.full.manifest.json"
	coreManifest  = examplesDir + "/aeat.manifest.json"
	aeatOverrides = examplesDir + "/aeat.overrides.json"
)

// aeatMCP is the aeat-mcp binary, built once for the package.
func aeatMCP(t testing.TB) string { return proctest.Build(t, "cmd/aeat-mcp") }

// aeatCLI is a file of the real aeat's pinned facts (testdata/aeat-cli).
func aeatCLI(name string) string { return filepath.Join(proctest.AeatFacts(), name) }

// runGenerate runs `aeat-mcp generate ARGS…`: its exit code and outputs.
func runGenerate(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(aeatMCP(t), append([]string{"generate"}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

// examplesFrom is the generation of the shipped manifests, from a tree,
// facts, the CLI's help texts (testdata/aeat-cli/help.json) and overrides.
func examplesFrom(tree, facts, ov string) []string {
	return []string{"--from", "tree:" + tree, "--facts", facts, "--help-texts", aeatCLI("help.json"), "--overrides", ov}
}

// curatedOnly is the --only list of the curated example: its own tools,
// in its order (scripts/generate-examples names them).
func curatedOnly(t *testing.T) string {
	data, err := os.ReadFile(coreManifest)
	require.NoError(t, err)
	var m struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(data, &m))
	var names []string
	for _, tl := range m.Tools {
		names = append(names, tl.Name)
	}
	return strings.Join(names, ",")
}

// TestExamplesInStep: the shipped manifests are what `aeat-mcp generate`
// gives from the real aeat's tree and facts and examples/aeat.overrides.json
// — the whole CLI, and with --only its tools the curated example — and the
// check fails, saying what differs, when an override or the tree changes.
func TestExamplesInStep(t *testing.T) {
	gen := examplesFrom(aeatCLI("commands.json"), aeatCLI("facts.json"), aeatOverrides)
	code, out, errOut := runGenerate(t, append(gen, "--check", fullManifest)...)
	assert.Equal(t, 0, code, "%s%s\nregenerate: scripts/generate-examples", out, errOut)
	assert.Contains(t, out, "is what a fresh generation gives (300 tools")
	only := curatedOnly(t)
	code, out, errOut = runGenerate(t, append(gen, "--only", only, "--check", coreManifest)...)
	assert.Equal(t, 0, code, "%s%s\nregenerate: scripts/generate-examples", out, errOut)
	assert.Contains(t, out, "is what a fresh generation gives (19 tools")

	// An override changes: both manifests are stale, and say where.
	dir := t.TempDir()
	data, err := os.ReadFile(aeatOverrides)
	require.NoError(t, err)
	changed := strings.Replace(string(data), `"title": "List ledger transactions"`, `"title": "List the ledger"`, 1)
	require.NotEqual(t, string(data), changed)
	ov := filepath.Join(dir, "aeat.overrides.json")
	require.NoError(t, os.WriteFile(ov, []byte(changed), 0o644))
	gen = examplesFrom(aeatCLI("commands.json"), aeatCLI("facts.json"), ov)
	for _, args := range [][]string{{"--check", fullManifest}, {"--only", only, "--check", coreManifest}} {
		code, out, _ = runGenerate(t, append(gen, args...)...)
		assert.Equal(t, 1, code, args)
		assert.Equal(t, "  tool ledger_list: title: the manifest has \"List ledger transactions\"; a fresh generation has \"List the ledger\"\n", out, args)
	}

	// The tree changes: a verb gone, one new, a classification changed.
	raw, err := os.ReadFile(aeatCLI("commands.json"))
	require.NoError(t, err)
	var cmds []map[string]any
	require.NoError(t, json.Unmarshal(raw, &cmds))
	var kept []map[string]any
	for _, c := range cmds {
		switch strings.Join(strs(c["path"]), " ") {
		case "app ledger categories":
			continue
		case "app ledger history":
			c["classification"].(map[string]any)["destructive"] = true
		case "app ledger view":
			added := map[string]any{}
			for k, v := range c {
				added[k] = v
			}
			added["path"] = []any{"app", "ledger", "peek"}
			kept = append(kept, added)
		}
		kept = append(kept, c)
	}
	tree := filepath.Join(dir, "commands.json")
	b, err := json.Marshal(kept)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(tree, b, 0o644))
	code, out, _ = runGenerate(t, append(examplesFrom(tree, aeatCLI("facts.json"), aeatOverrides), "--check", fullManifest)...)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "tool app_ledger_categories: only in the manifest (gone from the CLI, or left out by the overrides)")
	assert.Contains(t, out, "tool app_ledger_peek: only in a fresh generation (new in the CLI or the overrides)")
	assert.Contains(t, out, "tool app_ledger_history: annotations.destructiveHint: the manifest has false; a fresh generation has true")

	// The facts change: a verb now reaches the network.
	fdata, err := os.ReadFile(aeatCLI("facts.json"))
	require.NoError(t, err)
	var facts map[string]any
	require.NoError(t, json.Unmarshal(fdata, &facts))
	facts["network"] = append([]any{map[string]any{"path": "app ledger history", "network": true, "what": "asks the portal"}}, facts["network"].([]any)...)
	fb, err := json.Marshal(facts)
	require.NoError(t, err)
	factsFile := filepath.Join(dir, "facts.json")
	require.NoError(t, os.WriteFile(factsFile, fb, 0o644))
	code, out, _ = runGenerate(t, append(examplesFrom(aeatCLI("commands.json"), factsFile, aeatOverrides), "--check", fullManifest)...)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "tool app_ledger_history: annotations.openWorldHint: the manifest has false; a fresh generation has true")
}

func strs(v any) []string {
	var out []string
	for _, e := range v.([]any) {
		out = append(out, e.(string))
	}
	return out
}

// TestExamplesNoGuessedHints: no tool of the shipped manifests has a
// guessed hint (issue 28 item 6) — each was decided from the CLI's source,
// and the overrides entry that sets it says where: a file of the CLI and a
// line (hints_from).
func TestExamplesNoGuessedHints(t *testing.T) {
	for _, path := range []string{fullManifest, coreManifest} {
		m, err := annotations.Load(path)
		require.NoError(t, err)
		for _, tl := range m.Tools {
			assert.Empty(t, tl.HintsGuessed, "%s: %s: decide its hints from the CLI's source in %s, with hints_from", path, tl.Name, aeatOverrides)
		}
	}
	ov := overrideEntries(t)
	n := 0
	for _, e := range ov {
		if from, ok := e["hints_from"].(string); ok {
			n++
			assert.Regexp(t, cliFileLine, from, "%v: hints_from starts with the CLI's file:line, then why", e["name"])
		}
	}
	assert.GreaterOrEqual(t, n, 54, "the 54 tools whose hints were guessed each say where they were decided")
}

// TestExamplesRegistryLookupsReadOnly: the modelo registry look-ups are
// read-only, idempotent and local in what ships — the READ tier, no
// person asked — decided from the CLI's source and a traced run, each in
// an overrides entry that says where (issue 28 item 6). The CLI's risk
// table lists them among mutating commands only because their family
// (app modelo) is marked mutating as a whole; what they write is the
// storage tree every verb makes and caches it derives from its bundled
// registry, as app registry does, which it declares read-only. requires
// and bindings list --missing also read the active profile, opening its
// database as app ledger list (read-only in the CLI's own table) does:
// no byte of it changes.
func TestExamplesRegistryLookupsReadOnly(t *testing.T) {
	lookups := map[string]string{ // tool: the command's line in the CLI
		"app_modelo_casilla":          "_modelo_discovery_cli.py:410:",
		"app_modelo_casillas":         "_modelo_discovery_cli.py:290:",
		"app_modelo_describe":         "_modelo_discovery_cli.py:246:",
		"app_modelo_formulas":         "_modelo_discovery_cli.py:1019:",
		"app_modelo_support_matrix":   "_modelo_discovery_cli.py:1165:",
		"app_modelo_requires":         "_modelo_discovery_cli.py:521:",
		"app_modelo_bindings_list":    "_modelo_discovery_cli.py:790:",
		"app_modelo_bindings_resolve": "_modelo_discovery_cli.py:910:",
	}
	m, err := annotations.Load(fullManifest)
	require.NoError(t, err)
	found := 0
	for _, tl := range m.Tools {
		if _, ok := lookups[tl.Name]; !ok {
			continue
		}
		found++
		assert.Equal(t, annotations.Hints{ReadOnly: true, Idempotent: true}, tl.Hints, tl.Name)
		assert.Equal(t, annotations.Read, tl.Tier(), tl.Name)
	}
	assert.Equal(t, len(lookups), found, "every look-up is in %s", fullManifest)

	ov := overrideEntries(t)
	for _, e := range ov {
		if at, ok := lookups[e["name"].(string)]; ok {
			assert.Contains(t, e["hints_from"], at, "%v: decided from its command's source", e["name"])
			delete(lookups, e["name"].(string))
		}
	}
	assert.Empty(t, lookups, "each look-up's hints are decided in %s, with hints_from", aeatOverrides)
}

// registryLoaders are the READ tools of the shipped manifests whose call
// loads the CLI's bundled registry (found by running each READ tool of the
// full manifest with the registry loader trapped — with real ids and files
// made in a scratch store where a dummy argument was refused first — or,
// for the three whose input only a live capture or a broken loader stands
// in front of, from the source; the command's line is in its overrides
// entry). On a store without the compiled registry — a fresh install, a
// new CLI version — that first call compiles it and writes the cache only
// at the end: 35-100 s measured on a shared 2-core machine.
var registryLoaders = []string{
	"app_modelo_casilla", "app_modelo_casillas", "app_modelo_describe", "app_modelo_formulas",
	"app_modelo_support_matrix", "app_modelo_requires", "app_modelo_bindings_list",
	"app_modelo_bindings_resolve", "app_modelo_work_compare_taxation",
	"app_registry_parity_run", "app_registry_parity_replay", "app_registry_verify_filed_state",
	"app_overview_backlog", "app_overview_calendar",
	"app_overview_explain", "app_overview_prepare", "app_registry_audit_oracles",
	"app_registry_citations_list", "app_registry_citations_verify", "app_registry_citations_view",
	"app_registry_diff_revisions", "app_registry_inspect", "app_registry_verify",
	"config_check", "modelo_list", "overview_agenda", "overview_status",
}

// registryLoadCeiling is what those tools get: READ's 45 s kills a slow
// first call before it writes the cache, so every retry starts over.
const registryLoadCeiling = 180 * time.Second

// TestExamplesRegistryLoadersOwnCeiling: a READ tool that loads the
// bundled registry runs under a ceiling a first call can finish in, in
// both shipped manifests, as the server picks it (Tool.Ceiling with the
// default tiers); and its overrides entry says why, from the CLI's source
// (timeout_from). Issue 28 item 6.
func TestExamplesRegistryLoadersOwnCeiling(t *testing.T) {
	assertOwnCeiling(t, registryLoaders, registryLoadCeiling, "loads the bundled registry: a first call is killed before it writes the cache")
}

// TestExamplesWorkbooksVerifyOwnCeiling: app registry workbooks verify
// reads every official workbook the CLI bundles (118) before it answers —
// 153 and 209 s measured at load 6.6 and 4.9, where READ gives 45 s — so
// it has a ceiling its normal run can meet (LIVE's, 2x the slowest), with
// the measurement in its overrides entry.
func TestExamplesWorkbooksVerifyOwnCeiling(t *testing.T) {
	assertOwnCeiling(t, []string{"app_registry_workbooks_verify"}, 420*time.Second, "reads every bundled workbook: its normal run takes minutes")
}

// assertOwnCeiling: each named READ tool of the shipped manifests (all of
// them in the full one) has a ceiling of at least min, and an overrides
// entry whose timeout_from says why from the CLI's source.
func assertOwnCeiling(t *testing.T, names []string, min time.Duration, why string) {
	t.Helper()
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for _, path := range []string{fullManifest, coreManifest} {
		m, err := annotations.Load(path)
		require.NoError(t, err)
		found := 0
		for _, tl := range m.Tools {
			if !want[tl.Name] {
				continue
			}
			found++
			assert.Equal(t, annotations.Read, tl.Tier(), "%s: %s", path, tl.Name)
			assert.GreaterOrEqual(t, tl.Ceiling(annotations.DefaultCeilings), min, "%s: %s %s", path, tl.Name, why)
		}
		if path == fullManifest {
			assert.Equal(t, len(names), found, "every one is in %s", path)
		}
	}

	ov := overrideEntries(t)
	for _, e := range ov {
		if from, ok := e["timeout_from"].(string); ok && want[e["name"].(string)] {
			assert.Regexp(t, cliFileLine, from, "%v: timeout_from starts with the CLI's file:line, then why", e["name"])
			delete(want, e["name"].(string))
		}
	}
	assert.Empty(t, want, "each one's ceiling is decided in %s, with timeout_from", aeatOverrides)
}

// cliFileLine is how a reason in the overrides (hints_from, timeout_from)
// starts: a file of the CLI's source and a line, then why.
var cliFileLine = regexp.MustCompile(`^src/cadrumo/\S+\.py:[1-9][0-9]*: \S`)

// overrideEntries are the tools entries of the shipped overrides, as JSON.
func overrideEntries(t *testing.T) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(aeatOverrides)
	require.NoError(t, err)
	var ov struct {
		Tools []map[string]any `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(data, &ov))
	return ov.Tools
}
