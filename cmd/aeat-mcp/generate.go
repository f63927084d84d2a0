package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/generate"
	"github.com/spf13/cobra"
)

// walkTimeout bounds a click or cobra walk: a Python CLI may take seconds
// to import, a Cobra one runs help once per command.
const walkTimeout = 5 * time.Minute

// maxDiffLines is how many differences --check shows.
const maxDiffLines = 200

type generateOptions struct {
	from      string
	python    string
	overrides string
	facts     string
	texts     string
	core      bool
	only      []string
	output    string
	check     string
	suggest   string
}

func newGenerateCmd() *cobra.Command {
	o := &generateOptions{}
	cmd := &cobra.Command{
		Use:   "generate --from tree:FILE|click:PROGRAM|cobra:PROGRAM [--facts FILE] [--help-texts FILE] [--overrides FILE] [--core | --only NAME,…] [-o FILE | --check MANIFEST]",
		Short: "Write a manifest for every verb of a CLI, from its command tree",
		Long: `generate writes a manifest with one tool per verb of a CLI:

  tree:FILE      a command tree (the format of aeat's commands.json)
  click:PROGRAM  a Click or Typer CLI, walked from inside by a script shipped
                 in this binary, run with the CLI's own Python (the #! line of
                 its console script, or --python)
  cobra:PROGRAM  a Cobra CLI, walked from outside: PROGRAM --help, then
                 PROGRAM help SUB… for every command it lists

Hints are never weaker than the CLI's own classification where the tree has
one; elsewhere they are the cautious ones (not read-only, destructive,
open-world), marked hints_guessed, and validate names every such tool.
--facts is what is known of the CLI beyond its tree, read from its source
(the format of aeat's facts.json): which verbs reach the network, need a
login, still print a result when they exit non-zero, read a secret on
stdin, and the rules between their options. They are applied before the
overrides. --help-texts is the CLI's own help in the languages it speaks
(the format of aeat's help.json), for a tree that has none: the first
language's become titles and descriptions, and every language's goes to
each tool's cli_help, which aeat_mcp_find searches. --overrides is a manifest-shaped file of changes merged over
what was generated, by tool name or glob, or whole tools by their command
(see docs/generate.md). --core writes only the tools of the overrides'
surface.core; --only NAME,… only the tools named, in that order. The manifest goes to stdout, or -o FILE; what was left out or
changed goes to stderr.

--check MANIFEST writes nothing: it exits 1 and shows each difference when
MANIFEST is not what a fresh generation gives (CI keeps a manifest in step
with its CLI).

--suggest-overrides FILE also writes an overrides file with an entry for
each tool whose hints were guessed: the annotations its name, help and
flags (--dry-run, --yes, --force) suggest, and that evidence under a
"review" key. --overrides refuses an entry that still has one: a person
checks each against the CLI and deletes the key (docs/wrap-your-cli.md).`,
		Example: `  aeat-mcp generate --from tree:commands.json --facts facts.json --help-texts help.json --overrides aeat.overrides.json -o aeat.full.manifest.json
  aeat-mcp generate --from tree:commands.json --facts facts.json --overrides aeat.overrides.json --core -o aeat.manifest.json
  aeat-mcp generate --from click:aeat --overrides aeat.overrides.json --check aeat.full.manifest.json
  aeat-mcp generate --from cobra:kubectl -o kubectl.manifest.json --suggest-overrides kubectl.suggested.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runGenerate(cmd.Context(), o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.from, "from", "", "where the command tree comes from: tree:FILE, click:PROGRAM or cobra:PROGRAM")
	f.StringVar(&o.python, "python", "", "for click: the Python that runs the CLI (default: its console script's #! line)")
	f.StringVar(&o.overrides, "overrides", "", "a manifest-shaped file of changes merged over what is generated")
	f.StringVar(&o.facts, "facts", "", "what is known of the CLI beyond its tree (the format of aeat's facts.json), applied before the overrides")
	f.StringVar(&o.texts, "help-texts", "", "the CLI's own help in the languages it speaks (the format of aeat's help.json), for a tree without help: titles, descriptions and each tool's cli_help, which aeat_mcp_find searches")
	f.BoolVar(&o.core, "core", false, "write only the tools of the overrides' surface.core")
	f.StringSliceVar(&o.only, "only", nil, "write only these tools, in this order (repeatable, or a comma list)")
	f.StringVarP(&o.output, "output", "o", "", "write the manifest here (default: stdout)")
	f.StringVar(&o.check, "check", "", "compare this manifest with a fresh generation; exit 1 and show the difference when they differ")
	f.StringVar(&o.suggest, "suggest-overrides", "", "also write FILE: an overrides entry for each tool whose hints were guessed, with the evidence, for a person to review")
	return cmd
}

// runGenerate generates, then writes, prints or checks the manifest. Its
// errors carry the exit code: 2 for bad flags, a bad tree or overrides, a
// manifest that does not load; 1 for a walk that failed or a check that
// found differences.
func runGenerate(ctx context.Context, o *generateOptions, stdout, stderr io.Writer) error {
	src, err := generate.ParseSource(o.from)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	if err := o.conflicts(src); err != nil {
		return &exitError{exitUsage, err}
	}
	opts, err := o.inputs(src)
	if err != nil {
		return err
	}
	tree, err := walkTree(ctx, src, o.python)
	if err != nil {
		return err
	}
	res, err := generate.Generate(tree, opts)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	for _, n := range res.Notes {
		fmt.Fprintln(stderr, "note:", n)
	}
	for _, w := range res.Loaded.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	summary := generateSummary(res.Loaded)
	if o.suggest != "" {
		if err := writeSuggestions(o.suggest, res, stderr); err != nil {
			return err
		}
	}
	switch {
	case o.check != "":
		return checkManifest(o.check, res, summary, stdout)
	case o.output != "":
		if err := replaceFile(o.output, res.Manifest, 0o644); err != nil {
			return &exitError{exitFailure, err}
		}
		fmt.Fprintf(stderr, "wrote %s: %s\n", o.output, summary)
	default:
		if _, err := stdout.Write(res.Manifest); err != nil {
			return &exitError{exitFailure, err}
		}
	}
	return nil
}

// conflicts refuses the flags that cannot go together, before anything is
// read or walked.
func (o *generateOptions) conflicts(src generate.Source) error {
	switch {
	case o.output != "" && o.check != "":
		return errors.New("-o and --check: give one (--check writes nothing)")
	case o.python != "" && src.Kind != "click":
		return errors.New("--python is for --from click:PROGRAM")
	case o.suggest != "" && o.check != "":
		return errors.New("--suggest-overrides and --check: give one (--check writes nothing)")
	}
	return nil
}

// inputs reads the files the flags name (overrides, facts, help texts) and,
// for a source that is walked, the program the manifest will name; a file
// that cannot be read or parsed is a usage error.
func (o *generateOptions) inputs(src generate.Source) (generate.Options, error) {
	opts := generate.Options{OverridesName: o.overrides, Core: o.core, Only: o.only}
	var err error
	if o.overrides != "" {
		if opts.Overrides, err = os.ReadFile(o.overrides); err != nil {
			return opts, &exitError{exitUsage, err}
		}
	}
	if o.facts != "" {
		if opts.Facts, err = readParsed(o.facts, generate.ParseFacts); err != nil {
			return opts, err
		}
	}
	if o.texts != "" {
		if opts.Texts, err = readParsed(o.texts, generate.ParseTexts); err != nil {
			return opts, err
		}
	}
	if src.Walks() {
		if opts.Program, err = manifestCommand(src.Arg, firstOf(o.output, o.check)); err != nil {
			return opts, &exitError{exitUsage, err}
		}
	}
	return opts, nil
}

// readParsed reads path and parses it; either failure is a usage error, a
// parse error named by the file.
func readParsed[T any](path string, parse func([]byte) (T, error)) (T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var zero T
		return zero, &exitError{exitUsage, err}
	}
	v, err := parse(data)
	if err != nil {
		return v, &exitError{exitUsage, fmt.Errorf("%s: %w", path, err)}
	}
	return v, nil
}

// walkTree reads the source's command tree, running the program for click
// and cobra under walkTimeout. A stopped walk returns why it stopped; a
// program that could not be walked exits 1, a tree file that is bad 2.
func walkTree(ctx context.Context, src generate.Source, python string) ([]generate.Command, error) {
	walkCtx, cancel := context.WithTimeoutCause(ctx, walkTimeout, fmt.Errorf("the walk took more than %v", walkTimeout))
	defer cancel()
	tree, err := src.Tree(walkCtx, python)
	if err := stopped(ctx); err != nil {
		return nil, err // the walk was stopped, and what it ran with it
	}
	if err != nil {
		code := exitFailure // the program could not be walked
		if src.Kind == "tree" {
			code = exitUsage
		}
		return nil, &exitError{code, err}
	}
	return tree, nil
}

func checkManifest(path string, res *generate.Result, summary string, w io.Writer) error {
	onDisk, err := os.ReadFile(path)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	diffs, err := generate.Diff(onDisk, res.Manifest)
	if err != nil {
		return &exitError{exitFailure, fmt.Errorf("%s: %w", path, err)}
	}
	if len(diffs) == 0 {
		fmt.Fprintf(w, "ok: %s is what a fresh generation gives (%s)\n", path, summary)
		return nil
	}
	for i, d := range diffs {
		if i == maxDiffLines {
			fmt.Fprintf(w, "  … and %d more\n", len(diffs)-i)
			break
		}
		fmt.Fprintln(w, "  "+d)
	}
	return &exitError{exitFailure, fmt.Errorf("%s is not what a fresh generation gives (%d differences above): regenerate it with the same command and -o %s", path, len(diffs), path)}
}

// writeSuggestions writes --suggest-overrides: an entry for each tool
// whose hints were guessed, for a person to review.
func writeSuggestions(path string, res *generate.Result, stderr io.Writer) error {
	list, data := generate.Suggest(res)
	if err := replaceFile(path, data, 0o644); err != nil {
		return &exitError{exitFailure, err}
	}
	count := map[string]int{}
	for _, s := range list {
		count[s.Review.Guess]++
	}
	fmt.Fprintf(stderr, "wrote %s: %d tools to review (%d read, %d write, %d destroy, %d unknown by their words): check each entry's evidence, "+
		"keep or change its annotations, delete its review key, and put it in your overrides (--overrides)\n",
		path, len(list), count["reads"], count["writes"], count["destroys"], count["unknown"])
	return nil
}

// generateSummary counts the tools by tier and those whose hints were
// guessed.
func generateSummary(m *annotations.Manifest) string {
	s := toolCount(m.Tools)
	if guessed := guessedCount(m.Tools); guessed > 0 {
		s += fmt.Sprintf(", %d with guessed hints", guessed)
	}
	return s
}

// manifestCommand is cli.command for a walked program: a bare name stays
// bare (found next to aeat-mcp, then on PATH, when served); a path is
// written relative to the manifest's directory (the cwd for stdout), as
// the manifest reads relative paths.
func manifestCommand(program, manifest string) (string, error) {
	if !strings.ContainsAny(program, `/\`) {
		return program, nil
	}
	abs, err := filepath.Abs(program)
	if err != nil {
		return "", err
	}
	base := "."
	if manifest != "" {
		base = filepath.Dir(manifest)
	}
	baseAbs, err := filepath.Abs(base)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(baseAbs, abs)
	if err != nil {
		return filepath.ToSlash(abs), nil // another drive: only absolute works
	}
	rel = filepath.ToSlash(rel)
	if !strings.Contains(rel, "/") {
		rel = "./" + rel // a bare name would be looked up on PATH
	}
	return rel, nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
