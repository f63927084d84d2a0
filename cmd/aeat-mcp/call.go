package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

type callOptions struct {
	args     []string
	argsJSON string
	json     bool
	dryRun   bool
}

func newCallCmd(opts *options) *cobra.Command {
	co := &callOptions{}
	cmd := &cobra.Command{
		Use:   "call TOOL [--arg NAME=VALUE]… | [--args-json '{…}']",
		Short: "Run one tool call through the full server path, to debug it by hand",
		Long: `call runs one tools/call exactly as a host's would go: argument validation,
the confirmation gate, the tier's ceiling, the supervised run, the result.
Progress goes to stderr, the result text to stdout. It exits 0, or 1 when the
result is an error, 2 for a usage error, 130 when Ctrl-C cancelled it (the
call's whole process tree is stopped first). A destructive tool asks for
confirmation on the terminal, showing what will run; Ctrl-C there is a no.

--arg NAME=VALUE is typed by the parameter (an integer, true/false, …);
repeat it for each element of an array. --dry-run prints the command line
and the environment names the call would run with, and runs nothing.`,
		Example: `  aeat-mcp --demo call ledger_list --arg limit=2 --arg tags=venta
  aeat-mcp --manifest aeat.json call filed_pull --args-json '{"year": 2025, "period": "1T", "modelo": ["303"]}'
  aeat-mcp --manifest aeat.json call ledger_remove --arg transaction_id=tx-9 --dry-run`,
		Args: func(_ *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return &exitError{exitUsage, errors.New("call needs a tool name (aeat-mcp tools lists them)")}
			case len(args) > 1:
				return &exitError{exitUsage, fmt.Errorf("call takes one tool name, then --arg NAME=VALUE flags; unexpected: %s", strings.Join(args[1:], " "))}
			}
			return nil
		},
		ValidArgsFunction: completeTools(opts),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("log-level") {
				// A person at a terminal wants the progress and the
				// result, not the server's routine log lines.
				opts.logLevel = "warn"
			}
			return runCall(cmd.Context(), opts, co, args[0], cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringArrayVar(&co.args, "arg", nil, "an argument as NAME=VALUE (repeat it for each array element)")
	cmd.Flags().StringVar(&co.argsJSON, "args-json", "", "all the arguments as one JSON object")
	cmd.Flags().BoolVar(&co.json, "json", false, "print the whole MCP result as JSON instead of its text")
	cmd.Flags().BoolVar(&co.dryRun, "dry-run", false, "print what would run (argv, environment names, stdin) and run nothing")
	_ = cmd.RegisterFlagCompletionFunc("arg", completeArgs(opts))
	return cmd
}

func runCall(ctx context.Context, opts *options, co *callOptions, name string, stdin io.Reader, stdout, stderr io.Writer) error {
	// A person waits for this one call, and the process ends with it: a run
	// left to collect later would be killed at exit. It never detaches.
	one := *opts
	one.detachAfter = 0
	// Nor does it start warm: a template would be started for this one
	// call, and killed with the process.
	one.warm = false
	st, err := one.open(stderr)
	if err != nil {
		return err
	}
	defer st.close()
	tool, err := findTool(st, name)
	if err != nil {
		return err
	}
	arguments, err := co.arguments(tool)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	if co.dryRun {
		raw, _ := json.Marshal(arguments)
		plan, err := st.server.Plan(name, raw)
		if err != nil {
			return &exitError{exitUsage, err}
		}
		printPlan(stdout, plan)
		return nil
	}
	res, err := callThrough(ctx, st, &mcp.CallToolParams{Name: name, Arguments: arguments}, stdin, stderr)
	if ctx.Err() != nil {
		// Ctrl-C: the server cancelled the run; closing the stack waits
		// until its tree is gone, then the person is told.
		st.close()
		fmt.Fprintln(stderr, opts.printer().Sprintf(i18n.Cancelled, name))
		return stopped(ctx)
	}
	if err != nil {
		return &exitError{exitFailure, err}
	}
	printResult(stdout, res, co.json)
	if res.IsError {
		return &exitError{exitFailure, nil}
	}
	return nil
}

// callThrough makes the call as a host would: an in-memory MCP session, a
// progress token (progress to stderr), and confirmation on the terminal.
func callThrough(ctx context.Context, st *stack, params *mcp.CallToolParams, stdin io.Reader, stderr io.Writer) (*mcp.CallToolResult, error) {
	clientT, serverT := mcp.NewInMemoryTransports()
	ss, err := st.server.Connect(ctx, serverT)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	answers := newLineReader(stdin)
	client := mcp.NewClient(&mcp.Implementation{Name: "aeat-mcp call", Version: version}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			fmt.Fprintln(stderr, "…", req.Params.Message)
		},
		// A person at a terminal can confirm a destructive call; Ctrl-C
		// while asked is a no, at once.
		ElicitationHandler: func(ectx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			fmt.Fprintf(stderr, "%s\n[y/N] ", req.Params.Message)
			line, ok := answers.next(ctx, ectx)
			if !ok {
				fmt.Fprintln(stderr)
				return &mcp.ElicitResult{Action: "cancel"}, nil
			}
			if i18n.IsYes(line) {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
			}
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	})
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	params.SetProgressToken("call")
	return cs.CallTool(ctx, params)
}

// lineReader reads a terminal's answers on a goroutine of its own, so a
// question can stop waiting when the call is cancelled.
type lineReader struct{ lines chan string }

