package main

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/spf13/cobra"
)

// version may be set at build time with -ldflags "-X main.version=v1.2.3";
// otherwise it comes from the build info Go embeds.
var version = ""

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version and the VCS revision it was built from",
		Example: "  aeat-mcp version\n  aeat-mcp --version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprint(cmd.OutOrStdout(), versionLine())
			return nil
		},
	}
}

// versionLine is what `aeat-mcp version` prints, in the words of `go
// version`: "aeat-mcp version v1.2.3 (0123456789ab)". `aeat-mcp --version`
// is cobra's own, which words the root's Version the same (TestVersion).
func versionLine() string { return "aeat-mcp version " + buildVersion() + "\n" }

// buildVersion is the module version ("v1.2.3" from go install …@v1.2.3,
// "devel" from a checkout) and, when the build recorded it, the VCS
// revision and whether the tree was modified. Worked out once: serve's
// start asks four times (the root's --version, the server's info, the
// manifest cache's key, the banner), and each debug.ReadBuildInfo parses
// the whole embedded build record again.
var buildVersion = sync.OnceValue(readBuildVersion)

func readBuildVersion() string {
	info, ok := debug.ReadBuildInfo()
	v := version
	if v == "" {
		v = "devel"
		if ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
	}
	if !ok {
		return v
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" || strings.Contains(v, rev) {
		return v // a pseudo-version already names the revision (and +dirty)
	}
	if modified == "true" {
		rev += ", modified"
	}
	return v + " (" + rev + ")"
}
