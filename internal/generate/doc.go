// Package generate writes a manifest v1 for every verb of a CLI, from its
// command tree: a tree file, a Click/Typer program walked from inside by
// its own Python, or a Cobra program walked from outside through its help.
package generate
