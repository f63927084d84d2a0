// Command cobrasingle is a Cobra CLI of one command, no subcommands: the
// root is the verb.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	root := &cobra.Command{
		Use:     "cobrasingle FILE",
		Short:   "Count the lines of a file",
		Version: "1.0",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, _ := cmd.Flags().GetInt("max")
			fmt.Fprintln(cmd.OutOrStdout(), args[0], n)
			return nil
		},
	}
	root.Flags().Int("max", 100, "count at most this many")
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
