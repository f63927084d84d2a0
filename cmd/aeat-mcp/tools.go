package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/spf13/cobra"
)

func newToolsCmd(opts *options) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "tools [--json]",
		Short: "List the tools a host would see: tier, ceiling, hints, parameters",
		Long: `tools lists every tool this server advertises with the flags given
(--read-only and --tools leave some out; those are listed as hidden, with
why): its tier and real ceiling (a tool's own timeout included), its four
hints, and its parameters (* marks the required ones, ! the shared global
ones). --json prints the same as one JSON object for scripts; its shape is
documented in docs/commands.md and only grows.`,
		Example: `  aeat-mcp --demo tools
  aeat-mcp --manifest examples/aeat.manifest.json --tools 'ledger_*' tools --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, err := opts.inspect()
			if err != nil {
				return err
			}
			list := toolList(in)
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			list.print(cmd.OutOrStdout())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object (stable: fields are only ever added)")
	return cmd
}

// toolsJSON is the output of tools --json. Fields are only ever added.
type toolsJSON struct {
	Manifest string       `json:"manifest"`
	CLI      cliJSON      `json:"cli"`
	Tools    []toolJSON   `json:"tools"`
	BuiltIn  []string     `json:"built_in"`
	Hidden   []hiddenJSON `json:"hidden"`
	// MissingEnv names the variables calls need and the environment lacks.
	MissingEnv []string `json:"missing_env"`
	// Warm says how calls start: "none" (no cli.warm), "off" (--warm=false)
	// or "planned" (a server starts a template and verifies it; doctor
	// runs that check now and says why it would be off).
	Warm string `json:"warm"`
	// WarmVerdict is how the last template started for this configuration
	// on this machine fared (by a server or doctor), when one was.
	WarmVerdict *warmVerdictJSON `json:"warm_verdict,omitempty"`
	// Surface is "catalog" under --surface catalog (absent on the default
	// surface, where every tool is listed); each tool then says whether
	// tools/list holds it.
	Surface string `json:"surface,omitempty"`
}

type warmVerdictJSON struct {
	State    string    `json:"state"` // "on" or "off"
	Reason   string    `json:"reason,omitempty"`
	Verified int       `json:"verified"`
	At       time.Time `json:"at"`
	// Current is false when the CLI's files changed since: the next
	// template start checks again.
	Current bool `json:"current"`
}

type cliJSON struct {
	Command string `json:"command"`
	// Path is where it resolves; "" with Error when it does not.
	Path  string `json:"path"`
	Error string `json:"error,omitempty"`
}

type toolJSON struct {
	Name           string      `json:"name"`
	Title          string      `json:"title"`
	Tier           string      `json:"tier"`
	CeilingSeconds float64     `json:"ceiling_seconds"`
	OwnTimeout     bool        `json:"own_timeout"`
	Hints          hintsJSON   `json:"hints"`
	Output         string      `json:"output"`
	Command        []string    `json:"command"`
	ConfirmFlag    string      `json:"confirm_flag,omitempty"`
	Stdin          string      `json:"stdin,omitempty"` // "env:NAME", "keychain:NAME" or "param:NAME"
	Params         []paramJSON `json:"params"`
	// Warm: its calls start from the warm template (cli.warm), while one
	// is ready and verified.
	Warm bool `json:"warm"`
	// Listed (only under --surface catalog): tools/list holds it; the
	// others are reached through aeat_mcp_find and aeat_mcp_call.
	Listed *bool `json:"listed,omitempty"`
	// guessed are the hints the manifest marks hints_guessed (for the
	// table; validate names them).
	guessed []string
}

type hintsJSON struct {
	ReadOnly    bool `json:"readOnly"`
	Destructive bool `json:"destructive"`
	Idempotent  bool `json:"idempotent"`
	OpenWorld   bool `json:"openWorld"`
}

type paramJSON struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Required    bool     `json:"required"`
	Flag        string   `json:"flag,omitempty"`
	Positional  bool     `json:"positional,omitempty"`
	Global      bool     `json:"global,omitempty"`
	Shared      bool     `json:"shared,omitempty"` // from cli.params: every tool has it
	Sensitive   bool     `json:"sensitive,omitempty"`
	Enum        []any    `json:"enum,omitempty"`
	Default     any      `json:"default,omitempty"`
	Requires    []string `json:"requires,omitempty"`
	Description string   `json:"description,omitempty"`
}

type hiddenJSON struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

func toolList(in *inspected) toolsJSON {
	out := toolsJSON{Manifest: in.manifest.Source, CLI: cliJSON{Command: in.manifest.CLI.Command, Path: in.cfg.CLIPath},
		BuiltIn: append([]string{}, in.BuiltIn...), Hidden: []hiddenJSON{},
		MissingEnv: append([]string{}, in.MissingEnv...)}
	if in.cfg.CLIError != nil {
		out.CLI.Error = in.cfg.CLIError.Error()
	}
	if out.Manifest == "" {
		out.Manifest = builtInDemo
	}
	out.Warm = "none"
	if w := in.manifest.CLI.Warm; w != nil {
		out.Warm = "off"
		if in.warm {
			out.Warm = "planned"
			if v, current := in.warmVerdict(); v != nil {
				out.WarmVerdict = &warmVerdictJSON{State: string(v.State), Reason: v.Reason, Verified: v.Verified, At: v.At, Current: current}
			}
		}
	}
	var listed map[string]bool
	if in.cfg.Surface == server.SurfaceCatalog {
		out.Surface = server.SurfaceCatalog
		listed = map[string]bool{}
		for _, t := range server.Listed(in.cfg) {
			listed[t.Name] = true
		}
	}
	for _, t := range in.Tools {
		tj := toolJSON{Name: t.Name, Title: t.Title, Tier: string(t.Tier()),
			CeilingSeconds: t.Ceiling(in.cfg.Ceilings).Seconds(), OwnTimeout: t.Timeout > 0,
			Hints:  hintsJSON{t.Hints.ReadOnly, t.Hints.Destructive, t.Hints.Idempotent, t.Hints.OpenWorld},
			Output: t.Output, Command: t.Command, ConfirmFlag: t.Confirm.Flag, Params: []paramJSON{}, guessed: t.HintsGuessed}
		if listed != nil {
			l := listed[t.Name]
			tj.Listed = &l
		}
		if s := t.Stdin; s != nil {
			switch {
			case s.Env != "":
				tj.Stdin = "env:" + s.Env
			case s.Keychain != "":
				tj.Stdin = "keychain:" + s.Keychain
			default:
				tj.Stdin = "param:" + s.Param
			}
		}
		if w := in.manifest.CLI.Warm; w != nil && in.warm {
			tj.Warm = slices.Contains(w.TiersOrDefault(), t.Tier())
		}
		for _, p := range t.Params() {
			tj.Params = append(tj.Params, paramJSON{Name: p.Name, Type: p.TypeName(), Required: p.Required, Flag: p.Flag,
				Positional: p.Positional, Global: p.Global, Shared: p.Shared, Sensitive: p.Sensitive, Enum: p.Enum, Default: p.Default,
				Requires: p.Requires, Description: p.Description})
		}
		out.Tools = append(out.Tools, tj)
	}
	for name, why := range in.Hidden {
		out.Hidden = append(out.Hidden, hiddenJSON{name, why})
	}
	sort.Slice(out.Hidden, func(i, j int) bool { return out.Hidden[i].Name < out.Hidden[j].Name })
	return out
}

// print is the list for a person: one line per tool.
func (l toolsJSON) print(w io.Writer) {
	l.printHeader(w)
	l.printShared(w)
	if guessed := l.printTable(w); guessed > 0 {
		fmt.Fprintf(w, "\n? a guessed hint (%d tools): the cautious value, not the CLI's word — aeat-mcp validate names them, generate --overrides sets them\n", guessed)
	}
	l.printHidden(w)
	l.printWarm(w)
	if len(l.MissingEnv) > 0 {
		fmt.Fprintf(w, "missing variables (calls that need them refuse): %s — run aeat-mcp doctor\n", strings.Join(l.MissingEnv, ", "))
	}
}

// builtInDemo is the manifest tools names for --demo's, which has no file.
const builtInDemo = "(built-in demo)"

// cliNamed names a manifest's CLI for a person: `the CLI "aeat"`. The
// demo's (source "": the manifest --demo loads, the only one without a
// file) is this binary re-executed as a fake aeat, and its cli.command,
// aeat-mcp, would read as a CLI of that name.
func cliNamed(source, command string) string {
	if source == "" {
		return "the demo's built-in fake aeat"
	}
	return fmt.Sprintf("the CLI %q", command)
}

// printHeader says where the tools come from, how many per tier, and
// what the catalog surface lists.
func (l toolsJSON) printHeader(w io.Writer) {
	where := l.CLI.Path
	if where == "" {
		where = "NOT FOUND: " + l.CLI.Error
	}
	source := l.Manifest
	if source == builtInDemo {
		source = ""
	}
	fmt.Fprintf(w, "%d tools from %s (%s: %s), plus %s\n", len(l.Tools), l.Manifest, cliNamed(source, l.CLI.Command), where, strings.Join(l.BuiltIn, ", "))
	tiers := map[string]int{}
	listed := 0
	for _, t := range l.Tools {
		tiers[t.Tier]++
		if t.Listed != nil && *t.Listed {
			listed++
		}
	}
	fmt.Fprintf(w, "by tier: %d read, %d mutate, %d live\n", tiers["read"], tiers["mutate"], tiers["live"])
	if l.Surface == server.SurfaceCatalog {
		fmt.Fprintf(w, "--surface catalog: tools/list holds the %d marked LISTED (the manifest's surface.core), %s and %s; those reach the other %d\n",
			listed, server.ToolFind, server.ToolCall, len(l.Tools)-listed)
	}
	fmt.Fprintln(w)
}

// printShared names the global flags every tool takes once, above the
// table, rather than in every row (every tool has them, so the first
// tool's are everyone's).
func (l toolsJSON) printShared(w io.Writer) {
	if len(l.Tools) == 0 {
		return
	}
	var shared []string
	for _, p := range l.Tools[0].Params {
		if p.Shared {
			w := p.Name + ":" + p.Type
			if p.Default != nil {
				// a default a call may override (--global, or the manifest's own)
				w += "=" + defaultWord(p)
			}
			shared = append(shared, w)
		}
	}
	if len(shared) > 0 {
		fmt.Fprintf(w, "every tool also takes (global flags, before the verb): %s\n\n", strings.Join(shared, " "))
	}
}

// printTable writes one row per tool, with a LISTED column on the catalog
// surface, and returns how many tools have a guessed hint.
func (l toolsJSON) printTable(w io.Writer) (guessed int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	listedColumn := func(t toolJSON) string { return "" }
	if l.Surface == server.SurfaceCatalog {
		fmt.Fprint(tw, "LISTED\t")
		listedColumn = func(t toolJSON) string {
			if *t.Listed {
				return "yes\t"
			}
			return "-\t"
		}
	}
	fmt.Fprintln(tw, "TOOL\tTIER\tCEILING\tHINTS\tPARAMETERS")
	for _, t := range l.Tools {
		ceiling := formatDuration(t.CeilingSeconds)
		if t.OwnTimeout {
			ceiling += " (own)"
		}
		if len(t.guessed) > 0 {
			guessed++
		}
		fmt.Fprintf(tw, "%s%s\t%s\t%s\t%s\t%s\n", listedColumn(t), t.Name, t.Tier, ceiling, hintWords(t.Hints, t.guessed), paramWords(t.Params))
	}
	tw.Flush()
	return guessed
}

// printHidden names the tools hidden, grouped by the flag that hid them.
func (l toolsJSON) printHidden(w io.Writer) {
	byReason := map[string][]string{}
	for _, h := range l.Hidden {
		byReason[h.Reason] = append(byReason[h.Reason], h.Name)
	}
	for _, why := range []struct{ reason, by string }{{server.ReasonReadOnly, "--read-only"}, {server.ReasonNotSelected, "--tools"}} {
		if names := byReason[why.reason]; len(names) > 0 {
			fmt.Fprintf(w, "\nhidden by %s (%d): %s\n", why.by, len(names), someNames(names, maxHiddenNames))
		}
	}
}

// printWarm says whether calls start from a warm template: how many tools
// would, and this machine's last verdict on it; or why warm start is off.
func (l toolsJSON) printWarm(w io.Writer) {
	switch l.Warm {
	case "planned":
		var warmTools []string
		for _, t := range l.Tools {
			if t.Warm {
				warmTools = append(warmTools, t.Name)
			}
		}
		fmt.Fprintf(w, "\nwarm start (cli.warm): %d tools start from a warm template once the server has verified it", len(warmTools))
		switch v := l.WarmVerdict; {
		case v == nil:
			fmt.Fprintf(w, "; not checked on this machine yet: aeat-mcp doctor runs that check now\n")
		case !v.Current:
			fmt.Fprintf(w, "; the CLI changed since the last check (%s, %s): the server checks again when it starts, aeat-mcp doctor now\n", v.At.Local().Format(time.DateTime), v.State)
		case v.State == "on":
			fmt.Fprintf(w, "; checked on this machine %s: %d verify call(s) identical cold and warm\n", v.At.Local().Format(time.DateTime), v.Verified)
		default:
			fmt.Fprintf(w, ".\nwarm start is OFF on this machine since %s, every call starts cold: %s\n(fix it, then aeat-mcp doctor checks again)\n", v.At.Local().Format(time.DateTime), v.Reason)
		}
	case "off":
		fmt.Fprintf(w, "\nwarm start: off %s\n", warmOffWhy(server.HostOS()))
	}
}

// hintWords are the hints that are on; a guessed one ends in "?".
func hintWords(h hintsJSON, guessed []string) string {
	var words []string
	for _, x := range []struct {
		on   bool
		word string
		name string
	}{{h.ReadOnly, "read-only", "readOnlyHint"}, {h.Destructive, "destructive", "destructiveHint"},
		{h.Idempotent, "idempotent", "idempotentHint"}, {h.OpenWorld, "open-world", "openWorldHint"}} {
		if x.on {
			w := x.word
			if slices.Contains(guessed, x.name) {
				w += "?"
			}
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return "-"
	}
	return strings.Join(words, ",")
}

// Bounds that keep the table of a 300-tool manifest one screen line per
// tool; tools --json has everything.
const (
	maxParamWords  = 8
	maxHiddenNames = 20
)

// someNames lists at most max names, and says how many more there are.
func someNames(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s … and %d more (tools --json lists them all)", strings.Join(names[:max], ", "), len(names)-max)
}

// paramWords are a tool's own params (the shared ones are said once above
// the table), at most maxParamWords of them.
func paramWords(ps []paramJSON) string {
	var words []string
	more := 0
	for _, p := range ps {
		if p.Shared {
			continue
		}
		if len(words) == maxParamWords {
			more++
			continue
		}
		w := p.Name
		if p.Required {
			w += "*"
		}
		if p.Global {
			w += "!"
		}
		words = append(words, w+":"+p.Type)
	}
	if len(words) == 0 {
		return "-"
	}
	if more > 0 {
		words = append(words, fmt.Sprintf("+%d more", more))
	}
	return strings.Join(words, " ")
}

// defaultWord is a param's default as a person reads it (masked when
// sensitive).
func defaultWord(p paramJSON) string {
	if p.Sensitive {
		return annotations.Mask
	}
	if s, ok := p.Default.(string); ok {
		return s
	}
	b, _ := json.Marshal(p.Default)
	return string(b)
}

func formatDuration(seconds float64) string {
	if seconds >= 60 && seconds == float64(int(seconds/60))*60 {
		return fmt.Sprintf("%dm", int(seconds/60))
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", seconds), "0"), ".") + "s"
}

// toolCount is how many tools there are, by tier: "300 tools (52 read,
// 229 mutate, 19 live)" — what validate, doctor and generate say of a
// manifest of any size.
func toolCount(tools []*annotations.Tool) string {
	n := map[annotations.Tier]int{}
	for _, t := range tools {
		n[t.Tier()]++
	}
	return fmt.Sprintf("%d tools (%d read, %d mutate, %d live)", len(tools), n[annotations.Read], n[annotations.Mutate], n[annotations.Live])
}

// guessedCount is how many tools have a guessed hint.
func guessedCount(tools []*annotations.Tool) int {
	n := 0
	for _, t := range tools {
		if len(t.HintsGuessed) > 0 {
			n++
		}
	}
	return n
}

// surfaceSummary says what tools/list holds under --surface catalog ("" on
// the default surface, where it holds every tool).
func surfaceSummary(in *inspected) string {
	if in.cfg.Surface != server.SurfaceCatalog {
		return ""
	}
	return fmt.Sprintf("--surface catalog lists %d of them (surface.core) with %s and %s", len(server.Listed(in.cfg)), server.ToolFind, server.ToolCall)
}
