package generate

import (
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
)

// The package's patterns compile at their first use (lazyre): compiled
// here, a bad one fails the tests as it failed at init.
func TestPatternsCompile(t *testing.T) {
	lazyre.Compiled(pipTrampoline, cobraDefaultQuoted, cobraDefault, cobraDeprecated, directiveRE, kubectlInt, kubectlFloat, kubectlDuration, argNameRE, upperRE, headingRE, commandsRE, globalsRE, listedLineRE, toolIndexRE, sourceRef, optionRE, destroyPhrases)
}
