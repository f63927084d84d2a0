package annotations_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/aeatfacts"
	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rootOptions are the real CLI's global options: they sit on the root
// command, which commands.json does not list, so they are taken from the
// facts measured by running it (testdata/aeat-cli/README.md).
var rootOptions = map[string][]string{
	"--format": {"text", "json"}, "--lang": {"es", "en", "ca", "hu"}, "--profile": nil,
	"--quiet": nil, "--verbose": nil, "--debug": nil,
}

type cliCommand = aeatfacts.Command
type cliParam = aeatfacts.Param

// commandsJSON is the real CLI's command tree (testdata/aeat-cli).
func commandsJSON(t *testing.T) map[string]*cliCommand {
	cmds, err := aeatfacts.Commands()
	require.NoError(t, err)
	return cmds
}

// TestExampleMatchesRealCLI checks examples/aeat.manifest.json against the
// real aeat: every tool names a command that exists, every flag, negation,
// choice and bound is one that command has, what the CLI requires the
// tool requires, and no hint is weaker than the CLI's own classification
// (a tool may be declared read-only where the CLI's family-level
// classification is coarse, never less destructive or less open-world).
func TestExampleMatchesRealCLI(t *testing.T) {
	cmds := commandsJSON(t)
	facts, err := aeatfacts.Load()
	require.NoError(t, err)
	for _, path := range aeatManifests {
		t.Run(filepath.Base(path), func(t *testing.T) {
			m, err := annotations.Load(path)
			require.NoError(t, err)
			matchesRealCLI(t, cmds, facts, m)
		})
	}
}

func matchesRealCLI(t *testing.T, cmds map[string]*cliCommand, facts *aeatfacts.Facts, m *annotations.Manifest) {
	assert.GreaterOrEqual(t, len(m.Tools), 15)
	for i := 0; i < len(m.CLI.Args); i++ {
		choices, ok := rootOptions[m.CLI.Args[i]]
		require.True(t, ok, "cli.args: %q is not a root option of aeat", m.CLI.Args[i])
		if choices != nil {
			i++
			assert.Contains(t, choices, m.CLI.Args[i], "cli.args: value of %s", m.CLI.Args[i-1])
		}
	}
	tiers := map[annotations.Tier]int{}
	for _, tl := range m.Tools {
		t.Run(tl.Name, func(t *testing.T) {
			tiers[tl.Tier()]++
			toolMatchesCommand(t, cmds, facts, m, tl)
		})
	}
	for _, tier := range []annotations.Tier{annotations.Read, annotations.Mutate, annotations.Live} {
		assert.Positive(t, tiers[tier], "the example covers the %s tier", tier)
	}
}

// toolMatchesCommand holds one tool to its aeat command: the command's
// words and fixed flags, confirm.flag, each param, what the command
// requires, and its classification.
func toolMatchesCommand(t *testing.T, cmds map[string]*cliCommand, facts *aeatfacts.Facts, m *annotations.Manifest, tl *annotations.Tool) {
	var path []string
	for _, w := range tl.Command {
		if strings.HasPrefix(w, "-") {
			break
		}
		path = append(path, w)
	}
	cmd, ok := cmds[strings.Join(path, " ")]
	require.True(t, ok, "no command %q in aeat", strings.Join(path, " "))
	options, arguments := optionsAndArguments(cmd)
	for _, w := range tl.Command[len(path):] {
		o, ok := options[w]
		if assert.True(t, ok, "command: %q is not an option of %s", w, cmd.Path) {
			assert.True(t, o.IsFlag, "command: %q takes a value; a fixed option in command must be a flag", w)
		}
	}
	if tl.Confirm.Flag != "" {
		o, ok := options[tl.Confirm.Flag]
		assert.True(t, ok && o.IsFlag, "confirm.flag %q is not a flag of %s", tl.Confirm.Flag, cmd.Path)
	}
	checkParams(t, m, tl, cmd, options, arguments)
	checkRequiredGiven(t, tl, cmd, arguments)
	c := cmd.Classification
	assert.False(t, c.Destructive && !tl.Hints.Destructive, "aeat classifies %s as destructive", cmd.Path)
	// The family-level classification marks every "app live" verb
	// open-world; facts.json's network entries, read from the code,
	// say which of them really reach the AEAT (TestExampleMatchesFacts).
	assert.False(t, c.OpenWorld && !tl.Hints.OpenWorld && facts.NetworkOf(strings.Join(path, " ")) != "false",
		"aeat classifies %s as open-world (live), and facts.json does not say it is local", cmd.Path)
}

