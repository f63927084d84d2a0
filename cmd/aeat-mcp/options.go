package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/keychain"
	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/spf13/pflag"
)

// options are the common flags of every command (docs/commands.md, "Flags"). Each has an
// AEAT_MCP_* environment twin, for hosts whose config sets env more easily
// than args.
type options struct {
	// firstCall, set by serve, is server.Config.FirstCall.
	firstCall func()
	// holdLogs, set by serve, holds the log's records until the host has
	// its answer to initialize (logqueue.go).
	holdLogs       bool
	manifest       string
	demo           bool
	cli            string
	lang           string
	timeoutRead    time.Duration
	timeoutMutate  time.Duration
	timeoutLive    time.Duration
	timeoutTool    []string
	killGrace      time.Duration
	drain          time.Duration
	detachAfter    time.Duration
	keepResults    time.Duration
	dedupe         bool
	tasks          bool
	askToExtend    bool
	warm           bool
	maxResultBytes int
	maxQueued      int
	maxMemoryMiB   int64
	passEnv        []string
	readOnly       bool
	tools          []string
	selection      annotations.Selection
	surface        string
	confirm        string
	logLevel       string
	logFormat      string
	logFile        string
	globals        []string
	// envGlobals are the AEAT_MCP_GLOBAL_<NAME> values the manifest took
	// ("name=value"), for config to write as --global.
	envGlobals []string
	// bundleLangNote is why AEAT_MCP_BUNDLE_LANG was left out; "" when it
	// was used or not set (bundlelang.go).
	bundleLangNote string
	// toolTimeouts are --timeout-tool's values, read by check.
	toolTimeouts []toolTimeout
	// sys is the system the command runs on (newRootCmd).
	sys *system
}

// snapshot is the system's environment, for what takes the environment as
// a function.
func (o *options) snapshot() []string { return o.sys.environ }

// keychain is the system's keychain, reached as its environment says.
func (o *options) keychain() keychain.Store { return o.sys.keychain(o.sys.environ) }

// register declares the flags; goos picks the defaults that differ per
// OS (warm start is off by default on macOS: warm.DefaultOn).
func (o *options) register(fs *pflag.FlagSet, goos string) {
	fs.StringVar(&o.manifest, "manifest", "", "the manifest file")
	fs.BoolVar(&o.demo, "demo", false, "serve the built-in demo CLI and manifest (no other set-up needed)")
	fs.StringVar(&o.cli, "cli", "", "path of the CLI, overriding the manifest's cli.command")
	fs.StringVar(&o.lang, "lang", "", "language of messages: "+i18n.OfferedList()+" (default from AEAT_MCP_LANG, LC_ALL, LC_MESSAGES, LANG)")
	fs.DurationVar(&o.timeoutRead, "timeout-read", annotations.DefaultReadTimeout, "ceiling of READ tools (local reads)")
	fs.DurationVar(&o.timeoutMutate, "timeout-mutate", annotations.DefaultMutateTimeout, "ceiling of MUTATE tools (local changes)")
	fs.DurationVar(&o.timeoutLive, "timeout-live", annotations.DefaultLiveTimeout, "ceiling of LIVE tools (the portal, a browser)")
	fs.StringArrayVar(&o.timeoutTool, "timeout-tool", nil, "NAME=DURATION: the ceiling of the tools NAME (a glob) matches, over the manifest's own timeout and the tier's (repeatable; AEAT_MCP_TIMEOUT_TOOL takes a comma list)")
	fs.DurationVar(&o.killGrace, "kill-grace", callruntime.DefaultKillGrace, "time between SIGTERM and SIGKILL when a call is stopped")
	fs.DurationVar(&o.drain, "drain", server.DefaultDrain, "when the host closes stdin, how long calls already read may still run before they are stopped")
	fs.DurationVar(&o.detachAfter, "detach-after", server.DefaultDetachAfter, "a call still running after this returns its run id, and aeat_mcp_wait collects it (0: never; hosts drop calls after about 60 s)")
	fs.DurationVar(&o.keepResults, "keep-results", runs.DefaultKeep, "how long a finished run's result is kept for aeat_mcp_wait")
	fs.BoolVar(&o.askToExtend, "ask-to-extend", true, "at a run's ceiling, ask the person (where the host can) whether it may have as long again, once")
	fs.BoolVar(&o.dedupe, "dedupe", true, "a MUTATE or LIVE call identical to one in progress joins it instead of running twice")
	fs.BoolVar(&o.tasks, "tasks", true, "serve MUTATE and LIVE calls as MCP Tasks to hosts that speak them (2025-11-25 tasks, the 2026-07-28 extension); false: ordinary calls with detach-and-wait for every host")
	fs.BoolVar(&o.warm, "warm", warm.DefaultOn(goos), "start the calls of a Python CLI whose manifest has cli.warm from a warm template (false: every call starts cold; off by default on macOS until it has run there)")
	fs.IntVar(&o.maxResultBytes, "max-result-bytes", server.DefaultMaxResultBytes, "bound on the text of one result")
	fs.IntVar(&o.maxQueued, "max-queued", server.DefaultMaxQueued, "calls of one tier that may wait for a free slot; more are refused (busy) until some end")
	fs.Int64Var(&o.maxMemoryMiB, "max-memory", 0, "memory ceiling of one call's process tree, in MiB (0: none)")
	fs.StringSliceVar(&o.passEnv, "pass-env", nil, "environment variable the CLI may see, by name (repeatable; no * or prefixes)")
	fs.BoolVar(&o.readOnly, "read-only", false, "advertise and allow only read-only tools")
	fs.StringArrayVar(&o.tools, "tools", nil, "advertise and allow only the tools matching this glob (repeatable; !GLOB excludes; AEAT_MCP_TOOLS takes a comma list)")
	fs.StringVar(&o.surface, "surface", server.SurfaceAll, "what tools/list holds: all (every tool) or catalog (the manifest's surface.core, plus aeat_mcp_find and aeat_mcp_call to reach the rest)")
	fs.StringArrayVar(&o.globals, "global", nil, "NAME=VALUE: the default of the manifest's shared param NAME (cli.params, e.g. profile), which a call may override (repeatable; env AEAT_MCP_GLOBAL_<NAME>)")
	fs.StringVar(&o.confirm, "confirm", server.ConfirmAsk, "destructive tools: ask (the user, through the host; refuse if it cannot ask) or never")
	fs.StringVar(&o.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&o.logFormat, "log-format", "text", "text or json")
	fs.StringVar(&o.logFile, "log-file", "", "write logs here instead of stderr")
}

