package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/warm"
	"github.com/spf13/cobra"
)

func newWarmCmd(opts *options) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "warm",
		Short: "Tools for cli.warm: what each verb loads",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "record [TOOL...]",
		Short: "Record the modules each verb loads, as cli.warm.preload",
		Long: `record starts a warm template as the server would — the manifest's
cli.warm, without its preload modules — and makes one warm call of each
tool named (default: every read-only tool its tiers serve that needs no
argument), recording the Python modules the call imported that the
template had not. It prints them as a cli.warm.preload object: the modules
more than one verb loads under "*", the others under the command path of
the verb that loads them, for the manifest (or its overrides). Set-up a
verb does besides importing ("module:function") is not found this way:
add it by hand.

Each recorded verb runs for real, with the environment a call gets: only
read-only tools are recorded.`,
		Example: `  aeat-mcp --manifest examples/aeat.manifest.json warm record
  aeat-mcp --manifest examples/aeat.manifest.json warm record ledger_list modelo_list`,
		RunE: func(c *cobra.Command, args []string) error {
			return runWarmRecord(c.Context(), opts, args, c.OutOrStdout(), c.ErrOrStderr())
		},
	})
	return cmd
}

func runWarmRecord(ctx context.Context, o *options, names []string, stdout, stderr io.Writer) error {
	m, err := o.loadManifest(nil)
	if err != nil {
		return err
	}
	w := m.CLI.Warm
	if w == nil {
		return &exitError{exitUsage, errors.New("the manifest has no cli.warm: nothing starts warm, so there is nothing to record")}
	}
	tools, err := recordable(m, w, names)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	cliPath, err := m.ResolveCommand(o.cli, selfDir())
	if err != nil {
		return &exitError{exitFailure, err}
	}
	r, err := callruntime.NewRunner(callruntime.Options{})
	if err != nil {
		return &exitError{exitFailure, err}
	}
	defer r.Close()
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg, cleanup, off := warmConfig(o, m, cliPath, r, logger)
	defer cleanup()
	if off != nil {
		return &exitError{exitFailure, fmt.Errorf("warm start cannot run here: %s", off.Status().Reason)}
	}
	// What each verb loads shows only over a template that has not loaded
	// it already; its verdict is not this configuration's.
	cfg.Warm.Modules, cfg.VerdictDir = nil, ""
	pool := warm.Start(cfg)
	defer pool.Close()

	recorded := map[string][]string{}
	var order []string
	for _, t := range tools {
		path := strings.Join(t.Command, " ")
		spec := callruntime.Spec{Path: cliPath, Args: append(slices.Clone(m.CLI.Args), t.Command...), Env: cfg.Env, Dir: cfg.Dir,
			Timeout: o.timeoutRead, MaxStdout: 1 << 20, MaxStderr: 64 << 10}
		rec, res, err := pool.Record(ctx, spec)
		if err := stopped(ctx); err != nil {
			return err // the call was stopped; the deferred closes stop the template
		}
		if err != nil {
			return &exitError{exitFailure, fmt.Errorf("recording %s: %w", t.Name, err)}
		}
		fmt.Fprintf(stderr, "%s (%s): %d modules, %.0f ms in the child, %s exit %d\n", t.Name, path, len(rec.Modules), rec.MS, res.End, res.ExitCode)
		recorded[path] = rec.Modules
		order = append(order, path)
	}
	out := preloadObject(w.Preload == annotations.PreloadClick, order, recorded)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// recordable are the tools named (all the recordable ones when none is):
// read-only — a recording runs the verb — and of a tier warm start serves.
func recordable(m *annotations.Manifest, w *annotations.Warm, names []string) ([]*annotations.Tool, error) {
	ok := func(t *annotations.Tool) error {
		switch {
		case !t.Hints.ReadOnly:
			return fmt.Errorf("%s changes state: only read-only tools are recorded (a recording runs the verb)", t.Name)
		case !slices.Contains(w.TiersOrDefault(), t.Tier()):
			return fmt.Errorf("%s is a %s tool, which cli.warm.tiers does not start warm", t.Name, t.Tier())
		}
		return nil
	}
	var out []*annotations.Tool
	if len(names) == 0 {
		for _, t := range m.Tools {
			if ok(t) == nil && !needsArguments(m, t) {
				out = append(out, t)
			}
		}
		if len(out) == 0 {
			return nil, errors.New("no read-only tool without required arguments to record: name the tools")
		}
		return out, nil
	}
	for _, n := range names {
		i := slices.IndexFunc(m.Tools, func(t *annotations.Tool) bool { return t.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("%s: no such tool in the manifest", n)
		}
		if err := ok(m.Tools[i]); err != nil {
			return nil, err
		}
		out = append(out, m.Tools[i])
	}
	return out, nil
}

// needsArguments reports whether t cannot run without an argument.
func needsArguments(m *annotations.Manifest, t *annotations.Tool) bool {
	for _, p := range append(slices.Clone(m.CLI.Params), t.Params()...) {
		if p.Required {
			return true
		}
	}
	return false
}

// preloadObject is cli.warm.preload for what the verbs loaded: under "*"
// (after "click" when the tree is walked) the modules more than one verb
// loaded, in the order they were first loaded; under each verb's path the
// modules it alone loaded. The template loads them all either way: the
// paths say which verb needs what, so a list can be checked and trimmed.
func preloadObject(click bool, order []string, recorded map[string][]string) map[string][]string {
	out := map[string][]string{}
	count := map[string]int{}
	for _, p := range order {
		for _, mod := range recorded[p] {
			count[mod]++
		}
	}
	shared := func(mod string) bool { return count[mod] > 1 }
	var all []string
	if click {
		all = append(all, annotations.PreloadClick)
	}
	seen := map[string]bool{}
	for _, p := range order {
		for _, mod := range recorded[p] {
			if shared(mod) && !seen[mod] {
				seen[mod] = true
				all = append(all, mod)
			}
		}
	}
	if len(all) > 0 {
		out[annotations.AllVerbs] = all
	}
	for _, p := range order {
		var own []string
		for _, mod := range recorded[p] {
			if !shared(mod) {
				own = append(own, mod)
			}
		}
		if len(own) > 0 {
			out[p] = own
		}
	}
	return out
}