// optionsAndArguments are the command's options, by each of their
// spellings, and its arguments in order.
func optionsAndArguments(cmd *cliCommand) (map[string]cliParam, []cliParam) {
	options := map[string]cliParam{}
	var arguments []cliParam
	for _, p := range cmd.Params {
		if p.Kind == "argument" {
			arguments = append(arguments, p)
			continue
		}
		for _, o := range append(slices.Clone(p.Opts), p.Secondary...) {
			options[o] = p
		}
	}
	return options, arguments
}

// checkParams holds each param of the tool to what it gives: a root
// option (shared), an argument in its place (positional), or an option.
func checkParams(t *testing.T, m *annotations.Manifest, tl *annotations.Tool, cmd *cliCommand, options map[string]cliParam, arguments []cliParam) {
	positional := 0
	for i := range tl.Params() {
		prm := &tl.Params()[i]
		switch {
		case prm.Shared:
			choices, ok := rootOptions[prm.Flag]
			if assert.True(t, ok, "cli.params %s: %q is not a root option", prm.Name, prm.Flag) && choices != nil {
				for _, e := range prm.Enum {
					assert.Contains(t, choices, fmt.Sprint(e), "cli.params %s: enum", prm.Name)
				}
			}
		case prm.Stdin:
		case prm.Positional:
			if assert.Less(t, positional, len(arguments), "%s: %s takes fewer arguments", prm.Name, cmd.Path) {
				// Its name is the argument's, unless a shared param
				// has that name (a generated manifest then numbers it).
				arg := arguments[positional].Name
				shared := slices.ContainsFunc(m.CLI.Params, func(c annotations.Param) bool { return c.Name == arg })
				if !shared || !strings.HasPrefix(prm.Name, arg+"_") {
					assert.Equal(t, arg, prm.Name, "positional %d", positional)
				}
			}
			positional++
		default:
			checkOption(t, prm, options, cmd)
		}
	}
}

// checkRequiredGiven: what the command requires — an argument, an option —
// the tool requires or gives itself.
func checkRequiredGiven(t *testing.T, tl *annotations.Tool, cmd *cliCommand, arguments []cliParam) {
	var positionals []annotations.Param
	for _, q := range tl.Params() {
		if q.Positional {
			positionals = append(positionals, q)
		}
	}
	for i, p := range arguments {
		if p.Required && (i >= len(positionals) || !positionals[i].Required) {
			t.Errorf("%s requires the argument %s; the positional param in its place is not required", cmd.Path, p.Name)
		}
	}
	for _, p := range cmd.Params {
		if p.Required && p.Kind == "option" && !gives(tl, p.Opts[0]) {
			t.Errorf("%s requires %s; the tool neither gives it nor requires a param for it", cmd.Path, p.Opts[0])
		}
	}
}