// minResultBytes is the least --max-result-bytes that leaves room for a
// refusal's text around the output.
const minResultBytes = 1 << 10

// check rejects values that would make the server misbehave rather than
// fail: a zero ceiling would time every call out, a zero grace would not be
// what it says. Every problem is named, with the flag and its meaning.
func (o *options) check() error {
	var problems []string
	positive := func(name string, d time.Duration, means string) {
		if d <= 0 {
			problems = append(problems, fmt.Sprintf("--%s %v: must be more than 0 (%s)", name, d, means))
		}
	}
	positive("timeout-read", o.timeoutRead, "the ceiling of READ tools")
	positive("timeout-mutate", o.timeoutMutate, "the ceiling of MUTATE tools")
	positive("timeout-live", o.timeoutLive, "the ceiling of LIVE tools")
	tts, bad := parseToolTimeouts(o.timeoutTool)
	o.toolTimeouts = tts
	problems = append(problems, bad...)
	positive("kill-grace", o.killGrace, "how long a stopped call's tree is given after SIGTERM before SIGKILL")
	positive("drain", o.drain, "how long calls may finish after the host closes stdin")
	positive("keep-results", o.keepResults, "how long a finished run's result is kept")
	if o.detachAfter < 0 {
		problems = append(problems, fmt.Sprintf("--detach-after %v: must be 0 (never detach) or more", o.detachAfter))
	}
	if o.maxResultBytes < minResultBytes {
		problems = append(problems, fmt.Sprintf("--max-result-bytes %d: must be at least %d", o.maxResultBytes, minResultBytes))
	}
	if o.maxQueued < 1 {
		problems = append(problems, fmt.Sprintf("--max-queued %d: must be at least 1", o.maxQueued))
	}
	if o.maxMemoryMiB < 0 {
		problems = append(problems, fmt.Sprintf("--max-memory %d: must be 0 (no ceiling) or more", o.maxMemoryMiB))
	}
	if o.confirm != server.ConfirmAsk && o.confirm != server.ConfirmNever {
		problems = append(problems, fmt.Sprintf("--confirm %q: must be %q or %q", o.confirm, server.ConfirmAsk, server.ConfirmNever))
	}
	for _, n := range o.passEnv {
		if err := server.CheckPassEnvName(n); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if err := server.CheckSurface(o.surface); err != nil {
		problems = append(problems, err.Error())
	}
	problems = append(problems, o.checkLog()...)
	if sel, err := annotations.ParseSelection(o.tools); err != nil {
		problems = append(problems, "--tools: "+err.Error())
	} else {
		o.selection = sel
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

// checkLog rejects the log flags serve would stop on, so that every
// command refuses them (and config never writes one into a host's file): a
// level slog does not read, a format other than text or json, a --log-file
// whose directory is not there. The file itself is made only by serve.
func (o *options) checkLog() []string {
	var problems []string
	if _, err := o.level(); err != nil {
		problems = append(problems, fmt.Sprintf("--log-level %q: must be debug, info, warn or error", o.logLevel))
	}
	if o.logFormat != "text" && o.logFormat != "json" {
		problems = append(problems, fmt.Sprintf("--log-format %q: must be text or json", o.logFormat))
	}
	if o.logFile != "" {
		dir := filepath.Dir(o.logFile)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			problems = append(problems, fmt.Sprintf("--log-file %s: its directory %s is not there (aeat-mcp makes the file, not the directory)", o.logFile, dir))
		}
	}
	return problems
}

// level is --log-level as slog reads it ("debug", "INFO", "warn+2").
func (o *options) level() (slog.Level, error) {
	var level slog.Level
	err := level.UnmarshalText([]byte(o.logLevel))
	return level, err
}

// envName is a flag's environment twin: --timeout-live is AEAT_MCP_TIMEOUT_LIVE.
func envName(flag string) string {
	return "AEAT_MCP_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// applyEnv sets every flag the command line left alone from its
// environment twin. A bad value is a usage error that names the variable.
func applyEnv(fs *pflag.FlagSet, lookup func(string) (string, bool)) error {
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		if err != nil || f.Changed || f.Name == "lang" || f.Name == "global" {
			return // --lang's environment is AEAT_MCP_LANG, read with the locale variables; --global's is one variable per name
		}
		v, ok := lookup(envName(f.Name))
		if !ok || v == "" {
			return
		}
		if e := fs.Set(f.Name, v); e != nil {
			err = fmt.Errorf("%s=%q: %w", envName(f.Name), v, e)
		}
	})
	return err
}

func (o *options) printer() *i18n.Printer {
	if o.lang != "" {
		return i18n.Parse(o.lang)
	}
	return i18n.FromLookup(o.sys.lookupEnv)
}

// globalEnvPrefix starts the variables that are --global's twins:
// AEAT_MCP_GLOBAL_PROFILE=work is --global profile=work.
const globalEnvPrefix = "AEAT_MCP_GLOBAL_"

// applyGlobals makes the --global values (and, for the names the command
// line leaves alone, the AEAT_MCP_GLOBAL_<NAME> ones: the name matched
// without regard to case, an empty value ignored) the defaults of the
// manifest's shared params. Every bad name or value is named with where it
// came from.
func (o *options) applyGlobals(m *annotations.Manifest, environ []string) error {
	type given struct {
		texts  []string
		source string
	}
	byName := map[string]*given{}
	var order []string
	add := func(name, text, source string) {
		g := byName[name]
		if g == nil {
			g = &given{source: source}
			byName[name] = g
			order = append(order, name)
		}
		g.texts = append(g.texts, text)
	}
	var problems []string
	for _, kv := range o.globals {
		name, text, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			problems = append(problems, fmt.Sprintf("--global %q: give NAME=VALUE", kv))
			continue
		}
		add(name, text, "--global "+kv)
	}
	fromFlags := len(order)
	o.envGlobals = nil
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		suffix, ok := strings.CutPrefix(strings.ToUpper(k), globalEnvPrefix)
		if !ok || v == "" {
			continue
		}
		name := suffix
		for _, p := range m.CLI.Params {
			if strings.EqualFold(p.Name, suffix) {
				name = p.Name
			}
		}
		if slices.Contains(order[:fromFlags], name) {
			continue // the command line wins
		}
		add(name, v, k+"="+v)
		o.envGlobals = append(o.envGlobals, name+"="+v)
	}
	for _, name := range order {
		g := byName[name]
		if err := m.SetGlobal(name, g.texts); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", g.source, err))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}
