// Package annotations turns a manifest v1 — the list of a CLI's verbs with
// their MCP annotations — into the tools a server advertises and the argv
// each call runs. It knows nothing of processes or MCP transports.
//
// # The contract
//
// [Load] and [Parse] read a manifest and reject, all at once, every problem
// they find: unknown keys (typos must not be silently ignored), duplicate or
// malformed tool names, missing or non-boolean hints (MCP's defaults are
// destructive and open-world, so all four must be explicit), readOnlyHint
// with destructiveHint, params with both or neither of flag/positional, a
// positional array that is not last, bad durations, bad regular expressions,
// defaults and enums that break their own rules. Each [Problem] names the
// file, the tool and the field; a JSON syntax error gives line and column.
// Names longer than [NameBudget] only warn.
//
// [Tool.Tier] derives the timeout tier from the hints: open-world is LIVE,
// read-only is READ, anything else MUTATE; a tool's own timeout replaces
// its tier's ceiling ([Tool.Ceiling]).
//
// [Tool.InputSchema] is the generated JSON Schema (type object,
// additionalProperties false, required as declared), resolved once with
// github.com/google/jsonschema-go. [Tool.Validate] rejects whatever the
// schema rejects with a [*ValidationError] naming the field, and applies
// defaults.
//
// [Tool.Render] builds the argv exactly as DESIGN.md §4 says:
//
//	argv = cli.args ++ tool.command ++ flags ++ ["--"] ++ positionals
//
// "--flag=value" as one token, booleans as the flag, the negate flag or
// nothing, arrays as the flag repeated, params order (never map order), "--"
// only before a first positional, NUL bytes rejected. No shell, anywhere.
//
// [Manifest.ResolveCommand] finds the CLI: absolute, relative to the
// manifest, or a bare name next to the running binary and then on PATH. It
// does not fail the load: a server still starts and explains on each call.
//
// schema/manifest.v1.schema.json in the repository is the same contract for
// editors; a test keeps the two in step.
package annotations
