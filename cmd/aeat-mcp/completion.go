package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// Shell completion (cobra's completion command: bash, zsh, fish,
// powershell) completes tool names after call, and NAME= after --arg with
// the parameters of the tool being called — read from the manifest the
// flags (or AEAT_MCP_MANIFEST) point at, as the command itself would.

// completeTools completes call's TOOL with the advertised tools.
func completeTools(opts *options) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		in := completionInspect(cmd, opts)
		if in == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, t := range in.Tools {
			if strings.HasPrefix(t.Name, prefix) {
				out = append(out, cobra.CompletionWithDesc(t.Name, t.Title))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeArgs completes --arg with NAME= for each parameter of the tool
// named before it.
func completeArgs(opts *options) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == 0 || strings.Contains(prefix, "=") {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		in := completionInspect(cmd, opts)
		if in == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, t := range in.Tools {
			if t.Name != args[0] {
				continue
			}
			for _, p := range t.Params() {
				if strings.HasPrefix(p.Name, prefix) {
					desc := p.TypeName()
					if p.Required {
						desc += ", required"
					}
					out = append(out, cobra.CompletionWithDesc(p.Name+"=", desc))
				}
			}
		}
		return out, cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
	}
}

// completionInspect loads the manifest as the command would; nil when it
// does not load (completion then offers nothing rather than an error).
func completionInspect(cmd *cobra.Command, opts *options) *inspected {
	// Completion skips the pre-run hook that applies the environment twins.
	if applyEnv(cmd.Flags(), opts.sys.lookupEnv) != nil {
		return nil
	}
	in, err := opts.inspect()
	if err != nil {
		return nil
	}
	return in
}
