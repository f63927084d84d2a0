package generate

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// Source is where a command tree comes from: --from KIND:ARG.
type Source struct {
	// Kind is "tree", "click" or "cobra".
	Kind string
	// Arg is the tree file, or the program to walk.
	Arg string
}

// sourceKinds are the kinds of source, each with what it reads.
var sourceKinds = table[string]{
	{"tree", "a command tree file (the format of aeat's commands.json)"},
	{"click", "a Click or Typer program, walked from inside with its own Python"},
	{"cobra", "a Cobra program, walked from outside through its help"},
}

// ParseSource reads --from: tree:FILE, click:PROGRAM or cobra:PROGRAM.
func ParseSource(s string) (Source, error) {
	kind, arg, ok := strings.Cut(s, ":")
	if _, known := sourceKinds.get(kind); !ok || !known || arg == "" {
		return Source{}, fmt.Errorf("--from %q: give tree:FILE (%s), click:PROGRAM (%s) or cobra:PROGRAM (%s)",
			s, sourceKinds.must("tree"), sourceKinds.must("click"), sourceKinds.must("cobra"))
	}
	return Source{Kind: kind, Arg: arg}, nil
}

// Walks reports whether the source is a program that is run (click,
// cobra), whose name is then the manifest's cli.command.
func (s Source) Walks() bool { return s.Kind != "tree" }

// Tree reads or walks the source's command tree. python, for click, is
// the interpreter to use instead of the program's #! line.
func (s Source) Tree(ctx context.Context, python string) ([]Command, error) {
	switch s.Kind {
	case "click":
		return WalkClick(ctx, s.Arg, python)
	case "cobra":
		return WalkCobra(ctx, s.Arg)
	}
	data, err := os.ReadFile(s.Arg)
	if err != nil {
		return nil, err
	}
	tree, err := ParseTree(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Arg, err)
	}
	return tree, nil
}