func newLineReader(r io.Reader) *lineReader {
	lr := &lineReader{lines: make(chan string)}
	go func() {
		defer close(lr.lines)
		br := bufio.NewReader(r)
		for {
			line, err := br.ReadString('\n')
			if line != "" || err == nil {
				lr.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	return lr
}

// next is the next line, or false when either context ends first or the
// input is over.
func (lr *lineReader) next(a, b context.Context) (string, bool) {
	select {
	case line, ok := <-lr.lines:
		return line, ok
	case <-a.Done():
	case <-b.Done():
	}
	return "", false
}

func printResult(stdout io.Writer, res *mcp.CallToolResult, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
		return
	}
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			fmt.Fprint(stdout, tc.Text)
			if !strings.HasSuffix(tc.Text, "\n") {
				fmt.Fprintln(stdout)
			}
		}
	}
}

func printPlan(w io.Writer, p *server.Plan) {
	fmt.Fprintf(w, "would run: %s %s\n", p.Program(), annotations.ShellQuote(p.Argv))
	if p.CLIError != nil {
		fmt.Fprintf(w, "  but the CLI does not resolve: %v\n", p.CLIError)
	}
	fmt.Fprintf(w, "environment: %s\n", strings.Join(p.Env, " "))
	if p.Stdin != "" {
		fmt.Fprintf(w, "stdin: the value of %s\n", p.Stdin)
	}
	switch p.Dir {
	case "":
		fmt.Fprintln(w, "directory: the server's")
	case annotations.ScratchDir:
		fmt.Fprintln(w, "directory: a fresh private one, removed afterwards")
	default:
		fmt.Fprintf(w, "directory: %s\n", p.Dir)
	}
	fmt.Fprintf(w, "ceiling: %v (%s tier)\n", p.Ceiling, p.Tool.Tier())
	if p.Asks {
		fmt.Fprintf(w, "a person is asked first%s\n", confirmNote(p.Tool))
	}
	if len(p.MissingEnv) > 0 {
		fmt.Fprintf(w, "it would refuse: %s not set\n", strings.Join(p.MissingEnv, ", "))
	}
	fmt.Fprintln(w, "nothing was run (sensitive values are shown as "+annotations.Mask+")")
}

func confirmNote(t *annotations.Tool) string {
	if t.Confirm.Flag == "" {
		return ""
	}
	return "; " + t.Confirm.Flag + " is added only after a yes"
}

// findTool is the advertised tool called name, or a usage error that says
// why not: hidden by a flag, or unknown (with the closest names).
func findTool(st *stack, name string) (*annotations.Tool, error) {
	for _, t := range st.server.Tools() {
		if t.Name == name {
			return t, nil
		}
	}
	in := server.Inspect(st.cfg)
	if why, hidden := in.Hidden[name]; hidden {
		return nil, &exitError{exitUsage, &server.HiddenError{Tool: name, Reason: why}}
	}
	var names []string
	for _, t := range st.manifest.Tools {
		names = append(names, t.Name)
	}
	msg := fmt.Sprintf("no tool %q in the manifest", name)
	if close := closest(name, names, 3); len(close) > 0 {
		msg += "; did you mean " + strings.Join(close, ", ") + "?"
	}
	return nil, &exitError{exitUsage, errors.New(msg + " (aeat-mcp tools lists them)")}
}

// closest are the names within a few edits of name, or containing it,
// nearest first.
func closest(name string, names []string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, c := range names {
		d := editDistance(name, c)
		if strings.Contains(c, name) || strings.Contains(name, c) {
			d = min(d, 1)
		}
		if d <= max(2, len(name)/3) {
			cs = append(cs, cand{c, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// arguments builds the call's arguments from --args-json or the --arg
// flags, typed by the tool's parameters, and refuses what is clearly wrong
// before anything starts: a value of the wrong type (saying the type), a
// single-value parameter given twice, required parameters left out (all of
// them at once). The server validates the rest as it would a host's call.
func (co *callOptions) arguments(t *annotations.Tool) (map[string]any, error) {
	args := map[string]any{}
	if co.argsJSON != "" {
		if len(co.args) > 0 {
			return nil, fmt.Errorf("give --arg or --args-json, not both")
		}
		var err error
		if args, err = decodeArgsJSON(co.argsJSON); err != nil {
			return nil, err
		}
	}
	for _, a := range co.args {
		name, raw, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("--arg %q: want NAME=VALUE", a)
		}
		prm, ok := t.Param(name)
		if !ok {
			return nil, fmt.Errorf("--arg %s: %s has no parameter %q; it takes %s", name, t.Name, name, paramNames(t))
		}
		if _, twice := args[name]; twice && !prm.IsArray() {
			return nil, fmt.Errorf("--arg %s given twice: it takes one value (only arrays repeat)", name)
		}
		v, err := prm.Parse(raw, args[name])
		if err != nil {
			return nil, fmt.Errorf("--arg %s (%s): %w", name, prm.TypeName(), err)
		}
		args[name] = v
	}
	var missing []string
	for _, p := range t.Params() {
		if _, ok := args[p.Name]; p.Required && !ok {
			missing = append(missing, p.Name+" ("+p.TypeName()+")")
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s needs %s: give --arg NAME=VALUE for each", t.Name, strings.Join(missing, ", "))
	}
	return args, nil
}

// decodeArgsJSON reads --args-json: one JSON object and nothing after it;
// null is no arguments. Numbers stay as written (json.Number), exactly as
// a host's call and --arg pass them: 9007199254740993 and 1e-400 survive.
func decodeArgsJSON(s string) (map[string]any, error) {
	args := map[string]any{}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return nil, fmt.Errorf("--args-json: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("--args-json: one JSON object, and nothing after it")
	}
	if args == nil {
		args = map[string]any{} // null: no arguments
	}
	return args, nil
}

func paramNames(t *annotations.Tool) string {
	if len(t.Params()) == 0 {
		return "no arguments"
	}
	var names []string
	for _, p := range t.Params() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}
