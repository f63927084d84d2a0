package generate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func flagNames(fs []helpFlag) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.param.Name)
	}
	return out
}

func flagNamed(t *testing.T, fs []helpFlag, name string) helpFlag {
	t.Helper()
	for _, f := range fs {
		if f.param.Name == name {
			return f
		}
	}
	t.Fatalf("no flag %s in %v", name, flagNames(fs))
	return helpFlag{}
}

// TestReadHelp_CobraDefault: Cobra's own template (hugo 0.111's page,
// shortened), and a description that holds what looks like a heading.
func TestReadHelp_CobraDefault(t *testing.T) {
	h := readHelp(`Various helpers to help manage the modules in your project's dependency graph.

Usage: is what the next section shows:
  it does.

Usage:
  hugo mod [command]

Available Commands:
  clean       Delete the Hugo Module cache for the current project.
  get         Resolves dependencies in your current Hugo Project.

Flags:
  -b, --baseURL string             hostname (and path) to the root, e.g. https://spf13.com/
  -D, --buildDrafts                include content marked as draft
      --disableKinds strings       disable different kind of pages (home, RSS etc.)
  -h, --help                       help for mod
      --liveReloadPort int         port for live reloading (i.e. 443 in HTTPS proxy situations) (default -1)
      --meminterval string         interval to poll memory usage (requires --memstats), valid time units are "ns", "us" (or "µs"), "ms", "s", "m", "h". (default "100ms")
      --trace file                 write trace to file (not useful in general)

Global Flags:
      --config string      config file (default is hugo.yaml|json|toml)
      --configDir string   config dir (default "config")
  -v, --verbose            verbose output

Use "hugo mod [command] --help" for more information about a command.
`, "hugo")
	assert.Equal(t, "Various helpers to help manage the modules in your project's dependency graph.\n\nUsage: is what the next section shows:\n  it does.", h.description)
	assert.Equal(t, []string{"hugo mod [command]"}, h.usage)
	assert.Equal(t, []listed{{"clean", "Delete the Hugo Module cache for the current project."}, {"get", "Resolves dependencies in your current Hugo Project."}}, h.commands)
	assert.Equal(t, []string{"baseURL", "buildDrafts", "disableKinds", "liveReloadPort", "meminterval", "trace"}, flagNames(h.local), "--help left out")
	assert.Equal(t, []string{"config", "configDir", "verbose"}, flagNames(h.inherited))
	assert.Equal(t, json.Number("-1"), flagNamed(t, h.local, "liveReloadPort").param.Default)
	assert.Equal(t, "100ms", flagNamed(t, h.local, "meminterval").param.Default)
	assert.Nil(t, flagNamed(t, h.inherited, "config").param.Default, "(default is …) is the author's text")
	assert.Equal(t, []string{"--verbose", "-v"}, flagNamed(t, h.inherited, "verbose").param.Opts)
	u := h.usageFor([]string{"hugo", "mod"})
	assert.Equal(t, usage{group: true, names: []string{"hugo", "mod"}}, u, "a group only")
	assert.Nil(t, h.globalsPage)

	verb := readHelp("Create a new site.\n\nUsage:\n  hugo new site [path] [flags]\n  hugo new site [command]\n\nFlags:\n      --force   init inside non-empty directory\n", "hugo")
	u = verb.usageFor([]string{"hugo", "new", "site"})
	assert.True(t, u.runnable && u.group, "a verb with commands of its own")
	args, unread := usageArgs(u.rest, nil)
	assert.Empty(t, unread)
	assert.Equal(t, []Param{{Name: "path", Kind: "argument", Type: "str", Nargs: 1}}, args, "a lower-case word in brackets is an argument")
}

