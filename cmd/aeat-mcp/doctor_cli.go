package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/keychain"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What doctor says about the CLI itself (docs/manifest.md, "`cli`"), apart from the
// supervision report of doctor.go: the variables and secrets it is given,
// anything broad in what it is passed, and — through cli.health, run as a
// tool call would be — its version and whether its user is logged in.

// doctorLines are doctor's three kinds of line; problem counts toward the
// exit code.
type doctorLines struct {
	ok, note func(format string, a ...any)
	problem  func(fix, format string, a ...any)
	// problems is how many problem lines were printed so far.
	problems func() int
}

// doctorEnv reports the variables and secrets the manifest names, and
// what they keep from running — a problem when every call refuses, a note
// when only some tools do (Inspection.Problems) — then what is set and
// found, the optional secrets not stored, and anything broad passed.
func doctorEnv(ctx context.Context, in *inspected, opts *options, store keychain.Store, l doctorLines) {
	m := in.manifest
	in.Secrets = server.Secrets(ctx, server.HostOS(), opts.sys.environ, m, store)
	if err := server.KeychainTrouble(in.Secrets); err != nil {
		l.note("%v", err)
	}
	required := false
	for _, p := range in.Problems() {
		switch {
		case p.EveryCall():
			l.problem(p.Fix, "%s", p.What)
		default:
			l.note("%s (%s)", p.What, p.Fix)
		}
	}
	for _, v := range in.MissingEnv {
		required = required || slices.Contains(m.CLI.Require, v)
	}
	if len(m.CLI.Require) > 0 && !required {
		l.ok("required variables set: %s", strings.Join(m.CLI.Require, ", "))
	}
	for _, st := range in.Secrets {
		where := "every call"
		if len(st.Tools) > 0 {
			where = strings.Join(st.Tools, ", ")
		}
		switch {
		case st.From != "":
			l.ok("%s (for %s)", st, where)
		case !st.Required && st.Err != nil:
			l.note("%s (optional) is not in aeat-mcp's environment, and the keychain cannot be read: to use it, set it in the host's \"env\" block", st.Name)
		case !st.Required:
			l.note("%s: optional — used when stored (`%s`)", st, server.SecretSetCommand(st.Name))
		}
	}
	for _, w := range server.PassWarnings(server.HostOS(), m.CLI.Pass, opts.passEnv) {
		l.note("broad: %s", w)
	}
}

// doctorProbe asks the CLI about itself (cli.health) through a server built
// as serve builds it, and says what it answered: its version, and whether
// it can serve calls — the health command failed (in the words the model
// would read), timed out, or answered; an answer that cli.health.ready
// does not call ready is a problem whatever the exit code (DESIGN.md §14).
func doctorProbe(ctx context.Context, in *inspected, opts *options, r *callruntime.Runner, store keychain.Store, l doctorLines) {
	if in.manifest.CLI.Health == nil || in.cfg.CLIError != nil || r == nil {
		return
	}
	cfg := in.cfg
	cfg.Runner, cfg.Keychain, cfg.Logger = r, store, slog.New(slog.DiscardHandler)
	cfg.DetachAfter = 0 // doctor waits for the answer
	s, err := server.New(cfg)
	if err != nil {
		l.problem("report it, with this output", "could not ask the CLI: %v", err)
		return
	}
	defer s.Shutdown()
	p := s.Probe(ctx)
	if ctx.Err() != nil {
		return // doctor was stopped: the probe's answer is that, not the CLI's
	}
	if p.VersionResult != nil {
		if p.Version != "" {
			l.ok("the CLI answers: %s", p.Version)
		} else {
			l.note("the CLI did not say its version: %s", firstParagraph(callText(p.VersionResult)))
		}
	}
	h := healthAsked{cli: in.manifest.CLI.Command, command: strings.Join(in.manifest.CLI.Health.Command, " "), unlock: unlockAdvice(in, opts)}
	o, _ := p.Health.Meta[server.OutcomeKey].(server.Outcome)
	switch {
	case o.Code == server.CodeTimeout:
		t := in.manifest.HealthTools()[0] // the health command: doctor's own tool, whose outcome names no tier
		h.timedOut(string(t.Tier()), t.Ceiling(in.cfg.Ceilings), l)
	case p.Health.IsError:
		h.failed(o, p.Health, l)
	case p.Ready != nil && !p.Ready.Ready:
		h.notReady(*in.manifest.CLI.Health.Ready, *p.Ready, l)
	case p.Ready != nil:
		l.ok("`%s %s` answered: %s — ready to serve calls", h.cli, h.command, readySummary(p.Health, *in.manifest.CLI.Health.Ready, *p.Ready))
	default:
		l.ok("`%s %s` answered%s", h.cli, h.command, summary(p.Health))
	}
}

