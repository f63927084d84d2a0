// Command aeat-mcp is a stdio MCP server that puts a command-line program —
// first of all aeat, the CLI for the AEAT sede — in front of an AI assistant
// safely: one tool per verb of its manifest, every call supervised.
//
// With no subcommand it serves MCP on stdin/stdout, which is what MCP hosts
// (Claude Desktop, Claude Code, Cursor, VS Code) spawn. See the README.
package main

import (
	"errors"
	"fmt"
	"os"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1 // a call failed (call) or a command could not do its job
	exitUsage   = 2 // bad flags, or a manifest that does not load
)

// exitError carries an exit code out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	root := newRootCmd()
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(os.Stderr, "aeat-mcp:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(os.Stderr, "aeat-mcp:", err)
	return exitUsage
}
