package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/spf13/cobra"
)

func newDoctorCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Say what this machine guarantees, and what to fix",
		Long: `doctor is the first thing to run when a host shows the server
"Connected" but its calls fail. It says how calls are supervised here (the
mechanism in use and the fallbacks), whether a killed server takes its
calls' process trees along, where the CLI resolves, which variables and
secrets are missing, what is broad in what the CLI is passed, and — for a
manifest with cli.health — asks the CLI itself through the same path as a
call: its version, and whether it can serve calls (its answer, judged by
cli.health.ready: for aeat, a profile that is unlocked) or the exact
refusal the model would get, with the way to fix it that works on this
machine. Then the language messages
use and why, the ceilings, and the host-facing limits worth knowing — each
problem with its fix. It exits 1 only when something is broken (the CLI, a
variable every call needs, the CLI's own health check, the runtime; a
secret only some tools read is a note), 2 when the manifest does not load.`,
		Example: `  aeat-mcp --demo doctor
  aeat-mcp --manifest ~/aeat/aeat.manifest.json doctor`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, err := opts.inspect()
			if err != nil {
				return err
			}
			r, err := callruntime.NewRunner(callruntime.Options{})
			var report *callruntime.Report
			if err == nil {
				rep := r.Mechanisms()
				report = &rep
				defer r.Close()
			}
			ctx := cmd.Context()
			cli := func(l doctorLines) error {
				store := opts.keychain()
				doctorEnv(ctx, in, opts, store, l)
				doctorProbe(ctx, in, opts, r, store, l)
				if err := stopped(ctx); err != nil {
					return err // what the probe was told, cut short, says nothing
				}
				if r != nil {
					doctorWarm(opts, in, r, l)
				}
				return nil
			}
			return doctorReport(cmd.OutOrStdout(), opts, in, report, err, cli)
		},
	}
}

// manyTools is where doctor suggests the catalog surface.
const manyTools = 40

// doctorReport prints the diagnosis; its error carries the exit code.
// cli reports what the CLI is given and what it says of itself
// (doctor_cli.go); nil leaves it out. An error from cli ends the report
// with it (doctor was stopped).
func doctorReport(w io.Writer, opts *options, in *inspected, report *callruntime.Report, runtimeErr error, cli func(doctorLines) error) error {
	broken := 0
	l := doctorLines{
		problems: func() int { return broken },
		ok:       func(format string, a ...any) { fmt.Fprintf(w, "  ok       "+format+"\n", a...) },
		note:     func(format string, a ...any) { fmt.Fprintf(w, "  note     "+format+"\n", a...) },
		problem: func(fix, format string, a ...any) {
			broken++
			fmt.Fprintf(w, "  PROBLEM  "+format+"\n           fix: %s\n", append(a, fix)...)
		},
	}
	fmt.Fprintf(w, "aeat-mcp %s on %s/%s\n\nSupervision\n", buildVersion(), runtime.GOOS, runtime.GOARCH)
	doctorSupervision(w, opts, report, runtimeErr, l)

	fmt.Fprintf(w, "\nThe CLI\n")
	if in.cfg.CLIError == nil {
		l.ok("%q resolves to %s", in.manifest.CLI.Command, in.cfg.CLIPath)
	}
	reportQuarantine(findQuarantined(runtime.GOOS, [][2]string{{"aeat-mcp", selfPath()}, {"the CLI", in.cfg.CLIPath}}, xattr), l.problem)
	if cli != nil {
		if err := cli(l); err != nil {
			return err
		}
	}

	fmt.Fprintf(w, "\nServing\n")
	doctorServing(opts, in, l)
	return doctorVerdict(w, broken)
}

// doctorSupervision reports how calls are supervised here: the tree
// tracking, each mechanism, what outlives a killed server, and the
// server's own hardening.
func doctorSupervision(w io.Writer, opts *options, report *callruntime.Report, runtimeErr error, l doctorLines) {
	if runtimeErr != nil {
		l.problem("report it, with this output: aeat-mcp cannot supervise calls on this machine", "the runtime did not start: %v", runtimeErr)
	} else {
		l.ok("a call's process tree is tracked by %s", report.Tree)
		for _, m := range report.Mechanisms {
			state := m.State()
			if state == "available" {
				state = "available, not used"
			}
			detail := ""
			if m.Detail != "" {
				detail = " — " + m.Detail
			}
			l.note("%-17s %s%s", m.Mechanism, state, detail)
		}
		doctorHostJob(w, report)
		switch {
		case report.Uses(callruntime.Lifeline), report.Uses(callruntime.JobObject):
			l.ok("a killed server (even SIGKILL) takes its calls' trees along")
		default:
			l.note("a server killed with SIGKILL may leave a running call's tree behind (no lifeline on this platform); a server that exits or is stopped does not")
		}
		for _, limit := range report.Limits {
			l.note("limit: %s", limit)
		}
	}
	switch {
	case opts.sys.hardenErr != nil:
		l.note("the server's process could not be closed to the programs it runs: %v", opts.sys.hardenErr)
	case opts.sys.hardening != "":
		l.ok("the server's process: %s", opts.sys.hardening)
	}
}