// healthAsked is the health command doctor ran, and what to add to a fix
// that needs the CLI unlocked (unlockAdvice).
type healthAsked struct {
	cli, command, unlock string
}

func (h healthAsked) fix(first string) string {
	if h.unlock == "" {
		return first
	}
	return first + "\n           " + h.unlock
}

// timedOut: the health command ran past its tier's ceiling and was
// stopped; say which, and the ceiling.
func (h healthAsked) timedOut(tier string, ceiling time.Duration, l doctorLines) {
	flag := "--timeout-" + tier
	l.problem(fmt.Sprintf("run `%s %s` in a terminal: if it answers, only slowly (a Python CLI on a loaded machine), raise %s — calls get the same ceiling; if it hangs there too, the CLI itself is stuck", h.cli, h.command, flag),
		"`%s %s` did not answer within %v, the ceiling of %s tools (%s), so aeat-mcp stopped it and everything it had started; every call of that tier waits as long before it is refused the same way",
		h.cli, h.command, ceiling, tier, flag)
}

// failed: the health command exited with an error; the lines are what
// the model reads on every call while this lasts.
func (h healthAsked) failed(o server.Outcome, res *mcp.CallToolResult, l doctorLines) {
	what := o.ExitMeaning
	if what == "" {
		what = string(o.Code)
	}
	// The headline names doctor's internal tool; the rest is what the
	// model reads on every call while this lasts.
	_, told, _ := strings.Cut(firstParagraph(callText(res)), "\n")
	if strings.TrimSpace(told) == "" {
		told = firstParagraph(callText(res))
	}
	l.problem(h.fix("do what the lines above say; until then every call that needs it is refused the same way"),
		"`%s %s` failed (%s):\n%s", h.cli, h.command, what, indent(told, "           "))
}

// notReady: the health command answered, and its answer says the CLI
// cannot serve calls yet.
func (h healthAsked) notReady(r annotations.HealthReady, got annotations.Readiness, l doctorLines) {
	verdict := "nothing at " + string(r.Pointer)
	if got.Found {
		verdict = fmt.Sprintf("%s=%s", pointerName(r.Pointer), scalarText(got.Value))
	}
	fix := "do what the CLI's answer says, then run doctor again"
	if got.Fix != "" {
		fix = fmt.Sprintf("run `%s` in a terminal (the CLI's own next action), then doctor again", got.Fix)
	}
	l.problem(h.fix(fix), "`%s %s` answered %s, not %s: the CLI cannot serve the calls that need it yet",
		h.cli, h.command, verdict, valuesText(r.Values))
}

