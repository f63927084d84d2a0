package generate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadCompletion: the answers of Cobra's completion protocol, as real
// programs give them.
func TestReadCompletion(t *testing.T) {
	t.Run("subcommands (gh 2.23's root: an alias of its own config, help)", func(t *testing.T) {
		c, ok := readCompletion("alias\tCreate command shortcuts\napi\tMake an authenticated GitHub API request\nhelp\tHelp about any command\nco\tAlias for pr checkout\n:4\n")
		require.True(t, ok)
		assert.Equal(t, 4, c.directive)
		assert.Equal(t, []listed{{"alias", "Create command shortcuts"}, {"api", "Make an authenticated GitHub API request"},
			{"help", "Help about any command"}, {"co", "Alias for pr checkout"}}, c.commands())
	})
	t.Run("subcommands and a required flag (listed without -)", func(t *testing.T) {
		c, ok := readCompletion("push\tPush it\n--name\tthe label\n-n\tthe label\n:4\n")
		require.True(t, ok)
		assert.Equal(t, []listed{{"push", "Push it"}}, c.commands())
	})
	t.Run("flags with shorthands (gh repo list)", func(t *testing.T) {
		c, ok := readCompletion("--help\tShow help for command\n--archived\tShow only archived repositories\n--jq\tFilter JSON output using a jq `expression`\n-q\tFilter JSON output using a jq `expression`\n--limit\tMaximum number of repositories to list\n-L\tMaximum number of repositories to list\n:4\n")
		require.True(t, ok)
		assert.Equal(t, []compFlag{{long: "help", usage: "Show help for command"}, {long: "archived", usage: "Show only archived repositories"},
			{long: "jq", short: "-q", usage: "Filter JSON output using a jq `expression`"}, {long: "limit", short: "-L", usage: "Maximum number of repositories to list"}}, c.flags())
	})
	t.Run("only the required flags (cobracli label)", func(t *testing.T) {
		c, ok := readCompletion("--name\tthe label\n-n\tthe label\n:4\n")
		require.True(t, ok)
		listed := c.flags()
		page := &helpPage{local: []helpFlag{{param: Param{Name: "all", Opts: []string{"--all"}}}, {param: Param{Name: "name", Opts: []string{"--name", "-n"}}}}}
		assert.Equal(t, map[string]bool{"name": true}, requiredFlags(page, listed))
		everyFlag := append(listed, compFlag{long: "all"})
		assert.Nil(t, requiredFlags(page, everyFlag), "every flag listed: none required")
		withGlobals := append(everyFlag, compFlag{long: "kubeconfig"})
		assert.Nil(t, requiredFlags(page, withGlobals), "flags no page shows (kubectl's globals): not the required-only answer")
	})
	t.Run("active help and an older Cobra's values without a description", func(t *testing.T) {
		c, ok := readCompletion("_activeHelp_ Pick a shell\nbash\nzsh\n:36\n")
		require.True(t, ok)
		assert.Equal(t, []listed{{"bash", ""}, {"zsh", ""}}, c.commands())
	})
	t.Run("an error directive (no such command)", func(t *testing.T) {
		c, ok := readCompletion(":1\n")
		require.True(t, ok)
		assert.Equal(t, compDirectiveError, c.directive&compDirectiveError)
		assert.Empty(t, c.entries)
	})
	t.Run("not the protocol (a program that echoes its arguments)", func(t *testing.T) {
		_, ok := readCompletion("__complete \n")
		assert.False(t, ok)
		_, ok = readCompletion("")
		assert.False(t, ok)
	})
}
