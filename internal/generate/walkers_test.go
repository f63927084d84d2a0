//go:build !windows

package generate

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func byPath(tree []Command) map[string]Command {
	out := map[string]Command{}
	for _, c := range tree {
		out[strings.Join(c.Path, " ")] = c
	}
	return out
}

func paramOf(t *testing.T, c Command, name string) Param {
	t.Helper()
	i := slices.IndexFunc(c.Params, func(p Param) bool { return p.Name == name })
	require.GreaterOrEqual(t, i, 0, "%v has no param %s", c.Path, name)
	return c.Params[i]
}

func walkCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// TestWalkClick walks testdata/clickcli from inside, with its own Python
// found on its console script's #! line.
func TestWalkClick(t *testing.T) {
	python := clickPython(t)
	dir := t.TempDir()
	script := clickScript(t, dir, python, "shebang")
	tree, err := WalkClick(walkCtx(t), script, "")
	require.NoError(t, err)
	cmds := byPath(tree)
	paths := slices.Sorted(maps.Keys(cmds))
	assert.Equal(t, []string{"", "book dump", "book legacy", "book list", "book remove", "book tag", "greet", "login",
		"remote status", "remote sync", "reports monthly"}, paths,
		"every verb: the lazily loaded group's, and the one under a group that is not a click.Group")

	out, err := exec.Command(python, "-B", "-c", "import sys; sys.path.insert(0, "+strconv.Quote(filepath.Join(dir, "lib"))+"); import click, clickdemo; "+
		"r = clickdemo.cli.commands['remote']; print(isinstance(r, click.Group), isinstance(r, click.Command)); "+
		"print('clickdemo.lazy_reports' in sys.modules)").Output()
	require.NoError(t, err)
	assert.Equal(t, "False True\nFalse\n", string(out), "remote is a Command but no Group; reports' module is not imported until asked")

	root := cmds[""]
	assert.True(t, root.Group)
	assert.Equal(t, "clickdemo", root.Program)
	assert.Equal(t, []string{"text", "json"}, paramOf(t, root, "fmt").Choices)
	v := paramOf(t, root, "version")
	assert.True(t, v.Eager)
	require.NotNil(t, v.ExposeValue)
	assert.False(t, *v.ExposeValue)

	greet := cmds["greet"]
	assert.Equal(t, "Greet someone. Prints the greeting as JSON.\n\n\b\nThe greeting is repeated COUNT times.\n\f\nInternal notes that help does not show.", greet.Help)
	c := paramOf(t, greet, "count")
	assert.Equal(t, "int range", c.Type)
	assert.Equal(t, "1", c.Min.String())
	assert.Equal(t, "5", c.Max.String())
	assert.Equal(t, []string{"--no-shout"}, paramOf(t, greet, "shout").Secondary)
	assert.True(t, paramOf(t, greet, "tag").Multiple)
	assert.Equal(t, "argument", paramOf(t, greet, "name").Kind)

	list := cmds["book list"]
	assert.True(t, paramOf(t, list, "limit").MinOpen)
	assert.Equal(t, "float range", paramOf(t, list, "ratio").Type)
	assert.Equal(t, "datetime", paramOf(t, list, "since").Type)
	yes := paramOf(t, cmds["book remove"], "yes")
	assert.True(t, yes.Prompt && yes.IsFlag)
	assert.Equal(t, -1, paramOf(t, cmds["book tag"], "tags").Nargs)
	assert.True(t, cmds["book dump"].Hidden)
	assert.True(t, cmds["book legacy"].Deprecated)
	pw := paramOf(t, cmds["login"], "password")
	assert.True(t, pw.Prompt && pw.HideInput)
	assert.Equal(t, "The month's report.", cmds["reports monthly"].Help)

	res, err := Generate(tree, Options{})
	require.NoError(t, err)
	var names []string
	for _, tl := range res.Loaded.Tools {
		names = append(names, tl.Name)
	}
	assert.Equal(t, []string{"book_list", "book_remove", "book_tag", "greet", "login", "remote_status", "remote_sync", "reports_monthly"}, names)
	_, err = os.Stat(filepath.Join(dir, "lib", "clickdemo", "__pycache__"))
	assert.True(t, os.IsNotExist(err), "the walk writes no .pyc into the CLI's files")
}

