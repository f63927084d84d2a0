package main

import (
	"fmt"
	"io"
	"path/filepath"
)

// Claude Code keeps a server in one of three scopes (claude mcp add
// --scope), and what a person sees, and must do, differs in each —
// measured with Claude Code's own CLI, pinned in interop/
// (interop/claude-code-scopes.sh runs it on every CI run):
//
//   - user: the top-level mcpServers of ~/.claude.json. Every project, no
//     question: `claude mcp list` shows the server "✔ Connected".
//   - local: mcpServers under one folder's entry in ~/.claude.json
//     (claude mcp add --scope local, run in that folder). That folder
//     only, this person only, no question.
//   - project: the project's .mcp.json, shared through its repository.
//     `claude mcp list` shows "⏸ Pending approval (run `claude` to
//     approve)" and Claude Code starts nothing until each person, in an
//     interactive claude there, trusts the folder ("Yes, I trust this
//     folder") and answers "Use this MCP server" to "New MCP server found
//     in this project: NAME". Claude Code keeps that answer in the
//     project's .claude/settings.local.json (enabledMcpjsonServers), which
//     is that person's alone.

// claudeCodeScope is the scope a file written with --file is in.
type claudeCodeScope int

const (
	// claudeUser: a .claude.json (the user's file, or CLAUDE_CONFIG_DIR's).
	claudeUser claudeCodeScope = iota
	// claudeProject: a project's .mcp.json.
	claudeProject
	// claudeOther: a file Claude Code reads only when told to.
	claudeOther
)

func claudeCodeScopeOf(file string) claudeCodeScope {
	switch filepath.Base(file) {
	case ".claude.json":
		return claudeUser
	case ".mcp.json":
		return claudeProject
	}
	return claudeOther
}

// claudeCodeNote says, for the scope file is in, what the person will see
// of the server named name in Claude Code, and what they must do.
func claudeCodeNote(file, name string) string {
	switch claudeCodeScopeOf(file) {
	case claudeUser:
		return fmt.Sprintf("This is Claude Code's user scope (the top-level mcpServers of %s): Claude Code starts %q in every project without asking — `claude mcp list` shows it \"✔ Connected\", and a claude session started from now on has its tools.", file, name)
	case claudeProject:
		dir := filepath.Dir(file)
		return fmt.Sprintf("This is Claude Code's project scope (%s, shared with everyone who has the project): Claude Code starts no server from it until each person approves it. `claude mcp list` run in %s shows %q as \"⏸ Pending approval\". To approve it, start `claude` in %s, answer \"Yes, I trust this folder\" if it asks, then \"Use this MCP server\" to \"New MCP server found in this project: %s\"; Claude Code keeps that answer in %s, for you alone — everyone else is asked in turn. For yourself, with no question: config claude-code --write without --file (every project), or claude mcp add --scope local in that folder.",
			file, dir, name, dir, name, filepath.Join(dir, ".claude", "settings.local.json"))
	}
	return fmt.Sprintf("Claude Code does not read %s by itself (it reads ~/.claude.json — config claude-code --write without --file — and a project's .mcp.json): start it with `claude --mcp-config %s` to use it.", file, file)
}

// claudeCodeCommands prints, with the snippet, the claude mcp add command
// lines for the scopes and what each shows.
func claudeCodeCommands(w io.Writer, name string, entry serverEntry) {
	add := func(scope string) string {
		cmdline := append([]string{"claude", "mcp", "add", "--scope", scope, name}, envFlags(entry.Env)...)
		return shellQuote(append(append(cmdline, "--", entry.Command), entry.Args...))
	}
	fmt.Fprintf(w, "or run, for every project (the user scope, as --write does):\n\n  %s\n\n", add("user"))
	fmt.Fprintf(w, "or, in one project folder, for yourself only (the local scope):\n\n  %s\n\n", add("local"))
	fmt.Fprintf(w, "What Claude Code shows in `claude mcp list`, per scope:\n")
	fmt.Fprintf(w, "  user     every project, you alone: \"✔ Connected\", no question\n")
	fmt.Fprintf(w, "  local    that folder, you alone: \"✔ Connected\", no question\n")
	fmt.Fprintf(w, "  project  the project's .mcp.json (config claude-code --file .mcp.json --write), everyone who has it:\n")
	fmt.Fprintf(w, "           \"⏸ Pending approval\" until each person starts claude there and answers \"Use this MCP server\"\n\n")
}
