// Command cobracli is a small Cobra CLI that the generate tests walk from
// outside (its help only) and then serve: every verb prints, as JSON, the
// words it was run with, its arguments and every flag's value, so a test
// sees exactly what a tool call rendered.
package main

import (
	"encoding/json"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func main() {
	if err := root().Execute(); err != nil {
		os.Exit(1)
	}
}

// report prints what cmd was run with.
func report(cmd *cobra.Command, args []string) error {
	flags := map[string]any{}
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" {
			flags[f.Name] = f.Value.String()
		}
	})
	return json.NewEncoder(cmd.OutOrStdout()).Encode(map[string]any{
		"command": cmd.CommandPath(), "args": args, "flags": flags, "changed": changed(cmd),
	})
}

func changed(cmd *cobra.Command) []string {
	var out []string
	cmd.Flags().Visit(func(f *pflag.Flag) { out = append(out, f.Name) })
	return out
}

func root() *cobra.Command {
	root := &cobra.Command{
		Use:   "cobracli",
		Short: "Notes in a local book (a demo of a Cobra CLI)",
		Long:  "cobracli keeps notes in a local book.\n\nIt is the Cobra CLI the generate tests walk.",
	}
	root.PersistentFlags().String("profile", "", "run as this profile")
	root.PersistentFlags().Bool("verbose", false, "say more on stderr")
	root.PersistentFlags().String("format", "text", "text or json")
	root.Flags().Bool("local-only", false, "a flag of the root alone (not inherited)")

	add := &cobra.Command{
		Use:   "add TITLE",
		Short: "Add a note",
		Long:  "Add a note to the book.\n\nPrints the note as JSON.",
		Args:  cobra.ExactArgs(1),
		RunE:  report,
	}
	add.Flags().StringArrayP("tag", "t", nil, "a tag (repeatable)")
	add.Flags().Int("priority", 3, "priority, 1 to 5")
	add.Flags().Duration("remind", time.Hour, "remind after this long")
	add.Flags().Bool("pin", false, "pin it")
	add.Flags().Bool("notify", true, "tell the others")
	add.Flags().StringSlice("link", nil, "links, comma-separated")
	add.Flags().String("color", "", "the note's colour")
	_ = add.Flags().MarkDeprecated("color", "use --tag")
	add.Flags().Float64("weight", 0.5, "how much it weighs")

	list := &cobra.Command{Use: "list", Short: "List the notes", Args: cobra.NoArgs, RunE: report}
	list.Flags().Int("limit", 10, "at most this many")
	list.Flags().CountP("detail", "d", "more detail for each -d")
	list.Flags().Bool("debug-sql", false, "print the queries")
	_ = list.Flags().MarkHidden("debug-sql")

	// An alias is no command of its own: completion never lists it.
	remove := &cobra.Command{Use: "remove ID [ID...]", Aliases: []string{"rm"}, Short: "Remove notes", Args: cobra.MinimumNArgs(1), RunE: report}
	remove.Flags().Bool("yes", false, "do not ask")

	// A required flag: its help page does not say so, completion does.
	label := &cobra.Command{Use: "label {<id> | --all}", Short: "Label notes", RunE: report}
	label.Flags().StringP("name", "n", "", "the label")
	_ = label.MarkFlagRequired("name")
	label.Flags().Bool("all", false, "every note")

	remote := &cobra.Command{Use: "remote", Short: "The remote book"}
	remote.PersistentFlags().String("url", "https://book.invalid", "the remote's address")
	sync := &cobra.Command{Use: "sync [NAME]", Short: "Sync with the remote", Args: cobra.MaximumNArgs(1), RunE: report}
	sync.Flags().String("since", "", "only notes changed since then")
	status := &cobra.Command{Use: "status", Short: "Say how far behind the remote is", RunE: report}
	remote.AddCommand(sync, status)

	debug := &cobra.Command{Use: "debug", Hidden: true, RunE: report}

	// Help with terminal escapes (an OSC 8 link, a clear-screen, bold, a
	// direction override): none of it may reach a title or a description.
	docs := &cobra.Command{Use: "docs", Short: "Open the \x1b]8;;https://book.invalid/docs\x07docs\x1b]8;;\x07",
		Long: "\x1b[2J\x1b[HOpen the \x1b[1mdocs\x1b[0m in a browser.\nPay \u202eyrtne\u202c now.", RunE: report}

	root.AddCommand(add, list, remove, label, remote, debug, docs)
	return root
}
