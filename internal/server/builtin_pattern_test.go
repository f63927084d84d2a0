package server

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBuiltins_PatternsCompile: every pattern of a built-in tool compiles.
// annotations.NewBuiltin compiles them at their first use, where one that
// did not compile would check nothing.
func TestBuiltins_PatternsCompile(t *testing.T) {
	for _, surface := range []string{"", SurfaceCatalog} {
		s := newServer(t, func(c *Config) { c.Surface = surface })
		for _, st := range s.builtinTools() {
			for _, p := range st.tool.Params() {
				if p.Pattern != "" {
					_, err := regexp.Compile(p.Pattern)
					assert.NoError(t, err, "%s.%s", st.tool.Name, p.Name)
				}
			}
		}
	}
}
