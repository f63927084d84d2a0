//go:build !linux && !windows

package main

// harden does nothing on macOS: there is no /proc, and another process
// reaches a process's descriptors or memory only through its task port
// (task_for_pid), which the system gives only to root or to a debugger
// signed with the get-task-allow entitlement for a target that allows it
// — not to a CLI of the same user. ptrace(PT_DENY_ATTACH) is not the same
// thing: it refuses a debugger's attach (and kills the process if one
// tries), which a CLI does not need to reach the pipes, and it would stop
// a person debugging the server.
func harden() (string, error) { return "", nil }