// TestWalkClick_Interpreters: pip's /bin/sh trampoline (an interpreter
// path too long for #!), and --python for a script without #!.
func TestWalkClick_Interpreters(t *testing.T) {
	python := clickPython(t)
	for _, form := range []string{"trampoline", "none"} {
		t.Run(form, func(t *testing.T) {
			script := clickScript(t, t.TempDir(), python, form)
			arg := ""
			if form == "none" {
				_, err := WalkClick(walkCtx(t), script, "")
				require.ErrorContains(t, err, "no #! line naming its Python")
				assert.ErrorContains(t, err, "pass --python")
				arg = python
			}
			tree, err := WalkClick(walkCtx(t), script, arg)
			require.NoError(t, err)
			assert.Contains(t, byPath(tree), "reports monthly")
		})
	}
}

// TestWalkClick_Typer027: Typer 0.27 ships its own copy of Click
// (typer._click) and no longer depends on Click: its commands are no
// click.Command and its groups no click.Group. testdata/typer027 is a
// stand-in with that shape (Typer is not installable here), run with a
// Python that has no click at all, and put on sys.path by the console
// script itself, as a zipapp or a vendoring CLI would.
func TestWalkClick_Typer027(t *testing.T) {
	python := clickPython(t)
	dir := t.TempDir()
	lib, err := filepath.Abs("testdata/typer027")
	require.NoError(t, err)
	noClick := filepath.Join(dir, "python-without-click")
	require.NoError(t, os.WriteFile(noClick, []byte("#!/bin/sh\nexec "+python+" -S \"$@\"\n"), 0o755))
	script := filepath.Join(dir, "typerdemo")
	require.NoError(t, os.WriteFile(script, []byte("#!"+noClick+"\nimport sys; sys.path.insert(0, "+strconv.Quote(lib)+")\nfrom typerdemo import main\nmain()\n"), 0o755))
	out, err := exec.Command(noClick, "-B", "-c", "import click").CombinedOutput()
	require.Error(t, err, "this Python must have no click: %s", out)

	tree, err := WalkClick(walkCtx(t), script, noClick)
	require.NoError(t, err)
	cmds := byPath(tree)
	assert.Len(t, cmds, 3)
	assert.Equal(t, "typerdemo", cmds[""].Program)
	push := cmds["remote push"]
	assert.Equal(t, "Push the notes", push.ShortHelp)
	assert.Equal(t, "option", paramOf(t, push, "branch").Kind, "the kind from param_type_name, not from click.Option")
	assert.Equal(t, "argument", paramOf(t, push, "remote").Kind)
	assert.Equal(t, "int range", paramOf(t, push, "retries").Type, "the type from its classes' names")
	assert.Equal(t, []string{"fast", "safe"}, paramOf(t, push, "mode").Choices)
	assert.Contains(t, cmds, "remote status")
	res, err := Generate(tree, Options{})
	require.NoError(t, err)
	assert.Len(t, res.Loaded.Tools, 2)
}

func TestWalkClick_Errors(t *testing.T) {
	python := clickPython(t)
	dir := t.TempDir()
	notClick := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(notClick, []byte("#!"+python+"\nprint('hello')\n"), 0o755))
	_, err := WalkClick(walkCtx(t), notClick, "")
	assert.ErrorContains(t, err, "ran to its end without starting a command of click: is it a Click or Typer CLI?")

	noClick := filepath.Join(dir, "python-without-click")
	require.NoError(t, os.WriteFile(noClick, []byte("#!/bin/sh\nexec "+python+" -S \"$@\"\n"), 0o755))
	_, err = WalkClick(walkCtx(t), clickScript(t, dir, python, "shebang"), noClick)
	assert.ErrorContains(t, err, "this Python imported neither click nor typer")

	_, err = WalkClick(walkCtx(t), "no-such-program-here", "")
	assert.ErrorContains(t, err, "program no-such-program-here: CLI unavailable")
}

