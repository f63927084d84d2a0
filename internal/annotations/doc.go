// Package annotations turns a manifest v1 — the list of a CLI's verbs with
// their MCP annotations — into the tools a server advertises and what each
// call runs. It knows nothing of processes or MCP transports.
//
// # The contract
//
// [Load] and [Parse] read a manifest and reject, all at once, every problem
// they find: unknown keys (typos must not be silently ignored), duplicate or
// malformed tool names, missing or non-boolean hints (MCP's defaults are
// destructive and open-world, so all four must be explicit), readOnlyHint
// with destructiveHint, params with both or neither of flag/positional, a
// positional array that is not last, bad durations, bad regular expressions,
// defaults and enums that break their own rules, titles, descriptions and
// hints that hold a terminal control sequence or an invisible character
// (package cleantext's rule: hosts print them, models read them), and the
// rules between the keys v1 gained for the real aeat (a confirm flag a
// param could give, a stdin param on the command line, requires naming
// nothing). Each [Problem] names
// the file, the tool and the field; a JSON syntax error gives line and
// column. Names longer than [NameBudget] only warn. The parser lives in
// parse.go and parse_param.go, and reads the manifest decoded once into
// plain values (parse_json.go): a 300-tool manifest loads in a small
// multiple of one JSON decode. The keys that say what the real CLI means
// (docs/manifest.md, "`cli`"): [ErrorOutput] pointers into its error
// document, [ErrorCode] entries keyed on its codes, [OKWithStdout],
// [KeychainVar] and a stdin keychain secret, [Health] — in meaning.go.
//
// # One home per param type
//
// types.go holds, for each param type, how one value is checked (in words a
// model can act on, numbers exact), written on the command line, shown in
// the input schema, and parsed from a person's text ([Param.Parse], for
// call --arg). An array delegates each element to its item type. The input
// schema is encoded once, at load ([Tool.InputSchemaJSON]); the
// jsonschema.Schema of [Tool.InputSchema] is built only when asked for, and
// a test holds the two to one meaning.
//
// # A call
//
// [Tool.Validate] checks a call's arguments once, param by param, each
// refusal naming the field; it does not run the JSON Schema the host was
// told, but says the same thing (requires is dependentRequired there), and
// FuzzValidateAgrees holds the two to one meaning. It returns [Args] with
// defaults applied. [Tool.Render] trusts Args and builds the
// [Invocation] exactly as docs/manifest.md says ("How a call becomes an argv"):
//
//	argv = cli.args ++ globals ++ tool.command ++ flags ++ ["--"] ++ positionals
//
// "--flag=value" as one token, globals (cli.params, params marked global)
// before the verb, booleans as the flag, the negate flag or nothing, arrays
// as the flag repeated, params order (never map order), the confirm flag
// only when the caller says a person confirmed, "--" only before a first
// positional, NUL bytes rejected, a stdin param never in argv. The
// Invocation also carries the argv as a person may see it (sensitive
// values masked). No shell, anywhere.
//
// [Tool.Tier] derives the timeout tier from the hints: open-world is LIVE,
// read-only is READ, anything else MUTATE; a tool's own timeout replaces
// its tier's ceiling ([Tool.Ceiling]). [Selection] is --tools. [Manifest.SetGlobal] makes a
// value the default of a shared param in every tool (--global), checked once.
//
// [Manifest.ResolveCommand] finds the CLI: absolute, relative to the
// manifest, or a bare name next to the running binary and then on PATH. It
// does not fail the load: a server still starts and explains on each call.
//
// schema/manifest.v1.schema.json in the repository is the same contract for
// editors; a test keeps the two in step, and another checks
// examples/aeat.manifest.json against the real aeat's command tree.
package annotations
