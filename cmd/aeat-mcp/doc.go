// Command aeat-mcp is a stdio MCP server that puts a command-line program —
// first of all aeat, the CLI for the AEAT sede — in front of an AI assistant
// safely: one tool per verb of its manifest, every call supervised.
//
// With no subcommand it serves MCP on stdin/stdout, which is what MCP hosts
// (Claude Desktop, Claude Code, Cursor, VS Code) spawn. See the README and docs/.
//
// # Where to look
//
//   - main.go: the process — the real [system] built once, the one
//     signal.NotifyContext (a stop ends the context every command runs
//     under), [run] (the command line and its exit code, what tests call),
//     the exit codes.
//   - system.go: [system], what a command takes from the process and the
//     machine (streams, environment, parent, keychain, hardening); tests
//     build their own.
//   - root.go: the command tree, and serveAlone: a command line that can
//     only serve is parsed and served without it; options.go: the common flags, their
//     environment twins and checks — flag parsing only.
//   - compose.go: the composition root — the logger, the manifest through
//     its cache, the runner, the keychain, the warm pool and the server,
//     wired into the stack serve and call stand on; inspect.go: the same
//     configuration, looked at without serving (tools, validate, doctor).
//   - one file per command (serve.go, call.go, tools.go, validate.go,
//     doctor.go, config.go, secret.go, generate.go, warm_record.go,
//     completion.go, version.go), with its helpers beside it (doctor_*.go,
//     hostconfig*.go, secret_*.go).
package main