// TestReadHelp_GhStyle: gh's template (gh 2.23): headings in capitals
// without a colon, commands as "name:  text", a usage of its own.
func TestReadHelp_GhStyle(t *testing.T) {
	root := readHelp(`Work seamlessly with GitHub from the command line.

USAGE
  gh <command> <subcommand> [flags]

CORE COMMANDS
  auth:        Authenticate gh and git with GitHub
  pr:          Manage pull requests

HELP TOPICS
  environment: Environment variables that can be used with gh

FLAGS
  --help      Show help for command
  --version   Show gh version

EXAMPLES
  $ gh issue create

LEARN MORE
  Use 'gh <command> <subcommand> --help' for more information about a command.
`, "gh")
	assert.Equal(t, "Work seamlessly with GitHub from the command line.", root.description)
	assert.Equal(t, []listed{{"auth", "Authenticate gh and git with GitHub"}, {"pr", "Manage pull requests"}}, root.commands, "help topics are no commands")
	assert.True(t, root.usageFor([]string{"gh"}).group)
	assert.False(t, root.usageFor([]string{"gh"}).runnable)
	assert.Equal(t, []string{"version"}, flagNames(root.local))

	list := readHelp(`List repositories owned by user or organization

For more information about output formatting flags, see `+"`gh help formatting`"+`.

USAGE
  gh repo list [<owner>] [flags]

FLAGS
      --archived            Show only archived repositories
  -q, --jq expression       Filter JSON output using a jq expression
  -L, --limit int           Maximum number of repositories to list (default 30)
      --topic strings       Filter by topic
      --visibility string   Filter by repository visibility: {public|private|internal}

INHERITED FLAGS
  --help   Show help for command

LEARN MORE
  Use 'gh <command> <subcommand> --help' for more information about a command.
  Read the manual at https://cli.github.com/manual
`, "gh")
	assert.Equal(t, "List repositories owned by user or organization\n\nFor more information about output formatting flags, see `gh help formatting`.", list.description)
	assert.Equal(t, []string{"archived", "jq", "limit", "topic", "visibility"}, flagNames(list.local))
	assert.Empty(t, list.inherited, "--help left out")
	assert.Equal(t, "str", flagNamed(t, list.local, "jq").param.Type, "a named placeholder is a string")
	assert.True(t, flagNamed(t, list.local, "topic").param.Multiple)
	assert.Equal(t, json.Number("30"), flagNamed(t, list.local, "limit").param.Default)
	u := list.usageFor([]string{"gh", "repo", "list"})
	assert.True(t, u.runnable)
	args, unread := usageArgs(u.rest, nil)
	assert.Empty(t, unread)
	assert.Equal(t, []Param{{Name: "owner", Kind: "argument", Type: "str", Nargs: 1}}, args)

	// gh shows an alias's target page: its usage names another command.
	co := readHelp(`Check out a pull request in git

USAGE
  gh pr checkout {<number> | <url> | <branch>} [flags]

FLAGS
  -b, --branch string        Local branch name to use (default: the name of the head branch)

INHERITED FLAGS
      --help                     Show help for command
  -R, --repo [HOST/]OWNER/REPO   Select another repository using the [HOST/]OWNER/REPO format
`, "gh")
	u = co.usageFor([]string{"gh", "co"})
	assert.Equal(t, []string{"gh", "pr", "checkout"}, u.names)
	assert.Equal(t, "Local branch name to use (default: the name of the head branch)", flagNamed(t, co.local, "branch").param.Help)
	assert.Equal(t, []string{"--repo", "-R"}, flagNamed(t, co.inherited, "repo").param.Opts)
	args, _ = usageArgs(co.usageFor([]string{"gh", "pr", "checkout"}).rest, nil)
	assert.Equal(t, []Param{{Name: "number_or_url_or_branch", Kind: "argument", Type: "str", Required: true, Nargs: 1,
		Help: "One of: number | url | branch"}}, args)
}