// TestWalkCobra walks testdata/cobracli: its commands from the completion
// protocol, what each takes from its help page.
func TestWalkCobra(t *testing.T) {
	tree, err := WalkCobra(walkCtx(t), cobraCLI(t))
	require.NoError(t, err)
	cmds := byPath(tree)
	paths := slices.Sorted(maps.Keys(cmds))
	assert.Equal(t, []string{"", "add", "docs", "label", "list", "remote status", "remote sync", "remove"}, paths,
		"hidden commands, aliases (rm), cobra's help and its completion command are not listed")

	root := cmds[""]
	assert.Equal(t, "cobracli", root.Program)
	var globals []string
	for _, p := range root.Params {
		globals = append(globals, p.Name)
	}
	assert.Equal(t, []string{"format", "profile", "verbose"}, globals, "the root's inherited flags; --local-only is the root's alone")
	assert.Equal(t, []string{"Cobra's own completion command (a script for a shell) is left out"}, root.Unread)

	add := cmds["add"]
	assert.Equal(t, "Add a note", add.ShortHelp)
	assert.Equal(t, "Add a note to the book.\n\nPrints the note as JSON.", add.Help)
	assert.True(t, paramOf(t, add, "tag").Multiple)
	assert.Equal(t, []string{"--tag", "-t"}, paramOf(t, add, "tag").Opts)
	assert.True(t, paramOf(t, add, "pin").IsFlag)
	notify := paramOf(t, add, "notify")
	assert.False(t, notify.IsFlag, "on by default: it takes --notify=false")
	assert.Equal(t, "true", notify.Default)
	assert.Equal(t, "duration", paramOf(t, add, "remind").Type)
	assert.Equal(t, "3", paramOf(t, add, "priority").Default.(interface{ String() string }).String())
	assert.False(t, slices.ContainsFunc(add.Params, func(p Param) bool { return p.Name == "color" }), "a deprecated flag is left out")
	title := paramOf(t, add, "title")
	assert.True(t, title.Required)
	assert.Equal(t, "argument", title.Kind)
	assert.Empty(t, add.Unread)
	assert.Equal(t, -1, paramOf(t, cmds["remove"], "id").Nargs)
	assert.False(t, slices.ContainsFunc(cmds["list"].Params, func(p Param) bool { return p.Name == "debug_sql" }), "a hidden flag is left out")
	sync := cmds["remote sync"]
	assert.Equal(t, "https://book.invalid", paramOf(t, sync, "url").Default, "a group's persistent flag is the verb's own")
	assert.False(t, paramOf(t, sync, "name").Required)

	label := cmds["label"]
	name := paramOf(t, label, "name")
	assert.True(t, name.Required, "completion lists only the required flags when there are any")
	assert.Equal(t, []string{"--name", "-n"}, name.Opts)
	assert.False(t, paramOf(t, label, "all").Required)
	id := paramOf(t, label, "id")
	assert.False(t, id.Required, "{<id> | --all}: --all stands for it")

	res, err := Generate(tree, Options{})
	require.NoError(t, err)
	assert.Equal(t, "--yes", tool(t, res, "remove").Confirm.Flag)

	_, err = WalkCobra(walkCtx(t), "/bin/echo")
	assert.ErrorContains(t, err, `echo --help printed no usage (a "Usage:" or "USAGE" section): is echo a Cobra CLI? For a Click or Typer CLI give --from click:/bin/echo; for any other, write its command tree and give --from tree:FILE`)
}

