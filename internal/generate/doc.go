// Package generate writes a manifest v1 — one tool per verb — from a
// CLI's command tree, for `aeat-mcp generate`. The manifest it writes is a
// plain v1 manifest: [annotations.Load] reads it like any other, and
// [Generate] refuses to return one that does not load.
//
// It never runs a verb of the CLI and knows nothing of MCP. It does not
// write descriptions a model needs where the CLI has no help text, nor
// decide what a verb really does where the CLI does not say: those come
// from the overrides, which a person writes and the generation keeps
// ([Suggest] proposes them, with its evidence, for that person to check).
//
// Every run of the CLI a walk makes (a help page, a completion answer, the
// click walk) is a step (step.go) that runs as a call does, under
// package callruntime: no shell, stdin the null device, a ceiling, output
// captured within a bound, a memory ceiling, its whole process tree killed
// when it ends. Help texts are cleaned of what is not text (package
// cleantext) before they become titles and descriptions.
//
// # Where a tree comes from
//
//   - tree:FILE — [ParseTree] reads the format of the real aeat's
//     commands.json (a JSON list of commands: path, hidden, deprecated,
//     params, classification; ../shared/aeat-cli/README.md documents the
//     fields). [Command] lists the optional fields this package adds: a
//     root entry (empty path, group) whose params are the CLI's global
//     options and whose program names it, group entries, help texts.
//   - click:PROGRAM — [WalkClick] runs click_walk.py (embedded) with the
//     CLI's own Python, from its console script's #! line ([Shebang]) or
//     --python. The script runs the console script with Click's entry
//     points patched, so the first command the CLI starts is walked, not
//     run. Typer 0.27 ships its own copy of Click (typer._click), so both
//     are patched, and everything is read by what it has, not its class:
//     groups are what has list_commands and get_command (get_command loads
//     lazy ones), a param's kind is its param_type_name.
//   - cobra:PROGRAM — [WalkCobra] takes the commands from Cobra's
//     completion protocol (`PROGRAM __complete …`, cobra_complete.go) and
//     what each takes from its help page (`PROGRAM --help`, `PROGRAM help
//     SUB…`), read by a tolerant reader of every template (cobra_help.go:
//     Cobra's own, gh's, kubectl's): flags with their types, defaults and
//     shorthands, the positional arguments from the usage line. What it
//     could not read is said per command (Command.Unread). The CLI is not
//     changed or linked.
//
// # From a tree to tools
//
// mapParam (params.go) is the mapping of one option or argument, and
// paramTypes (types.go) of one type name: option → flag, --x/--no-x →
// boolean with negate, choices → enum, ranges → bounds, repeatable → array,
// positionals in order, required, the CLI's defaults where they are values
// of the param, the CLI's own --yes → confirm.flag (a person's yes). Names
// come from the path (names.go): unique, within [NameMax].
//
// Hints (hints.go) are never weaker than the CLI's classification where
// the tree has one; elsewhere the cautious ones, marked hints_guessed so
// that the loader warns, naming each such tool.
//
// # Overrides, output, --check
//
// Overrides (overrides.go) are merged as JSON (RFC 7396, params matched by
// name), so every manifest key — those added after this package too — can
// be set without a change here; one naming a tool or param that does not
// exist is an error. [Encode] writes canonical JSON (fixed key order,
// sorted tools): the same inputs give the same bytes. [Diff] compares a
// manifest with a fresh generation by meaning, for --check.
package generate