// TestReadHelp_KubectlStyle: kubectl's template: command groups of their
// own names, "Options:" with "--name=default: usage" (1.20, one line) or
// the usage on the lines after (1.32), the usage last, the global options
// on a page of their own.
func TestReadHelp_KubectlStyle(t *testing.T) {
	root := readHelp(`kubectl controls the Kubernetes cluster manager.

 Find more information at: https://kubernetes.io/docs/reference/kubectl/overview/

Basic Commands (Beginner):
  create        Create a resource from a file or from stdin.
  get           Display one or many resources

Other Commands:
  api-resources Print the supported API resources on the server
  config        Modify kubeconfig files

Usage:
  kubectl [flags] [options]

Use "kubectl <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`, "kubectl")
	assert.Equal(t, "kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/overview/", root.description)
	assert.Equal(t, []listed{{"create", "Create a resource from a file or from stdin."}, {"get", "Display one or many resources"},
		{"api-resources", "Print the supported API resources on the server"}, {"config", "Modify kubeconfig files"}}, root.commands)
	assert.Equal(t, []string{"kubectl [flags] [options]"}, root.usage, "the lines after the usage are not part of it")
	assert.Equal(t, []string{"kubectl", "options"}, root.globalsPage)

	for _, tc := range []struct{ name, page string }{
		{"1.20", `Display one or many resources

Examples:
  # List all pods in ps output format.
  kubectl get pods

Options:
  -A, --all-namespaces=false: If present, list the requested object(s) across all namespaces.
      --chunk-size=500: Return large lists in chunks rather than all at once.
  -f, --filename=[]: Filename, directory, or URL to files identifying the resource to get from a server.
  -o, --output='': Output format. One of: json|yaml|wide
      --server-print=true: If true, have the server return the appropriate table output.
      --request-timeout='0': The length of time to wait before giving up.
      --log-backtrace-at=:0: when logging hits line file:N, emit a stack trace
      --log-flush-frequency=5s: Maximum number of seconds between log flushes

Usage:
  kubectl get [(-o|--output=)json|yaml|wide] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags] [options]

Use "kubectl options" for a list of global command-line options (applies to all commands).
`},
		{"1.32", "Display one or many resources\n\nExamples:\n  # List all pods in ps output format.\n  kubectl get pods\n\nOptions:\n" +
			"    -A, --all-namespaces=false:\n\tIf present, list the requested object(s) across all namespaces.\n\n" +
			"    --chunk-size=500:\n\tReturn large lists in chunks rather than all at once.\n\n" +
			"    -f, --filename=[]:\n\tFilename, directory, or URL to files identifying the resource to get from a server.\n\n" +
			"    -o, --output='':\n\tOutput format. One of: json|yaml|wide\n\n" +
			"    --server-print=true:\n\tIf true, have the server return the appropriate table output.\n\n" +
			"    --request-timeout='0':\n\tThe length of time to wait before giving up.\n\n" +
			"    --log-backtrace-at=:0:\n\twhen logging hits line file:N, emit a stack trace\n\n" +
			"    --log-flush-frequency=5s:\n\tMaximum number of seconds between log flushes\n\n" +
			"Usage:\n  kubectl get [(-o|--output=)json|yaml|wide] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags] [options]\n\n" +
			"Use \"kubectl options\" for a list of global command-line options (applies to all commands).\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := readHelp(tc.page, "kubectl")
			assert.Equal(t, "Display one or many resources", h.description)
			assert.Equal(t, []string{"all_namespaces", "chunk_size", "filename", "output", "server_print", "request_timeout", "log_backtrace_at", "log_flush_frequency"}, flagNames(h.local))
			all := flagNamed(t, h.local, "all_namespaces")
			assert.Equal(t, Param{Name: "all_namespaces", Kind: "option", Opts: []string{"--all-namespaces", "-A"}, Type: "boolean", IsFlag: true, Nargs: 1,
				Help: "If present, list the requested object(s) across all namespaces."}, all.param)
			assert.Equal(t, Param{Name: "chunk_size", Kind: "option", Opts: []string{"--chunk-size"}, Type: "int", Nargs: 1, Default: json.Number("500"),
				Help: "Return large lists in chunks rather than all at once."}, flagNamed(t, h.local, "chunk_size").param)
			assert.True(t, flagNamed(t, h.local, "filename").param.Multiple, "[] is a list")
			assert.Equal(t, "str", flagNamed(t, h.local, "output").param.Type)
			assert.Equal(t, "Output format. One of: json|yaml|wide", flagNamed(t, h.local, "output").param.Help)
			sp := flagNamed(t, h.local, "server_print").param
			assert.Equal(t, "boolean", sp.Type)
			assert.Equal(t, "true", sp.Default, "on by default: it takes --server-print=false")
			assert.Equal(t, "0", flagNamed(t, h.local, "request_timeout").param.Default, "quoted: a string")
			lb := flagNamed(t, h.local, "log_backtrace_at")
			assert.Equal(t, `--log-backtrace-at: could not read its type: not shown, nor readable from its default ":0": taken as a string`, lb.unread)
			assert.Equal(t, "duration", flagNamed(t, h.local, "log_flush_frequency").param.Type)
			assert.Equal(t, []string{"kubectl", "options"}, h.globalsPage)
			u := h.usageFor([]string{"kubectl", "get"})
			require.True(t, u.runnable)
			args, unread := usageArgs(u.rest, nil)
			assert.Equal(t, `arguments: could not read "(TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...)" in the usage: they are one list, args`, unread)
			require.Len(t, args, 1)
			assert.Equal(t, "args", args[0].Name)
			assert.Equal(t, -1, args[0].Nargs)
			assert.False(t, args[0].Required)
		})
	}

	options := flagsAnywhere("The following options can be passed to any command:\n\n    --as='':\n\tUsername to impersonate for the operation.\n\n" +
		"    --as-group=[]:\n\tGroup to impersonate for the operation.\n\n    -n, --namespace='':\n\tIf present, the namespace scope for this CLI request\n")
	assert.Equal(t, []string{"as", "as_group", "namespace"}, flagNames(options))
	assert.Equal(t, "Username to impersonate for the operation.", options[0].param.Help)
	assert.Equal(t, []string{"--namespace", "-n"}, options[2].param.Opts)
}

