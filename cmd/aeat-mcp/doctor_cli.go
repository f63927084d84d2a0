package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"

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
}

// doctorEnv reports the variables and secrets the manifest names, and
// what they keep from running — a problem when every call refuses, a note
// when only some tools do (Inspection.Problems) — then what is set and
// found, the optional secrets not stored, and anything broad passed.
func doctorEnv(ctx context.Context, in *inspected, opts *options, store keychain.Store, l doctorLines) {
	m := in.manifest
	in.Secrets = server.Secrets(ctx, server.HostOS(), m, store)
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
		case !st.Required:
			l.note("%s: optional — used when stored (`%s`)", st, server.SecretSetCommand(st.Name))
		}
	}
	for _, w := range server.PassWarnings(server.HostOS(), m.CLI.Pass, opts.passEnv) {
		l.note("broad: %s", w)
	}
}

// doctorProbe asks the CLI about itself (cli.health) through a server built
// as serve builds it, and says what it answered: its version, and the
// health command's result — for aeat, whether its user is logged in — in
// the words the model would read.
func doctorProbe(ctx context.Context, in *inspected, r *callruntime.Runner, store keychain.Store, l doctorLines) {
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
	if p.VersionResult != nil {
		if p.Version != "" {
			l.ok("the CLI answers: %s", p.Version)
		} else {
			l.note("the CLI did not say its version: %s", firstParagraph(callText(p.VersionResult)))
		}
	}
	health := strings.Join(in.manifest.CLI.Health.Command, " ")
	o, _ := p.Health.Meta[server.OutcomeKey].(server.Outcome)
	if !p.Health.IsError {
		l.ok("`%s %s` answered%s", in.manifest.CLI.Command, health, summary(p.Health))
		return
	}
	what := o.ExitMeaning
	if what == "" {
		what = string(o.Code)
	}
	// The headline names doctor's internal tool; the rest is what the
	// model reads on every call while this lasts.
	_, told, _ := strings.Cut(firstParagraph(callText(p.Health)), "\n")
	l.problem("do what the lines above say; until then every call that needs it is refused the same way",
		"`%s %s` failed (%s):\n%s", in.manifest.CLI.Command, health, what, indent(told, "           "))
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
	if p, ok := env["active_profile"].(string); ok && p != "" {
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
