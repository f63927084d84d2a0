package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

type callOptions struct {
	args     []string
	argsJSON string
	json     bool
}

func newCallCmd(opts *options) *cobra.Command {
	co := &callOptions{}
	cmd := &cobra.Command{
		Use:   "call TOOL [--arg NAME=VALUE]… | [--args-json '{…}']",
		Short: "Run one tool call through the full server path, to debug it by hand",
		Long: `call runs one tools/call exactly as a host's would go: argument validation,
the confirmation gate, the tier's ceiling, the supervised run, the result.
Progress goes to stderr, the result text to stdout. It exits 0, or 1 when the
result is an error. A destructive tool asks for confirmation on the terminal.`,
		Example: `  aeat-mcp --demo call ledger_list --arg limit=2 --arg tags=venta
  aeat-mcp --manifest aeat.json call modelo_303_pull --args-json '{"year": 2025, "period": "1T"}'`,
		Args: cobra.ExactArgs(1),
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
	return cmd
}

func runCall(ctx context.Context, opts *options, co *callOptions, name string, stdin io.Reader, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	// A person waits for this one call, and the process ends with it: a run
	// left to collect later would be killed at exit. It never detaches.
	one := *opts
	one.detachAfter = 0
	st, err := one.open(stderr)
	if err != nil {
		return err
	}
	defer st.close()
	var tool *annotations.Tool
	for _, t := range st.manifest.Tools {
		if t.Name == name {
			tool = t
		}
	}
	if tool == nil {
		return &exitError{exitUsage, fmt.Errorf("no tool %q in the manifest (aeat-mcp tools lists them)", name)}
	}
	arguments, err := co.arguments(tool)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	clientT, serverT := mcp.NewInMemoryTransports()
	ss, err := st.server.MCP().Connect(ctx, serverT, nil)
	if err != nil {
		return &exitError{exitFailure, err}
	}
	defer ss.Close()
	answers := bufio.NewReader(stdin)
	client := mcp.NewClient(&mcp.Implementation{Name: "aeat-mcp call", Version: version}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			fmt.Fprintln(stderr, "…", req.Params.Message)
		},
		// A person at a terminal can confirm a destructive call.
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			fmt.Fprintf(stderr, "%s [y/N] ", req.Params.Message)
			line, _ := answers.ReadString('\n')
			if yes := strings.ToLower(strings.TrimSpace(line)); yes == "y" || yes == "yes" || yes == "s" || yes == "sí" || yes == "si" || yes == "bai" {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
			}
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	})
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		return &exitError{exitFailure, err}
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: name, Arguments: arguments}
	params.SetProgressToken("call")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		return &exitError{exitFailure, err}
	}
	if co.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
	} else {
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				fmt.Fprint(stdout, tc.Text)
				if !strings.HasSuffix(tc.Text, "\n") {
					fmt.Fprintln(stdout)
				}
			}
		}
	}
	if res.IsError {
		return &exitError{exitFailure, nil}
	}
	return nil
}

// arguments builds the call's arguments from --args-json or the --arg
// flags, typed by the tool's parameters (validation proper is the server's).
func (co *callOptions) arguments(t *annotations.Tool) (map[string]any, error) {
	if co.argsJSON != "" {
		if len(co.args) > 0 {
			return nil, fmt.Errorf("give --arg or --args-json, not both")
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(co.argsJSON), &v); err != nil {
			return nil, fmt.Errorf("--args-json: %w", err)
		}
		return v, nil
	}
	args := map[string]any{}
	for _, a := range co.args {
		name, raw, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("--arg %q: want NAME=VALUE", a)
		}
		prm, ok := t.Param(name)
		if !ok {
			args[name] = raw // the server names the unknown argument
			continue
		}
		v, err := prm.Parse(raw, args[name])
		if err != nil {
			return nil, fmt.Errorf("--arg %s (%s): %w", name, prm.TypeName(), err)
		}
		args[name] = v
	}
	return args, nil
}