func TestUsageArgs(t *testing.T) {
	arg := func(name string, required bool, nargs int) Param {
		return Param{Name: name, Kind: "argument", Type: "str", Required: required, Nargs: nargs}
	}
	for _, tc := range []struct {
		usage  string
		valued map[string]bool
		args   []Param
		unread string
	}{
		{"SRC [DST] [--mode MODE]… [flags]", nil, []Param{arg("src", true, 1), arg("dst", false, 1)}, ""},
		{"ID [ID...] [flags]", nil, []Param{arg("id", true, -1)}, ""},
		{"<name> [FILES]… [flags]", nil, []Param{arg("name", true, 1), arg("files", false, -1)}, ""},
		{"TOOL [--arg NAME=VALUE]… | [--args-json '{…}'] [flags]", nil, []Param{arg("tool", true, 1)}, ""},
		{"[<filename>... | -] [flags]", nil, []Param{arg("filename", false, -1)}, ""},
		{"{<name> | --all} [flags]", nil, []Param{arg("name", false, 1)}, ""},
		{"[-f] [-p] (POD | TYPE/NAME) [-c CONTAINER] [options]", nil,
			[]Param{{Name: "pod_or_type_name", Kind: "argument", Type: "str", Required: true, Nargs: 1, Help: "One of: POD | TYPE/NAME"}}, ""},
		{"-s <shell>", map[string]bool{"-s": true}, nil, ""},
		{"NAME --external-name external.name [--dry-run=server|client|none] [options]", map[string]bool{"--external-name": true}, []Param{arg("name", true, 1)}, ""},
		{"[<command>] [flags]", nil, []Param{arg("command", false, 1)}, ""},
		{"[flags]", nil, nil, ""},
		{"NAME --image=image -- [COMMAND] [args...]", nil, []Param{{Name: "args", Kind: "argument", Type: "str", Nargs: -1,
			Help: "The command's arguments, as its usage gives them: NAME --image=image -- [COMMAND] [args...]"}},
			`arguments: could not read "--" in the usage: they are one list, args`},
		{"script [flags]", nil, []Param{{Name: "args", Kind: "argument", Type: "str", Nargs: -1,
			Help: "The command's arguments, as its usage gives them: script [flags]"}},
			`arguments: could not read "script" in the usage: they are one list, args`},
	} {
		t.Run(tc.usage, func(t *testing.T) {
			words := []string{}
			if tc.usage != "" {
				words = splitWords(tc.usage)
			}
			args, unread := usageArgs(words, tc.valued)
			assert.Equal(t, tc.args, args)
			assert.Equal(t, tc.unread, unread)
		})
	}
}

func splitWords(s string) []string { return strings.Fields(s) }