// doctorServing reports what the server will serve and how: the
// messages' language, the ceilings and tools, the surface, and the
// options that change what a host sees (detach, tasks, result cap,
// confirmation).
func doctorServing(opts *options, in *inspected, l doctorLines) {
	if line, chosen := doctorLang(opts); chosen {
		l.ok("%s", line)
	} else {
		l.note("%s", line)
	}
	c := in.cfg.Ceilings
	l.ok("ceilings: read %v, mutate %v, live %v (a tool's own timeout wins); %s served, %d hidden", c.Read, c.Mutate, c.Live, toolCount(in.Tools), len(in.Hidden))
	doctorSurface(in, l)
	if n := guessedCount(in.Tools); n > 0 {
		l.note("hints guessed for %d tools: the cautious values, not the CLI's word (aeat-mcp validate names them; generate --overrides sets them)", n)
	}
	if opts.detachAfter > 0 {
		l.ok("a call still running after %v returns a run id, collected with aeat_mcp_wait: hosts drop a call after about 60 s", opts.detachAfter)
	} else {
		l.note("--detach-after 0: long calls hold the request, and hosts drop a call after about 60 s")
	}
	if opts.tasks {
		l.ok("hosts that speak MCP Tasks (2025-11-25 tasks, the 2026-07-28 extension) get MUTATE and LIVE calls as tasks they poll; the others get detach-and-wait")
	} else {
		l.note("--tasks=false: every host gets ordinary calls, detach-and-wait for the long ones")
	}
	l.ok("results are capped at %d bytes (Claude Code refuses results over 25,000 tokens)", opts.maxResultBytes)
	if opts.confirm == "never" {
		l.note("--confirm never: destructive tools run without asking anyone")
	} else {
		l.note("destructive tools ask the person through the host; a host that cannot ask (no elicitation) gets a refusal: run with --read-only there, or --confirm never if you accept the risk")
	}
}

// doctorLang says which language messages are in and why; chosen is false
// when English is only the fallback: nothing set, a locale that names no
// language (C.UTF-8), or a language aeat-mcp does not offer (de_DE.UTF-8).
func doctorLang(opts *options) (line string, chosen bool) {
	const hint = "--lang es for Spanish"
	given, value := "--lang", opts.lang
	if value == "" {
		given, value = i18n.Source(opts.sys.lookupEnv)
	}
	if given == "" {
		for _, name := range []string{"AEAT_MCP_LANG", "LC_ALL", "LC_MESSAGES", "LANG"} {
			if v, ok := opts.sys.lookupEnv(name); ok && v != "" {
				return fmt.Sprintf("messages in English: %s=%s names no language (%s)", name, v, hint), false
			}
		}
		return "messages in English: no AEAT_MCP_LANG, LC_ALL, LC_MESSAGES or LANG is set (" + hint + ")", false
	}
	from := given + "=" + value
	if given == "--lang" {
		from = given + " " + value
	}
	if !i18n.Offered(value) {
		base, ok := i18n.Base(value)
		if !ok {
			return fmt.Sprintf("messages in English: %s names no language (%s)", from, hint), false
		}
		return fmt.Sprintf("messages in English: %s asks for %s, which aeat-mcp does not offer (%s)", from, base, i18n.OfferedList()), false
	}
	if given != "--lang" {
		from = "from " + from
	}
	return fmt.Sprintf("messages in %s (%s)", opts.printer().Tag(), from), true
}

// doctorSurface says what tools/list holds: the catalog's core and
// built-ins, or every tool with the advice to switch past a few dozen.
func doctorSurface(in *inspected, l doctorLines) {
	switch listed := len(server.Listed(in.cfg)); {
	case in.cfg.Surface == server.SurfaceCatalog && listed == 0:
		l.note("--surface catalog: tools/list holds only the built-ins (the manifest has no surface.core and --tools is not given): the model finds every tool with %s", server.ToolFind)
	case in.cfg.Surface == server.SurfaceCatalog:
		l.ok("--surface catalog: tools/list holds %d tools (surface.core) and %s/%s, which reach the other %d", listed, server.ToolFind, server.ToolCall, len(in.Tools)-listed)
	case len(in.Tools) > manyTools:
		l.note("tools/list holds all %d tools: past a few dozen, hosts slow down and models choose worse; --surface catalog (AEAT_MCP_SURFACE=catalog) lists the manifest's surface.core and finds the rest", len(in.Tools))
	}
}

// doctorVerdict ends the report: how many problems to fix (exit 1), or
// nothing to fix.
func doctorVerdict(w io.Writer, broken int) error {
	if broken > 0 {
		them := "them"
		if broken == 1 {
			them = "it"
		}
		fmt.Fprintf(w, "\n%s: fix %s, then restart the server (hosts start it once).\n", plural(broken, "problem"), them)
		return &exitError{exitFailure, nil}
	}
	fmt.Fprintf(w, "\nNothing to fix.\n")
	return nil
}
