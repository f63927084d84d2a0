// Command aeat-mcp is a stdio MCP server that puts a command-line program —
// first of all aeat, the CLI for the AEAT sede — in front of an AI assistant
// safely: one tool per verb of its manifest, every call supervised.
//
// With no subcommand it serves MCP on stdin/stdout, which is what MCP hosts
// (Claude Desktop, Claude Code, Cursor, VS Code) spawn. See the README and docs/.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/aeat-mcp/aeat-mcp/internal/demo"
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

// Error is "" for an exit code with nothing more to say (a call whose error
// result was already printed).
func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

// parentAtStart is the pid of the process that started this one, read
// before anything else: a host that dies while the server starts re-parents
// it, and a parent read later would be the new one (server.Config.Parent).
var parentAtStart int

func main() {
	parentAtStart = os.Getppid()
	if demo.IsDemoCLI(os.Args[1:]) {
		demo.Run() // the built-in demo's fake CLI is this binary
	}
	hardening, hardenErr = harden() // before anything it runs can look (harden.go)
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command line — args without the program's name, its
// three streams — and its exit code: what main does, and what tests call.
// serve and call stop on SIGTERM and Ctrl-C themselves, each its own way.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.Error() != "" {
			fmt.Fprintln(stderr, "aeat-mcp:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "aeat-mcp:", err)
	return exitUsage
}