// checkOption checks one flag param against the command's option.
func checkOption(t *testing.T, prm *annotations.Param, options map[string]cliParam, cmd *cliCommand) {
	t.Helper()
	o, ok := options[prm.Flag]
	if !assert.True(t, ok, "%s: %q is not an option of %s", prm.Name, prm.Flag, cmd.Path) {
		return
	}
	assert.Equal(t, prm.Type == "boolean", o.IsFlag, "%s: a boolean param is exactly a flag option (%s is_flag=%v)", prm.Name, prm.Flag, o.IsFlag)
	if prm.Negate != "" {
		assert.Contains(t, o.Secondary, prm.Negate, "%s: negate %q is not the negation of %s", prm.Name, prm.Negate, prm.Flag)
	}
	assert.Equal(t, o.Multiple, prm.IsArray(), "%s: an array param is exactly a repeatable option", prm.Name)
	if o.Choices != nil {
		assert.NotEmpty(t, prm.Enum, "%s: %s takes one of %v; say so with enum", prm.Name, prm.Flag, o.Choices)
		for _, e := range prm.Enum {
			assert.Contains(t, o.Choices, fmt.Sprint(e), "%s: enum value", prm.Name)
		}
	}
	if strings.HasPrefix(o.Type, "int") {
		typ := prm.Type
		if prm.IsArray() {
			typ = prm.Items
		}
		assert.Equal(t, "integer", typ, "%s: %s takes an integer", prm.Name, prm.Flag)
	}
	if o.Min != nil {
		assert.True(t, prm.Minimum != nil && *prm.Minimum >= *o.Min, "%s: %s has a minimum of %v", prm.Name, prm.Flag, *o.Min)
	}
	if o.Max != nil {
		assert.True(t, prm.Maximum != nil && *prm.Maximum <= *o.Max, "%s: %s has a maximum of %v", prm.Name, prm.Flag, *o.Max)
	}
}

// gives reports whether every call of the tool puts flag on the command
// line: in its command, or through a required param.
func gives(t *annotations.Tool, flag string) bool {
	if slices.Contains(t.Command, flag) {
		return true
	}
	return slices.ContainsFunc(t.Params(), func(p annotations.Param) bool { return p.Flag == flag && p.Required })
}

// TestFullManifestCoversTheCLI: examples/aeat.full.manifest.json has a tool
// for every verb of the real aeat it does not hide, deprecate or keep from
// MCP (live_write), but those it cannot serve: a verb that
// reads several secrets on stdin (facts.json stdin; no manifest key gives
// several, and without them it asks at a console). The curated example,
// examples/aeat.manifest.json, is its tools, tool for tool, and its
// surface.core (what --surface catalog lists) is among them.
func TestFullManifestCoversTheCLI(t *testing.T) {
	cmds := commandsJSON(t)
	facts, err := aeatfacts.Load()
	require.NoError(t, err)
	full, err := annotations.Load("../../examples/aeat.full.manifest.json")
	require.NoError(t, err)
	served := map[string]string{}
	for _, tl := range full.Tools {
		served[verbOf(tl)] = tl.Name
	}
	for path, c := range cmds {
		if _, ok := served[path]; ok || c.Hidden || c.Deprecated || c.Classification.LiveWrite {
			continue // hidden, deprecated and live_write verbs are left out (docs/catalog.md)
		}
		shape, stdin := facts.StdinShape(path)
		assert.True(t, stdin && len(shape) > 1, "%s: no tool serves it", path)
	}
	assert.Len(t, full.Tools, len(served), "one tool per verb")

	// The curated example is the full manifest's tools, tool for tool; the
	// core a catalog lists is among them.
	curated, err := annotations.Load("../../examples/aeat.manifest.json")
	require.NoError(t, err)
	var names []string
	for _, tl := range curated.Tools {
		names = append(names, tl.Name)
		f := toolNamed(t, full, tl.Name)
		assert.Equal(t, tl.Description, f.Description, tl.Name)
		assert.Equal(t, tl.InputSchemaJSON(), f.InputSchemaJSON(), tl.Name)
		assert.Equal(t, tl.Hints, f.Hints, tl.Name)
		assert.Equal(t, tl.Command, f.Command, tl.Name)
	}
	require.NotEmpty(t, full.Surface.Core)
	assert.Subset(t, names, full.Surface.Core, "the full manifest's core is curated")
	assert.Equal(t, curated.CLI.Args, full.CLI.Args)
	assert.Equal(t, curated.CLI.ExitCodes, full.CLI.ExitCodes)
	assert.Equal(t, curated.CLI.ErrorCodes, full.CLI.ErrorCodes)
}