// unlockAdvice is how to give the CLI the secrets the manifest names for
// every call (cli.env.keychain) that it is not given now, in the way that
// works on this machine: the OS keychain where aeat-mcp reaches one, else
// the host's env block. On Linux, a CLI given no session bus cannot keep a
// login in the keychain either: that is said first. "" when nothing is
// missing.
func unlockAdvice(in *inspected, opts *options) string {
	var stored, envBlock []string
	for _, st := range in.Secrets {
		switch {
		case st.From != "" || st.Required || len(st.Tools) > 0:
		case st.Err != nil:
			envBlock = append(envBlock, st.Name)
		default:
			stored = append(stored, st.Name)
		}
	}
	if len(stored)+len(envBlock) == 0 {
		return ""
	}
	var b strings.Builder
	noBus := server.HostOS() == "linux" && envValue(server.BuildEnv("linux", in.manifest.CLI, opts.passEnv, opts.snapshot), "DBUS_SESSION_BUS_ADDRESS") == ""
	if noBus {
		b.WriteString("The CLI gets no D-Bus session bus here (DBUS_SESSION_BUS_ADDRESS), so it reaches no keychain: a login it keeps there lasts one command, and serves no call a host makes")
		if addr, err := keychain.SessionBus(opts.sys.environ); err == nil {
			fmt.Fprintf(&b, " — unless the host's \"env\" block gives it this session's bus: \"DBUS_SESSION_BUS_ADDRESS\": %q", addr)
		}
		b.WriteString(". ")
	}
	b.WriteString("What lasts: give aeat-mcp ")
	if len(stored) > 0 {
		cmds := make([]string, len(stored))
		for i, n := range stored {
			cmds[i] = "`" + server.SecretSetCommand(n) + "`"
		}
		fmt.Fprintf(&b, "%s once, in a terminal (the OS keychain; every call gets it)", strings.Join(cmds, ", "))
		if len(envBlock) > 0 {
			b.WriteString(", and ")
		}
	}
	if len(envBlock) > 0 {
		fmt.Fprintf(&b, "%s in the host's \"env\" block (no keychain in this session)", strings.Join(envBlock, ", "))
	}
	b.WriteString(".")
	return b.String()
}

// readySummary is a ready answer in one line: the active profile, the
// verdict, and the CLI's next action.
func readySummary(res *mcp.CallToolResult, r annotations.HealthReady, got annotations.Readiness) string {
	parts := []string{}
	if p := activeProfile(res); p != "" {
		parts = append(parts, "active profile "+p)
	}
	parts = append(parts, fmt.Sprintf("%s=%s", pointerName(r.Pointer), scalarText(got.Value)))
	if got.Fix != "" {
		parts = append(parts, "its next action: "+got.Fix)
	}
	return strings.Join(parts, ", ")
}

// pointerName is a pointer's last token: the name of what it points at.
func pointerName(p annotations.Pointer) string {
	s := string(p)
	name := s[strings.LastIndexByte(s, '/')+1:]
	return strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
}

func scalarText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	raw, _ := json.Marshal(v)
	return string(raw)
}

func valuesText(vs []any) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = scalarText(v)
	}
	if len(out) > 1 {
		return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
	}
	return strings.Join(out, "")
}

// summary is a health result in one line: the active profile and the
// result's scalar fields, as the CLI named them.
func summary(res *mcp.CallToolResult) string {
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil || res.StructuredContent == nil {
		return ""
	}
	var env map[string]any
	if json.Unmarshal(raw, &env) != nil {
		return ""
	}
	var parts []string
	if p := activeProfile(res); p != "" {
		parts = append(parts, "active profile "+p)
	}
	result, _ := env["result"].(map[string]any)
	keys := make([]string, 0, len(result))
	for k := range result {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch v := result[k].(type) {
		case string, bool, float64:
			if s := fmt.Sprint(v); s != "" && len(parts) < 8 {
				parts = append(parts, k+"="+s)
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, ", ")
}

// activeProfile is the envelope's active profile (aeat's "active_profile"),
// "" without one.
func activeProfile(res *mcp.CallToolResult) string {
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return ""
	}
	var env struct {
		ActiveProfile string `json:"active_profile"`
	}
	_ = json.Unmarshal(raw, &env) // not a string, or no envelope: ""
	return env.ActiveProfile
}

func callText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// firstParagraph is a result's text up to its first blank line: the
// headline, the CLI's message and remedy, our hint.
func firstParagraph(s string) string {
	head, _, _ := strings.Cut(s, "\n\n")
	return strings.TrimSpace(head)
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