// TestWalk_SingleCommand: a CLI of one command is its one verb, named
// after the program — and Cobra's root is asked with --help, never
// `help`, which a single-command CLI would run as its argument.
func TestWalk_SingleCommand(t *testing.T) {
	t.Run("cobra", func(t *testing.T) {
		tree, err := WalkCobra(walkCtx(t), testProgram(t, "cobrasingle"))
		require.NoError(t, err)
		require.Len(t, tree, 1)
		assert.Equal(t, []string{}, tree[0].Path)
		assert.False(t, tree[0].Group)
		res, err := Generate(tree, Options{})
		require.NoError(t, err)
		tl := tool(t, res, "cobrasingle")
		assert.Empty(t, tl.Command)
		assert.Equal(t, "Count the lines of a file", tl.Title)
		var names []string
		for _, p := range tl.Params() {
			names = append(names, p.Name)
		}
		assert.Equal(t, []string{"max", "file"}, names, "Cobra's own --help and --version left out")
	})
	t.Run("click", func(t *testing.T) {
		python := clickPython(t)
		script := filepath.Join(t.TempDir(), "count-lines")
		require.NoError(t, os.WriteFile(script, []byte("#!"+python+`
import click

@click.command()
@click.argument("file")
@click.option("--max", type=int, default=100)
def main(file, max):
    """Count the lines of a file."""
    print(file, max)

main()
`), 0o755))
		tree, err := WalkClick(walkCtx(t), script, "")
		require.NoError(t, err)
		res, err := Generate(tree, Options{})
		require.NoError(t, err)
		tl := tool(t, res, "count_lines")
		assert.Empty(t, tl.Command)
		assert.Equal(t, "count-lines", res.Loaded.CLI.Command)
		assert.Equal(t, "Count the lines of a file", tl.Title)
	})
}

// TestWalkCobra_NoCompletion: a program that prints Cobra's help but does
// not answer its completion protocol (a Cobra before 1.0, a look-alike) is
// walked through its help pages alone, and the walk says so.
func TestWalkCobra_NoCompletion(t *testing.T) {
	dir := t.TempDir()
	pages := map[string]string{
		"root":   "Notes, old style.\n\nUsage:\n  old [command]\n\nAvailable Commands:\n  add         Add a note\n  help        Help about any command\n  remote      The remote book\n\nFlags:\n  -h, --help             help for old\n      --profile string   run as this profile\n\nUse \"old [command] --help\" for more.\n",
		"add":    "Add a note.\n\nUsage:\n  old add TITLE [flags]\n\nFlags:\n      --priority int   priority (default 3)\n\nGlobal Flags:\n      --profile string   run as this profile\n",
		"remote": "The remote book.\n\nUsage:\n  old remote [command]\n\nAvailable Commands:\n  sync        Sync with the remote\n",
		"sync":   "Sync with the remote.\n\nUsage:\n  old remote sync [NAME] [flags]\n\nGlobal Flags:\n      --profile string   run as this profile\n",
	}
	for name, page := range pages {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644))
	}
	prog := filepath.Join(dir, "old")
	require.NoError(t, os.WriteFile(prog, []byte(`#!/bin/sh
case "$*" in
"--help") cat `+dir+`/root ;;
"help add") cat `+dir+`/add ;;
"help remote") cat `+dir+`/remote ;;
"help remote sync") cat `+dir+`/sync ;;
*) echo "Error: unknown command \"$1\" for \"old\"" >&2; exit 1 ;;
esac
`), 0o755))
	tree, err := WalkCobra(walkCtx(t), prog)
	require.NoError(t, err)
	cmds := byPath(tree)
	paths := slices.Sorted(maps.Keys(cmds))
	assert.Equal(t, []string{"", "add", "remote sync"}, paths, "the commands its pages list")
	assert.Equal(t, []string{"could not read the commands from Cobra's completion protocol: old does not answer old __complete \"\": " +
		"its commands and flags are read from its help pages alone, where a hidden command looks like any other"}, cmds[""].Unread)
	assert.Equal(t, "profile", cmds[""].Params[0].Name, "--profile is inherited: a global")
	assert.Equal(t, "priority", cmds["add"].Params[0].Name)
	assert.True(t, paramOf(t, cmds["add"], "title").Required)
	assert.False(t, paramOf(t, cmds["remote sync"], "name").Required)
}
